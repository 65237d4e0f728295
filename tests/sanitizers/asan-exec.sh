#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

# exe_wrapper of the asan test setup (tests/meson.build): runs the test's command.
# A program that was not built with AddressSanitizer (Debian's python3 running
# examples/hist-messages.py) gets the ASan runtime ($1) preloaded, so that it can
# load the instrumented plugin and ASan still checks the plugin's memory accesses,
# and no leak check: an interpreter leaves its own objects for the OS to reclaim,
# and a report of those would say nothing about the project.
#
# LeakSanitizer's leak check at exit stops every thread from a tracer task of its
# own, and on a loaded machine that tracer now and then crashes ("Tracer caught
# signal 11", then "LeakSanitizer has encountered a fatal error"; seen on the 2-core
# build machine once in a whole CI run and once in 17 runs of the examples with two
# busy loops beside them, each time in a test that had finished its work; reported
# upstream as google/sanitizers#1353). No check was made then, neither passed nor
# failed: such a run is made once more. Any other failure stands.
# A test that starts such a program itself (gst-launch-1.0) finds the runtime in
# CF_ASAN_RUNTIME, to preload it the same way.
# Usage: asan-exec.sh ASAN_RUNTIME PROGRAM [ARGS...]
runtime=$1
shift
export CF_ASAN_RUNTIME=$runtime
uninstrumented=()
if ! grep -q -a __asan_init "$1"; then
  uninstrumented=(env "LD_PRELOAD=$runtime${LD_PRELOAD:+:$LD_PRELOAD}"
    "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0")
fi

errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
for attempt in 1 2; do
  # stderr goes to the log as it comes (a test killed for its timeout still shows
  # it) and to a file, to be searched for the tracer's crash.
  "${uninstrumented[@]}" "$@" 2> >(tee "$errors" >&2)
  status=$?
  wait $!  # tee: all of stderr is in the file
  if [ "$status" -eq 0 ] || [ "$attempt" -eq 2 ] ||
    ! grep -q "^Tracer caught signal" "$errors" ||
    ! grep -q "LeakSanitizer has encountered a fatal error" "$errors"; then
    exit "$status"
  fi
  echo "asan-exec.sh: LeakSanitizer's tracer crashed, not the test: running it again" >&2
done
