#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

"""Fails when a source file tracked by git does not open with the project's
license header (meson test license_headers):

  // SPDX-License-Identifier: LGPL-2.1-or-later     C, C++, CUDA, headers
  // Copyright (C) 2026 The gst-cudafilters authors

or the same two lines after `# ` in meson files, Python, shell, linker version
scripts (.map) and every other file that starts with a `#!` line (the header
then follows that line).

  check_license_headers.py SOURCE_DIR

Exit status 77 (skipped) where SOURCE_DIR is not a git checkout (a release
tarball): which files are sources is what git tracks.
"""
import os
import subprocess
import sys

SPDX = "SPDX-License-Identifier: LGPL-2.1-or-later"
COPYRIGHT = "Copyright (C) 2026 The gst-cudafilters authors"
SLASH_SUFFIXES = (".c", ".cpp", ".h", ".cu", ".cuh")
HASH_SUFFIXES = (".py", ".sh", ".map")
HASH_NAMES = ("meson.build", "meson_options.txt")


def tracked_files(source_dir):
    run = subprocess.run(["git", "-C", source_dir, "ls-files", "-z"],
                         capture_output=True)
    if run.returncode != 0:
        return None
    return [name for name in run.stdout.decode().split("\0") if name]


def expected_header(path):
    """The comment marker and how many lines precede the header, or None where
    the file is not a source file."""
    with open(path, "rb") as f:
        starts_with_shebang = f.read(2) == b"#!"
    if path.endswith(SLASH_SUFFIXES):
        return "//", 0
    if path.endswith(HASH_SUFFIXES) or os.path.basename(path) in HASH_NAMES:
        return "#", 1 if starts_with_shebang else 0
    if starts_with_shebang:
        return "#", 1
    return None


def problem_of(path, marker, skip):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()[skip:skip + 2]
    want = [f"{marker} {SPDX}", f"{marker} {COPYRIGHT}"]
    if lines != want:
        where = "after the #! line" if skip else "first"
        return f"{path}: expected {where}:\n    " + "\n    ".join(want)
    return None


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    source_dir = argv[1]
    files = tracked_files(source_dir)
    if files is None:
        print(f"SKIP: {source_dir} is not a git checkout")
        return 77
    checked = 0
    problems = []
    for name in files:
        path = os.path.join(source_dir, name)
        if not os.path.isfile(path):  # deleted in the work tree, not yet committed
            continue
        expected = expected_header(path)
        if expected is None:
            continue
        checked += 1
        problem = problem_of(path, *expected)
        if problem:
            problems.append(problem)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{checked} source files checked, {len(problems)} without the license header")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
