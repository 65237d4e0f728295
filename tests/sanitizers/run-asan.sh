#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

# Every test suite but gpu under AddressSanitizer and LeakSanitizer, as CI runs it
# (.ci/run, after the normal suite): configures BUILD_DIR (default build-asan/ beside
# build/) with gcc and -Db_sanitize=address and runs `meson test --setup asan` there
# (the setup: tests/meson.build), which builds what those tests need. Extra
# arguments go to meson test. Results: BUILD_DIR/meson-logs/testlog-asan.json. No
# GPU needed.
# Usage: tests/sanitizers/run-asan.sh [BUILD_DIR [MESON_TEST_ARGS...]]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build-asan}
if [ $# -gt 0 ]; then shift; fi

if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
# Without gstreamer-cuda: it links GStreamer's GL library and, through it, the
# GL dispatch libraries, whose thread-local storage crashes LeakSanitizer's tracer
# at exit now and then ("Tracer caught signal 11"); CUDA memory needs a GPU to be
# exercised anyway, and the normal suite tests the build with the library.
if [ ! -f "$build/build.ninja" ]; then
  # One architecture without device optimisation keeps the build short: no test
  # here runs a kernel (the gpu suite is left out).
  CC=gcc CXX=g++ meson setup "$build" "$root" -Db_sanitize=address -Db_lundef=false \
    -Dgpu_architectures=75 -Ddevice-optimization=false -Dcuda-memory=disabled
else
  meson configure "$build" -Dcuda-memory=disabled
fi
# meson test builds what the tests it runs need, and no more: the gpu suite's
# programs and the benchmarks but the soak are left out.
exec meson test -C "$build" --setup asan --print-errorlogs "$@"
