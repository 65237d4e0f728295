# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

"""The plugin's elements, as tests/plugin_elements.txt lists them (the one list
every test and test script uses), and what GStreamer says the installed plugin
registers, to compare with it."""
import os
import re
import subprocess

LIST_FILE = os.path.join(os.path.dirname(os.path.realpath(__file__)),
                         "plugin_elements.txt")
PLUGIN_NAME = "cudafilters"


def read_names(path=LIST_FILE):
    """The names in the list file: one a line, '#' comments and blank lines left out."""
    with open(path, encoding="utf-8") as f:
        lines = (line.strip() for line in f)
        return tuple(line for line in lines if line and not line.startswith("#"))


NAMES = read_names()


def registered_names(env):
    """The elements gst-inspect-1.0 lists for the plugin with environment `env`,
    sorted, or a problem (a string) where it cannot say."""
    run = subprocess.run(["gst-inspect-1.0", PLUGIN_NAME], env=env,
                         capture_output=True, text=True)
    if run.returncode != 0:
        return f"gst-inspect-1.0 {PLUGIN_NAME} failed ({run.returncode}):\n" \
               f"{run.stdout}{run.stderr}"
    # After the plugin's details, one line a feature: "  NAME: LONG NAME".
    return sorted(match.group(1) for match in
                  (re.match(r"^  ([a-z0-9_-]+): ", line) for line in run.stdout.splitlines())
                  if match)


def registry_problems(env):
    """Where the plugin registers other elements than the list names."""
    registered = registered_names(env)
    if isinstance(registered, str):
        return [registered]
    missing = [name for name in NAMES if name not in registered]
    unlisted = [name for name in registered if name not in NAMES]
    problems = []
    if missing:
        problems.append(f"the plugin registers no {missing}, which "
                        "tests/plugin_elements.txt lists")
    if unlisted:
        problems.append(f"the plugin registers {unlisted}, which "
                        "tests/plugin_elements.txt does not list: add them there, so "
                        "that every test takes them")
    return problems
