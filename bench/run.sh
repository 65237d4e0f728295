#!/bin/bash
# The benchmarks in one command, on a GPU host:   bash bench/run.sh
# Builds a release build for the local GPU, runs kernel-times and stream-bench
# with --json, and writes bench/results/<device>-<date>/ with both JSON files,
# results.md and plot.png (bench/report.py); prints results.md. With OUT set
# (the lab's device tool), the folder is copied there too.
# Extra arguments go to stream-bench (e.g. --quick, --frames 300), KERNEL_TIMES_ARGS
# to kernel-times (e.g. "--cpu-runs 2").
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

if ! pkg-config --exists gstreamer-1.0 2>/dev/null || ! command -v gst-inspect-1.0 > /dev/null; then
  # shellcheck disable=SC1091
  source .gpu/gst-env.sh "$root/.gpu/gst-sysroot.tgz"  # its $1 is the sysroot
fi

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

# Stream level.
export GST_PLUGIN_PATH=$build/plugin
export GST_REGISTRY_1_0=$build/bench-registry.bin
gst-inspect-1.0 cudamedian > /dev/null 2>&1  # builds the registry first
"$build/bench/stream-bench" --json "$res/stream.json" "$@" 2>&1 | tee "$res/stream.log"

# A Python with matplotlib for the plot (the first python3 on PATH may lack it).
py=python3
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c 'import matplotlib' 2>/dev/null; then py=$candidate; break; fi
done
"$py" bench/report.py --stream "$res/stream.json" --kernels "$res/kernels.json" "$res"
echo
cat "$res/results.md"

if [ -n "${OUT:-}" ]; then
  dest=$OUT/$(basename "$res")
  mkdir -p "$dest"
  # At most 8 files: the two JSON files, the report, the plot and the logs.
  for f in stream.json kernels.json results.md plot.png stream.log kernels.log build.log; do
    [ -f "$res/$f" ] && cp "$res/$f" "$dest/"
  done
  echo "copied to $dest"
fi
