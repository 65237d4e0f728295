#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

"""A plugin built for one gstreamer-cuda ABI, run on a GStreamer of the other:

  check_series_mismatch.py PLUGIN_DIR BUILT_VERSION

PLUGIN_DIR holds libgstcudafilters.so built against GStreamer BUILT_VERSION
(1.22.x, before 1.24 changed gstreamer-cuda's ABI), and this GStreamer is 1.24 or
later, or the other way round (.ci/run: the Debian 12 build under Debian 13's
1.26). Checks, with the plugin found in PLUGIN_DIR (gst-inspect-1.0's Filename):
- frames in CUDA memory offered to cudamedian (an appsrc's caps with
  memory:CUDAMemory, no GPU needed) are refused with one element warning that
  names both versions, and the process ends without a signal;
- in system memory the same plugin still filters: videotestsrc num-buffers=3 !
  cudamedian ! fakesink ends at EOS, without that warning (the one of a machine
  without a usable GPU may come).
Needs python3-gi and gir1.2-gstreamer-1.0. Exits 1 on any problem.
"""
import os
import subprocess
import sys
import tempfile

import check_installed

WARNING = "Frames in CUDA memory are not supported"
CUDA_CAPS = ("video/x-raw(memory:CUDAMemory),format=RGBA,width=64,height=48,"
             "framerate=30/1")


def run_pipeline(memory):
    """Child process: one pipeline to EOS or error; each warning and error of the
    bus printed as a line. Exit status 0 at EOS, 1 at an error."""
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import Gst
    Gst.init(None)
    if memory == "cuda":
        # An appsrc with CUDA caps cannot be linked to an element that does not
        # offer them: they are set once linked, and reach cudamedian with the
        # first buffer as a caps event (and its accept-caps query).
        pipeline = Gst.parse_launch("appsrc name=src ! cudamedian ! fakesink")
        source = pipeline.get_by_name("src")
        source.set_property("caps", Gst.Caps.from_string(CUDA_CAPS))
        source.emit("push-buffer", Gst.Buffer.new_wrapped(bytes(64 * 48 * 4)))
        source.emit("end-of-stream")
    else:
        pipeline = Gst.parse_launch(
            "videotestsrc num-buffers=3 ! cudamedian ! fakesink")
    pipeline.set_state(Gst.State.PLAYING)
    bus = pipeline.get_bus()
    status = 1
    while True:
        message = bus.timed_pop_filtered(
            30 * Gst.SECOND,
            Gst.MessageType.EOS | Gst.MessageType.ERROR | Gst.MessageType.WARNING)
        if message is None:
            print("TIMEOUT: no EOS or error in 30 s")
            break
        if message.type == Gst.MessageType.WARNING:
            print(f"WARNING: {message.parse_warning()[0].message}")
            continue
        if message.type == Gst.MessageType.ERROR:
            print(f"ERROR: {message.parse_error()[0].message}")
        else:
            status = 0
        break
    pipeline.set_state(Gst.State.NULL)
    return status


def child(memory, env):
    run = subprocess.run([sys.executable, os.path.realpath(__file__), "--pipeline",
                          memory], env=env, capture_output=True, text=True,
                         timeout=120)
    return run.returncode, run.stdout + run.stderr


def main(argv):
    if len(argv) == 3 and argv[1] == "--pipeline":
        return run_pipeline(argv[2])
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    plugin_dir, built = os.path.abspath(argv[1]), argv[2]
    running = subprocess.run(["gst-inspect-1.0", "--gst-version"], check=True,
                             capture_output=True, text=True).stdout.split()[-1]
    print(f"plugin built for GStreamer {built}, running GStreamer {running}")
    problems = []
    with tempfile.TemporaryDirectory() as scratch:
        # GStreamer's own plugins (fakesrc, videotestsrc) from its folder; ours
        # from PLUGIN_DIR.
        env = dict(os.environ)
        env.pop("GST_PLUGIN_LOADING_WHITELIST", None)
        env.update({"GST_PLUGIN_PATH_1_0": plugin_dir,
                    "GST_REGISTRY_1_0": os.path.join(scratch, "registry.bin")})
        inspect = subprocess.run(["gst-inspect-1.0", "cudamedian"], env=env,
                                 capture_output=True, text=True)
        filename = check_installed.details_field(inspect.stdout, "Filename")
        wanted = os.path.join(plugin_dir, check_installed.PLUGIN_FILE)
        if inspect.returncode != 0 or filename is None or \
                os.path.realpath(filename) != os.path.realpath(wanted):
            problems.append(f"cudamedian came from {filename}, not {wanted}:\n"
                            f"{inspect.stdout}{inspect.stderr}")
        else:
            status, text = child("cuda", env)
            print(f"--- CUDA memory (exit status {status}):\n{text}", end="")
            warnings = [line for line in text.splitlines()
                        if line.startswith("WARNING: ") and WARNING in line]
            if status < 0:
                problems.append(f"CUDA memory: killed by signal {-status}")
            if len(warnings) != 1:
                problems.append(f"CUDA memory: {len(warnings)} warnings "
                                f"'{WARNING}', one expected")
            elif f"GStreamer {built}" not in warnings[0] or \
                    f"GStreamer {running}" not in warnings[0]:
                problems.append(f"CUDA memory: the warning does not name both "
                                f"GStreamer {built} and {running}")
            status, text = child("system", env)
            print(f"--- system memory (exit status {status}):\n{text}", end="")
            if status != 0:
                problems.append(f"system memory: exit status {status}, not 0")
            if WARNING in text:
                problems.append(f"system memory: a warning '{WARNING}'")
    for problem in problems:
        print(problem, file=sys.stderr)
    print("OK" if not problems else "FAIL")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
