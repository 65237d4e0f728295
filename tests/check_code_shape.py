#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

"""The shape plugin/ and kernels/ keep, so that a newcomer can read them (meson test
code_shape). A function is counted from the first line of its signature to its
closing brace, whatever its style: GNU (plugin/), K&R (kernels/), a method defined in
its class's body, a function inside a namespace. Lambdas and blocks inside a function
count as part of that function, not on their own.

plugin/ (.c, .cpp, .h):
  - files at most 800 lines;
  - plugin/cfbasefilter.cpp at most 600: the base class every element derives from
    stays small, so that what is one role's or one element's lives in that role's or
    that element's file, which has room for it, not in the base;
  - functions at most 60 lines; class_init and the installing of properties
    (*install_properties) aside, which are one long list each.

kernels/ (.c, .cpp, .cu, .h, .hpp, .cuh):
  - files at most 1700 lines: a .cu file holds one filter's kernels with every device
    function they call (without relocatable device code a kernel can only call what
    its own translation unit defines), and its launchers;
  - host functions at most 60 lines, as in plugin/;
  - CUDA device functions and kernels (__global__, __device__, __host__ __device__)
    at most 100: a sorting network, an unrolled loop or a kernel's load, compute and
    store phases read best straight down, and cutting a kernel's inner loop into
    calls can change what the compiler keeps in registers.
  - ALLOWED names the few functions past their limit, each with how far and why. An
    allowance no longer needed (the function gone, or within the limit) is an
    offender too, so that none outlives its reason.

Prints each offender as `path:line: name: N lines (at most M)` and a count; exit
status 1 if any. A file the parser cannot follow (braces that do not balance once
comments, strings and preprocessor lines are set aside) is an offender too, and so is
a folder of sources in which it finds no function: a parser mistake fails the check
rather than passing everything.

  check_code_shape.py [SOURCE_DIR]
"""

import pathlib
import re
import sys

PLUGIN = {
    "suffixes": (".c", ".cpp", ".h"),
    "file_lines": 800,
    "file_lines_for": {"cfbasefilter.cpp": 600},
    "host_lines": 60,
    "device_lines": 60,
}
KERNELS = {
    "suffixes": (".c", ".cpp", ".cu", ".h", ".hpp", ".cuh"),
    "file_lines": 1700,
    "file_lines_for": {},
    "host_lines": 60,
    "device_lines": 100,
}
RULES = {"plugin": PLUGIN, "kernels": KERNELS}

# (folder, function): (at most, why).
ALLOWED = {
    ("kernels", "median3_chunk_kernel"): (
        140, "median_cuda.cu: its row loads, sorts and strip loop are lambdas over the "
        "thread's registers, the strip loop unrolled three times so that the rows rotate "
        "through registers; made functions, they changed the loop's sm_90 code (its "
        "branches and moves), so the kernel keeps them"),
}

EXEMPT = re.compile(r"(_class_init|install_properties)$")
# What a scope's header starts with when the scope holds declarations, not code.
CLASS_HEAD = re.compile(r"^(?:typedef\s+)?(struct|class|union)\b")
ENUM_HEAD = re.compile(r"^(?:typedef\s+)?enum\b")
NAMESPACE_HEAD = re.compile(r"^(?:inline\s+)?namespace\b|^extern\s*$")
ACCESS = re.compile(r"(?:(?:public|private|protected)\s*:(?!:)\s*)+")
# CF_HOST_DEVICE: kernels/plane.h's `__host__ __device__`.
DEVICE = re.compile(r"\b(__global__|__device__|CF_HOST_DEVICE)\b")
# Words that take a parenthesis but do not name a function: what is before them is.
NOT_A_NAME = {"noexcept", "throw", "decltype", "alignas", "__attribute__",
              "__launch_bounds__", "__declspec", "sizeof", "alignof", "requires"}
IDENTIFIER = re.compile(r"[A-Za-z_~][A-Za-z0-9_]*$")


def strip(text):
    """`text` with comments, string and character literals and preprocessor lines
    blanked out, line breaks kept, so that braces and parentheses are code."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":
            # A preprocessor line, continuations and all.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        line_start = False
        if c == "\n":
            line_start = True
            out.append(c)
            i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == '"' and re.search(r'\bR$', text[max(0, i - 3):i]):
            # A raw string literal: R"delimiter( ... )delimiter".
            open_paren = text.find("(", i)
            delimiter = ")" + text[i + 1:open_paren] + '"'
            end = text.find(delimiter, open_paren)
            end = n if end < 0 else end + len(delimiter)
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c in "\"'":
            # Not a digit separator (1'000'000).
            if c == "'" and i > 0 and text[i - 1].isalnum() and \
                    re.search(r"\b\d[\w']*$", text[max(0, i - 40):i]):
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def drop_templates(header):
    """`header` without its `template <...>` prefixes."""
    while True:
        match = re.match(r"template\s*<", header)
        if not match:
            return header
        depth, i = 1, match.end()
        while i < len(header) and depth:
            depth += {"<": 1, ">": -1}.get(header[i], 0)
            i += 1
        header = header[i:].lstrip()


def top_level_parens(header):
    """(start, end) of each parenthesised group of `header` not inside another."""
    groups, depth, start = [], 0, 0
    for i, c in enumerate(header):
        if c in "([":
            if depth == 0:
                start = i
            depth += 1
        elif c in ")]" and depth:
            depth -= 1
            if depth == 0 and c == ")" and header[start] == "(":
                groups.append((start, i))
    return groups


def split_initializers(header):
    """(signature, member initializers or None) of a function's `header`: a
    constructor's initializers follow the first colon, outside parentheses, after the
    parameters' closing one."""
    depth, closed = 0, False
    for i, c in enumerate(header):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            closed = closed or (depth == 0 and c == ")")
        elif c == ":" and depth == 0 and closed and header[i - 1] != ":" and \
                header[i + 1:i + 2] != ":":
            return header[:i].rstrip(), header[i + 1:].strip()
    return header, None


def function_name(header):
    """The name of the function `header` (the text before a `{`) declares, or None
    where the brace opens something else: an initializer, a lambda, a brace member
    initializer of a constructor."""
    header, initializers = split_initializers(drop_templates(header))
    if initializers is not None and not re.search(r"[)}]$", initializers):
        return None  # `: member_ {`: the braces initialize a member.
    for start, end in reversed(top_level_parens(header)):
        before = header[:start].rstrip()
        word = re.search(r"(?:[\w:~]*operator\s*(?:\(\)|\w[\w:]*|[^\s\w(]+)|"
                         r"[A-Za-z_~][\w:~]*(?:<[^()]*>)?(?:::~?\w+)?)$", before)
        name = word.group(0) if word else ""
        if name.split("::")[-1] in NOT_A_NAME:
            continue
        # `x = [...](...)`, `T x = f(...)`: an initializer or a lambda, not a body.
        if re.search(r"(?<![=!<>+\-*/%&|^])=(?!=)",
                     re.sub(r"operator\s*\S+", "", header[:start])):
            return None
        after = header[end + 1:].strip()
        if not re.fullmatch(r"(?:const|volatile|noexcept|override|final|mutable|&&|&|"
                            r"throw\s*\(\s*\)|noexcept\s*\([^)]*\)|->[^;{]*|\s)*",
                            after):
            return None
        if not re.search(r"[A-Za-z_]", name) or \
                name in ("if", "for", "while", "switch", "catch", "return"):
            return None
        return name
    return None


def functions(text):
    """(name, first line, length, device) of each function `text` defines, or raises
    ValueError where its braces do not balance."""
    code = strip(text)
    line_of = [0]
    for c in code:
        line_of.append(line_of[-1] + (c == "\n"))
    found = []
    # Each open scope: (kind, header start, opening offset, name, device). Kinds:
    # "decl" (file, namespace, class: holds declarations), "function", "code" (a
    # block inside a function), "init" (braces of an initializer: the header goes on).
    stack = [("decl", 0, 0, None, False)]
    header_start = 0
    paren = 0
    for i, c in enumerate(code):
        if c in "([":
            paren += 1
        elif c in ")]":
            paren = max(0, paren - 1)
        elif c == ";" and paren == 0:
            header_start = i + 1
        elif c == "{":
            kind = stack[-1][0]
            header = code[header_start:i]
            if kind == "decl" and paren == 0:
                # The first line of the signature, past an access specifier.
                access = ACCESS.match(header.lstrip())
                head = header.lstrip()[access.end() if access else 0:]
                text_start = header_start + len(header) - len(head)
                head = drop_templates(head.strip())
                name = None if CLASS_HEAD.match(head) or ENUM_HEAD.match(head) or \
                    NAMESPACE_HEAD.match(head) else function_name(head)
                if name:
                    stack.append(("function", text_start, i, name, bool(DEVICE.search(head))))
                elif CLASS_HEAD.match(head) or NAMESPACE_HEAD.match(head):
                    stack.append(("decl", text_start, i, None, False))
                else:
                    stack.append(("init", text_start, i, None, False))
            else:
                stack.append(("code" if kind in ("function", "code") else "init",
                              i, i, None, False))
            if stack[-1][0] != "init":
                header_start = i + 1
        elif c == "}":
            if len(stack) == 1:
                raise ValueError(f"line {line_of[i] + 1}: a closing brace without an opening one")
            kind, start, _, name, device = stack.pop()
            if kind == "function":
                first, last = line_of[start] + 1, line_of[i] + 1
                found.append((name, first, last - first + 1, device))
            if kind != "init":
                header_start = i + 1
    if len(stack) > 1:
        raise ValueError(f"line {line_of[stack[-1][2]] + 1}: an opening brace never closed")
    return sorted(found, key=lambda f: f[1])


def check(root, allowances=None):
    """The offenders under `root`, as lines to print; allowances: ALLOWED unless
    given."""
    allowances = ALLOWED if allowances is None else allowances
    failures = []
    unused = set(allowances)
    for folder, rule in RULES.items():
        paths = sorted(p for p in pathlib.Path(root, folder).glob("*")
                       if p.suffix in rule["suffixes"] and p.is_file())
        count = 0
        for path in paths:
            text = path.read_text()
            lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
            most = rule["file_lines_for"].get(path.name, rule["file_lines"])
            if lines > most:
                failures.append(f"{path}:1: {path.name}: {lines} lines (at most {most})")
            try:
                found = functions(text)
            except ValueError as error:
                failures.append(f"{path}:{error}: the shape check cannot read it")
                continue
            count += len(found)
            for name, first, length, device in found:
                most = rule["device_lines"] if device else rule["host_lines"]
                allowed = allowances.get((folder, name))
                if allowed:
                    unused.discard((folder, name))
                    if length <= most:
                        failures.append(f"{path}:{first}: {name}: {length} lines, within "
                                        f"{most}: its allowance in ALLOWED is no longer needed")
                    most = allowed[0]
                if length > most and not (folder == "plugin" and EXEMPT.search(name)):
                    failures.append(f"{path}:{first}: {name}: {length} lines "
                                    f"(at most {most})")
        if paths and not count:
            failures.append(f"{pathlib.Path(root, folder)}: no function found in "
                            f"{len(paths)} files: the shape check cannot read them")
    failures += [f"{pathlib.Path(root, folder)}: {name}: allowed in ALLOWED, not found"
                 for folder, name in sorted(unused)]
    return failures


def main(root):
    failures = check(root)
    for failure in failures:
        print(failure)
    print(f"{len(failures)} offenders in {root}/plugin and {root}/kernels")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
