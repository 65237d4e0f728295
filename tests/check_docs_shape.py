#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

"""The size the docs keep for their readers: README.md a user's first page of at
most 300 lines (detail goes to docs/), bench/results at most 40 files (older runs
summarised in docs/benchmarks.md, their files left to git's history). Prints each
excess; exit status 1 if any."""

import pathlib
import sys

MAX_README_LINES = 300
MAX_RESULT_FILES = 40


def main(root):
    root = pathlib.Path(root)
    problems = []
    readme_lines = len((root / "README.md").read_text(encoding="utf-8").splitlines())
    if readme_lines > MAX_README_LINES:
        problems.append(f"README.md: {readme_lines} lines, at most {MAX_README_LINES}: "
                        "move detail to docs/")
    results = [p for p in (root / "bench" / "results").rglob("*") if p.is_file()]
    if len(results) > MAX_RESULT_FILES:
        problems.append(f"bench/results: {len(results)} files, at most {MAX_RESULT_FILES}: "
                        "summarise older runs in docs/benchmarks.md and remove them")
    for problem in problems:
        print(problem)
    print(f"README.md {readme_lines} lines, bench/results {len(results)} files")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
