#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

"""The shape plugin/ keeps, so that a newcomer can read it: no file over 800 lines,
no function over 60 (class_init and a list of properties aside), counted from the
first line of its signature to its closing brace. Functions are those in GNU style,
as the plugin writes them: the return type and name at the start of a line, the
body's braces alone at the start of theirs. Prints each offender; exit status 1 if
any."""

import pathlib
import re
import sys

MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 60
EXEMPT = re.compile(r"(_class_init|^install_properties)$")
DEFINITION = re.compile(r"^(struct|class|enum|union|namespace|typedef)\b")


def functions(lines):
    """(name, first line, length) of each function defined in `lines`."""
    for i, line in enumerate(lines):
        if line != "{":
            continue
        # The signature: the lines right above, back to a blank line, a comment or
        # the end of a statement.
        start = i
        while start > 0:
            above = lines[start - 1].strip()
            if (not above or above.endswith((";", "}", "*/")) or
                    above.startswith(("//", "#", "/*", "*"))):
                break
            start -= 1
        signature = " ".join(lines[start:i])
        if "(" not in signature or DEFINITION.match(signature):
            continue
        name = signature.split("(")[0].split()[-1]
        end = next((j for j in range(i + 1, len(lines)) if lines[j] == "}"), len(lines) - 1)
        yield name, start + 1, end - start + 1


def main(root):
    failures = []
    for path in sorted(pathlib.Path(root, "plugin").glob("*")):
        if path.suffix not in (".c", ".cpp", ".h"):
            continue
        lines = path.read_text().splitlines()
        if len(lines) > MAX_FILE_LINES:
            failures.append(f"{path}: {len(lines)} lines (at most {MAX_FILE_LINES})")
        for name, first, length in functions(lines):
            if length > MAX_FUNCTION_LINES and not EXEMPT.search(name):
                failures.append(f"{path}:{first}: {name}: {length} lines "
                                f"(at most {MAX_FUNCTION_LINES})")
    for failure in failures:
        print(failure)
    print(f"{len(failures)} offenders in {root}/plugin")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
