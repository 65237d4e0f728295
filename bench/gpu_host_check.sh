#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

# On a GPU host without GStreamer or Highway (bench/gpu-env.sh): build for the local
# GPU, run the whole test suite with the GPU suites, then time the median kernels and
# a few pipelines. Logs go to $OUT (or ./gpu-results).
#   bash bench/gpu_host_check.sh [ARCH]      e.g. 90 for Hopper
set -uo pipefail
arch=${1:-90}
out=${OUT:-$PWD/gpu-results}
mkdir -p "$out"
source bench/gpu-env.sh
build=/tmp/build-gpu
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"
{ meson setup "$build" -Dgpu_architectures="$arch" -Dbuildtype=release -Dopencv=disabled &&
  meson compile -C "$build"; } > "$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
meson test -C "$build" --print-errorlogs --num-processes 4 2>&1 | tee "$out/tests.log" | tail -25
cp "$build/meson-logs/testlog.txt" "$out/testlog.txt" 2>/dev/null
"$build/bench/kernel-times" 3840 2160 100 2>&1 | tee "$out/kernels.txt"

export GST_PLUGIN_PATH=$build/plugin
gst-inspect-1.0 cudamedian > /dev/null 2>&1  # builds the registry before anything is timed
# Streaming fps of a pipeline: timed with N frames and with 1 frame, so process
# start, plugin loading and CUDA context creation cancel out.
seconds() {
  local start end
  start=$(date +%s.%N)
  gst-launch-1.0 -q "$@" > /dev/null 2>&1 || { echo "FAILED: $*" >&2; return 1; }
  end=$(date +%s.%N)
  python3 -c "print($end - $start)"
}
fps() {  # fps FRAMES ELEMENT CAPS
  local frames=$1 element=$2 caps=$3 one many
  one=$(seconds videotestsrc num-buffers=1 pattern=solid-color ! "video/x-raw,$caps,framerate=1000/1" ! $element ! fakesink) || return
  many=$(seconds videotestsrc num-buffers=$frames pattern=solid-color ! "video/x-raw,$caps,framerate=1000/1" ! $element ! fakesink) || return
  python3 -c "print(f'{($frames - 1) / ($many - $one):8.1f} fps  $caps  $element')"
}
{
  for caps in format=GRAY8,width=1920,height=1080 format=GRAY8,width=3840,height=2160 format=RGBA,width=3840,height=2160; do
    fps 2000 identity $caps
    for depth in 1 2 3; do
      fps 2000 "cudamedian frames-in-flight=$depth" $caps
    done
    fps 2000 "cudamedian size=7" $caps
    fps 2000 "cudagauss frames-in-flight=2" $caps
    fps 2000 "cudahist frames-in-flight=2" $caps
  done
} 2>&1 | tee "$out/pipelines.txt"
"$build/examples/median-demo" --output "$out/before-after.png" 2>&1 | tee "$out/demo.txt"
