#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

# The benchmarks in one command, on a GPU host:   bash bench/run.sh
# Builds a release build for the local GPU, runs kernel-times (and CuPy's filters on
# the same cases, bench/cupy_times.py, where the host's python3 has CuPy) and
# stream-bench with --json, host-paths (each way foreign host memory reaches the device) and
# stream-bench --pipelines (many pipelines at once), then (builds with
# gstreamer-cuda-1.0) call-cost (the host time of
# each CUDA call), stream-bench --memory cuda (frames that stay on the GPU) and
# decode-bench (nvh264dec ! ELEMENT against the
# decoder alone), and writes bench/results/<device>-<date>/ with the JSON files,
# results.md and plot.png (bench/report.py); prints results.md. With OUT set
# (the lab's device tool), the folder is copied there too.
# Extra arguments go to both stream-bench runs (e.g. --quick, --frames 300),
# KERNEL_TIMES_ARGS to kernel-times (e.g. "--cpu-runs 2"), CUPY_TIMES_ARGS to
# cupy_times.py (e.g. "--sizes 4k"), DECODE_BENCH_ARGS to
# decode-bench (e.g. "--runs 9"). decode-bench decodes CLIP, by default
# .gpu/clip-1080p.mp4 (make it where x264enc is: decode-bench --make-clip FILE);
# where that is missing it makes a clip itself if the host has an H.264 encoder.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# GStreamer and Highway from .gpu/ where the host has none (bench/gpu-env.sh).
# shellcheck disable=SC1091
source bench/gpu-env.sh

if ! command -v nvidia-smi > /dev/null; then
  echo "run.sh: no nvidia-smi: this needs a GPU host" >&2
  exit 1
fi
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' ')
arch=${cap/./}
device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/^ *//; s/ *$//; s/ /-/g')
res=$root/bench/results/${device}-$(date +%F)
mkdir -p "$res"
echo "device $device, compute capability $cap, results in $res"

build=${BUILD_DIR:-/tmp/build-bench-$arch}
{ if [ -f "$build/build.ninja" ]; then
    meson configure "$build" -Dgpu_architectures="$arch" -Dbuildtype=release
  else
    meson setup "$build" -Dgpu_architectures="$arch" -Dbuildtype=release -Dopencv=disabled
  fi && meson compile -C "$build"; } > "$res/build.log" 2>&1 ||
  { tail -50 "$res/build.log"; exit 1; }

# Kernel level. kernel-times writes its JSON to the file given, or to stdout.
"$build/bench/kernel-times" ${KERNEL_TIMES_ARGS:-} --json "$res/kernels.json" > "$res/kernels.log" 2>&1 ||
  echo "run.sh: kernel-times failed, see kernels.log" >&2
if [ ! -s "$res/kernels.json" ] && head -c1 "$res/kernels.log" | grep -q '[[{]'; then
  cp "$res/kernels.log" "$res/kernels.json"
fi
# The peer column beside NPP: CuPy's median, Gauss and histogram on the same cases.
cupy_args=()
if python3 -c 'import cupyx.scipy.ndimage' 2> /dev/null; then
  # shellcheck disable=SC2086
  if python3 bench/cupy_times.py ${CUPY_TIMES_ARGS:-} --json "$res/cupy.json" > "$res/cupy.log" 2>&1; then
    cupy_args=(--cupy "$res/cupy.json")
  else
    echo "run.sh: cupy_times.py failed, see cupy.log" >&2
  fi
else
  echo "run.sh: no CuPy in this host's python3: no CuPy column" | tee "$res/cupy.log"
fi

# Stream level.
export GST_PLUGIN_PATH=$build/plugin
export GST_REGISTRY_1_0=$build/bench-registry.bin
gst-inspect-1.0 cudamedian > /dev/null 2>&1  # builds the registry first
"$build/bench/stream-bench" --json "$res/stream.json" "$@" 2>&1 | tee "$res/stream.log"
# Foreign host memory: each way to the device, and many pipelines at once.
"$build/bench/host-paths" 2>&1 | tee "$res/host-paths.log"
"$build/bench/stream-bench" --frames 2000 --pipelines 1,4,16,64 2>&1 | tee "$res/pipelines.log"

# Frames that stay on the GPU: device-resident stream level and decoder level.
report_args=()
if [ -x "$build/bench/decode-bench" ]; then
  "$build/bench/call-cost" 2>&1 | tee "$res/call-cost.log"
  "$build/bench/stream-bench" --memory cuda --json "$res/device-stream.json" "$@" 2>&1 |
    tee "$res/device-stream.log"
  clip=${CLIP:-$root/.gpu/clip-1080p.mp4}
  clip_args=()
  if [ -f "$clip" ]; then
    clip_args=(--clip "$clip")
  else
    echo "run.sh: no clip at $clip: decode-bench makes one if this host has an H.264 encoder" >&2
  fi
  # nvh264dec probes for a GL display; without a runtime folder Wayland's client
  # library prints an error for every pipeline.
  [ -n "${XDG_RUNTIME_DIR:-}" ] || { XDG_RUNTIME_DIR=$(mktemp -d); export XDG_RUNTIME_DIR; }
  # shellcheck disable=SC2086
  "$build/bench/decode-bench" "${clip_args[@]}" ${DECODE_BENCH_ARGS:-} \
    --json "$res/decode.json" 2>&1 | tee "$res/decode.log"
  for f in device-stream decode; do
    [ -s "$res/$f.json" ] && report_args+=("--$f" "$res/$f.json")
  done
else
  echo "run.sh: this build has no gstreamer-cuda-1.0 (-Dcuda-memory): no device-resident" \
    "or decoder benchmarks" | tee "$res/device-stream.log"
fi

# A Python with matplotlib for the plot (the first python3 on PATH may lack it).
py=python3
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c 'import matplotlib' 2>/dev/null; then py=$candidate; break; fi
done
"$py" bench/report.py --stream "$res/stream.json" --kernels "$res/kernels.json" \
  "${cupy_args[@]}" "${report_args[@]}" "$res"
echo
cat "$res/results.md"

if [ -n "${OUT:-}" ]; then
  dest=$OUT/$(basename "$res")
  mkdir -p "$dest"
  # At most 8 files: the JSON files, the report, the plot and the logs in one archive.
  for f in stream.json kernels.json cupy.json device-stream.json decode.json results.md plot.png; do
    [ -f "$res/$f" ] && cp "$res/$f" "$dest/"
  done
  (cd "$res" && tar czf "$dest/logs.tgz" ./*.log)
  echo "copied to $dest"
fi
