#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

# exe_wrapper of the asan test setup (tests/meson.build): runs the test's command.
# A program that was not built with AddressSanitizer (Debian's python3 running
# examples/hist-messages.py) gets the ASan runtime ($1) preloaded, so that it can
# load the instrumented plugin and ASan still checks the plugin's memory accesses,
# and no leak check: an interpreter leaves its own objects for the OS to reclaim,
# and a report of those would say nothing about the project.
# Usage: asan-exec.sh ASAN_RUNTIME PROGRAM [ARGS...]
runtime=$1
shift
if ! grep -q -a __asan_init "$1"; then
  export LD_PRELOAD="$runtime${LD_PRELOAD:+:$LD_PRELOAD}"
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fi
exec "$@"
