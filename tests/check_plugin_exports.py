#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

"""What a built or installed plugin shows the system (meson test plugin_exports;
.ci/check-package on the packaged plugin):

  check_plugin_exports.py PLUGIN_FILE

- it exports only GStreamer's two entry points, gst_plugin_NAME_get_desc and
  gst_plugin_NAME_register (NAME from libgstNAME.so, as GStreamer's loader
  derives it): nothing a user could call, no testing hook (plugin/exports.map);
- it needs neither the CUDA runtime (linked statically) nor the driver's
  libcuda (gstreamer-cuda loads it at run time), so that it loads where no CUDA
  toolkit or driver is installed.
"""
import os
import re
import subprocess
import sys


def defined_dynamic_symbols(path):
    out = subprocess.run(["nm", "-D", "--defined-only", path], check=True,
                         capture_output=True, text=True).stdout
    return sorted(line.split()[-1] for line in out.splitlines() if line.strip())


def needed_libraries(path):
    out = subprocess.run(["readelf", "-d", path], check=True,
                         capture_output=True, text=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def problems_of(path):
    match = re.fullmatch(r"libgst(\w+)\.so", os.path.basename(path))
    if not match:
        return [f"{path}: not named libgstNAME.so, as GStreamer's loader expects"]
    name = match.group(1)
    problems = []
    expected = sorted([f"gst_plugin_{name}_get_desc", f"gst_plugin_{name}_register"])
    exported = defined_dynamic_symbols(path)
    if exported != expected:
        extra = [s for s in exported if s not in expected]
        missing = [s for s in expected if s not in exported]
        problems.append(f"{path}: exports {len(exported)} symbols; not GStreamer's "
                        f"entry points: {extra[:20]}{' ...' if len(extra) > 20 else ''}; "
                        f"entry points missing: {missing}")
    needed = needed_libraries(path)
    cuda = [lib for lib in needed if lib.startswith(("libcudart", "libcuda."))]
    if cuda:
        problems.append(f"{path}: needs {cuda}: the CUDA runtime must be linked "
                        "statically and the driver loaded at run time")
    if not problems:
        print(f"{path}: exports {', '.join(exported)}; needs {', '.join(needed)}")
    return problems


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    problems = problems_of(argv[1])
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
