#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

"""The plugin built without gstreamer-cuda-1.0 (-Dcuda-memory=disabled), checked
without building a second tree (tests/meson.build says how it is built).

  check_without_cuda_memory.py built BUILD_DIR PLUGIN_FILE
      (meson test plugin_without_cuda_memory) The plugin built again in
      BUILD_DIR/tests/ compiles the sources of plugin/'s target, without
      CF_HAVE_GST_CUDA (nor CF_HAVE_GST_CUDA_STREAM) and with no other compiler
      argument of its own; PLUGIN_FILE loads (gst-inspect-1.0, with the
      environment meson test gives) and none of its elements' templates holds
      memory:CUDAMemory.

  check_without_cuda_memory.py configure SOURCE_DIR BUILD_DIR SCRATCH_DIR LOG
      (.ci/run) Configures SCRATCH_DIR with -Dcuda-memory=disabled and BUILD_DIR's
      compiler options (meson only, no build), checks that its plugin target
      compiles what BUILD_DIR's plugin without the library compiles, with the same
      arguments, and writes the result to LOG as one line of meson's test log
      (.ci/run counts it). SCRATCH_DIR is removed first.
"""
import json
import os
import shutil
import subprocess
import sys
import time

import plugin_elements

ELEMENTS = plugin_elements.NAMES  # tests/plugin_elements.txt
DEFINE = "-DCF_HAVE_GST_CUDA"
# All that the library's presence defines (meson.build's gst_cuda_args).
LIBRARY_DEFINES = (DEFINE, "-DCF_HAVE_GST_CUDA_STREAM")
PLUGIN = "gstcudafilters"


def targets(build_dir):
    with open(os.path.join(build_dir, "meson-info", "intro-targets.json")) as f:
        return json.load(f)


def plugin_target(build_dir, folder):
    """The plugin target defined in SOURCE/<folder>/meson.build, or None."""
    for target in targets(build_dir):
        defined_in = os.path.normpath(target["defined_in"])
        if (target["name"] == PLUGIN and
                os.path.basename(os.path.dirname(defined_in)) == folder):
            return target
    return None


def cpp_part(target):
    parts = [p for p in target["target_sources"] if p.get("language") == "cpp"]
    if len(parts) != 1:
        raise SystemExit(f"{target['name']}: {len(parts)} C++ source groups")
    return parts[0]


def normalized_arguments(target, build_dir):
    """The target's C++ arguments, its own include folders left out (they name
    the folder it is defined in) and its build folder written @BUILD@."""
    build_dir = os.path.realpath(build_dir)
    out_dir = os.path.dirname(target["filename"][0])
    own = {out_dir, target["filename"][0] + ".p",
           os.path.dirname(os.path.normpath(target["defined_in"]))}
    own = {os.path.realpath(d) for d in own}
    arguments = []
    for arg in cpp_part(target)["parameters"]:
        if arg.startswith("-I") and os.path.realpath(arg[2:]) in own:
            continue
        arguments.append(arg.replace(build_dir, "@BUILD@"))
    return arguments


def sources(target):
    return sorted(os.path.realpath(s) for s in cpp_part(target)["sources"])


def problems_between(want, want_build, got, got_build, what):
    """What differs between two plugin targets: sources, then C++ arguments."""
    problems = []
    if sources(want) != sources(got):
        problems.append(f"{what}: sources differ:\n  {sources(want)}\n  {sources(got)}")
    a = normalized_arguments(want, want_build)
    b = normalized_arguments(got, got_build)
    if a != b:
        problems.append(f"{what}: C++ arguments differ:\n  {a}\n  {b}")
    return problems


def without_library_target(build_dir):
    """BUILD_DIR's plugin without gstreamer-cuda: tests/'s where the build has the
    library, else plugin/'s own."""
    target = plugin_target(build_dir, "tests")
    if target is None:
        target = plugin_target(build_dir, "plugin")
        if target is None or DEFINE in cpp_part(target)["parameters"]:
            raise SystemExit(f"{build_dir}: no plugin built without gstreamer-cuda "
                             "(in builds without -Dtests or with a sanitizer there is none)")
    return target


def check_built(build_dir, plugin_file):
    problems = []
    main = plugin_target(build_dir, "plugin")
    variant = plugin_target(build_dir, "tests")
    if main is None or variant is None:
        raise SystemExit(f"{build_dir}: plugin/ or tests/ plugin target missing")
    if DEFINE not in cpp_part(main)["parameters"]:
        problems.append(f"plugin/'s target lacks {DEFINE} in a build with gstreamer-cuda")
    built_with = [d for d in LIBRARY_DEFINES if d in cpp_part(variant)["parameters"]]
    if built_with:
        problems.append(f"tests/'s plugin is built with {built_with}")
    if sources(main) != sources(variant):
        problems.append("tests/meson.build's plugin sources are not plugin/meson.build's:\n"
                        f"  plugin/: {sources(main)}\n  tests/:  {sources(variant)}")
    main_args = normalized_arguments(main, build_dir)
    extra = [a for a in normalized_arguments(variant, build_dir) if a not in main_args]
    if extra:
        problems.append(f"tests/'s plugin has arguments plugin/'s has not: {extra}")
    missing = [a for a in main_args if a.startswith("-D") and a not in LIBRARY_DEFINES and
               a not in normalized_arguments(variant, build_dir)]
    if missing:
        problems.append(f"tests/'s plugin lacks plugin/'s definitions {missing}")

    inspect = shutil.which("gst-inspect-1.0")
    if inspect is None:
        raise SystemExit("gst-inspect-1.0 not found (Debian: gstreamer1.0-tools)")
    for element in ELEMENTS:
        run = subprocess.run([inspect, element], capture_output=True, text=True)
        text = run.stdout + run.stderr
        if run.returncode != 0:
            problems.append(f"gst-inspect-1.0 {element} failed ({run.returncode}):\n{text}")
            continue
        filename = [line.split(None, 1)[1].strip() for line in text.splitlines()
                    if line.strip().startswith("Filename")]
        if [os.path.realpath(f) for f in filename] != [os.path.realpath(plugin_file)]:
            problems.append(f"{element} came from {filename}, not {plugin_file}")
        if "memory:CUDAMemory" in text:
            problems.append(f"{element}'s pad templates hold memory:CUDAMemory")
        if "video/x-raw" not in text:
            problems.append(f"{element}: no video/x-raw in its pad templates:\n{text}")
        print(f"{element}: loaded from {filename[0] if filename else '?'}, "
              "templates in system memory only")
    return problems


# BUILD_DIR's options that change C++ arguments, given to the tree configured to
# compare with it.
COMPILER_OPTIONS = ("buildtype", "optimization", "debug", "warning_level", "werror",
                    "cpp_std", "b_ndebug", "b_sanitize")


def compiler_options_of(build_dir):
    with open(os.path.join(build_dir, "meson-info", "intro-buildoptions.json")) as f:
        options = json.load(f)
    values = []
    for option in options:
        if option["name"] in COMPILER_OPTIONS:
            value = option["value"]
            if isinstance(value, bool):
                value = "true" if value else "false"
            values.append(f"-D{option['name']}={value}")
    return values


def check_configure(source_dir, build_dir, scratch_dir, log):
    start = time.monotonic()
    problems = []
    shutil.rmtree(scratch_dir, ignore_errors=True)
    setup = subprocess.run(
        ["meson", "setup", scratch_dir, source_dir, "-Dcuda-memory=disabled",
         "-Dtests=enabled", "-Dexamples=disabled", "-Dopencv=disabled",
         "-Dgpu_architectures=90"] + compiler_options_of(build_dir),
        capture_output=True, text=True)
    if setup.returncode != 0:
        problems.append(f"meson setup -Dcuda-memory=disabled failed:\n{setup.stdout}"
                        f"{setup.stderr}")
    else:
        summary = [l for l in setup.stdout.splitlines() if "gstreamer-cuda-1.0" in l]
        print("\n".join(summary))
        scratch = plugin_target(scratch_dir, "plugin")
        if scratch is None:
            problems.append(f"{scratch_dir}: no plugin target")
        elif DEFINE in cpp_part(scratch)["parameters"]:
            problems.append(f"-Dcuda-memory=disabled still compiles with {DEFINE}")
        else:
            try:
                problems += problems_between(
                    scratch, scratch_dir, without_library_target(build_dir), build_dir,
                    f"{scratch_dir}'s plugin against {build_dir}'s without gstreamer-cuda")
            except (OSError, SystemExit) as error:
                problems.append(str(error))
    for problem in problems:
        print(problem, file=sys.stderr)
    result = "FAIL" if problems else "OK"
    os.makedirs(os.path.dirname(os.path.abspath(log)), exist_ok=True)
    with open(log, "w") as f:
        f.write(json.dumps({"name": "configure_without_cuda_memory", "result": result,
                            "duration": round(time.monotonic() - start, 1)}) + "\n")
    print(f"configure_without_cuda_memory: {result}")
    return problems


def main(argv):
    if len(argv) == 4 and argv[1] == "built":
        problems = check_built(argv[2], argv[3])
    elif len(argv) == 6 and argv[1] == "configure":
        problems = check_configure(*argv[2:6])
        return 1 if problems else 0
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
