#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

"""What a built or installed plugin shows the system (meson test plugin_exports;
.ci/check-package on the packaged plugin):

  check_plugin_exports.py PLUGIN_FILE CUDART

- it exports only GStreamer's two entry points, gst_plugin_NAME_get_desc and
  gst_plugin_NAME_register (NAME from libgstNAME.so, as GStreamer's loader
  derives it): nothing a user could call, no testing hook (plugin/exports.map);
- it never needs the driver's libcuda (gstreamer-cuda and the runtime load it at
  run time), so that it loads where no driver is installed; and the CUDA runtime
  as the build linked it (meson's cudart option, CUDART): static, not needed, so
  that it loads where no toolkit is installed; shared, needed (a distribution's
  package depends on its libcudart).
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


def problems_of(path, cudart):
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
    driver = [lib for lib in needed if lib.startswith("libcuda.")]
    if driver:
        problems.append(f"{path}: needs {driver}: the driver must be loaded at run time")
    runtime = [lib for lib in needed if lib.startswith("libcudart")]
    if cudart == "static" and runtime:
        problems.append(f"{path}: needs {runtime}: the CUDA runtime must be linked "
                        "statically (-Dcudart=static)")
    if cudart == "shared" and not runtime:
        problems.append(f"{path}: needs no libcudart, though built with -Dcudart=shared")
    if not problems:
        print(f"{path}: exports {', '.join(exported)}; needs {', '.join(needed)}")
    return problems


def main(argv):
    if len(argv) != 3 or argv[2] not in ("static", "shared"):
        print(__doc__, file=sys.stderr)
        return 2
    problems = problems_of(argv[1], argv[2])
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
