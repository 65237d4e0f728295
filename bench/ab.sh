#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

# The plugin of two source trees side by side on one GPU host: this tree (B) and
# another (A, e.g. `git archive` of an earlier commit), measured by this tree's
# benchmark programs, so that only the plugin differs between the two.
#   bash bench/ab.sh build A_SRC [ARCH]   this tree in build-gpu/ (release, the
#                                         whole build), A_SRC's plugin alone in
#                                         build-gpu-a/, both at once
#                                         (AB_A_BUILD names another folder for
#                                         A, to compare several earlier trees)
#   bash bench/ab.sh stream OUT NAME [STREAM_BENCH_ARGS...]
#                                         stream-bench with A's plugin, then B's,
#                                         then A's and B's again: OUT/NAME-a1.log,
#                                         -b1, -a2, -b2 (.log and .json)
#   bash bench/ab.sh live OUT NAME [LIVE_LATENCY_ARGS...]
#                                         live-latency (this tree's) with A's
#                                         plugin, then B's, A's, B's, the same way
#   bash bench/ab.sh kernels OUT NAME [KERNEL_TIMES_ARGS...]
#                                         kernel-times of A, B, A, B in the same
#                                         way: each tree's own program, since the
#                                         kernels are linked into it (A's knows
#                                         only A's cases)
# Sources bench/gpu-env.sh itself (a host without GStreamer or Highway).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
# shellcheck disable=SC1091
source bench/gpu-env.sh
a_build=${AB_A_BUILD:-build-gpu-a}
mode=${1:?usage: bench/ab.sh build A_SRC [ARCH] | stream|live|kernels OUT NAME [ARGS...]}
shift

setup() {  # setup SRC BUILD ARCH
  mkdir -p "$2"
  [ -f "$2/build.ninja" ] || meson setup "$2" "$1" -Dbuildtype=release \
    -Dgpu_architectures="$3" -Dopencv=disabled > "$2/ab-setup.log" 2>&1 ||
    { tail -30 "$2/ab-setup.log"; return 1; }
}

case $mode in
  build)
    a_src=$(realpath "${1:?A_SRC}")
    arch=${2:-90}
    setup "$root" build-gpu "$arch"
    setup "$a_src" "$a_build" "$arch"
    ninja -C build-gpu > build-gpu/ab-build.log 2>&1 & b=$!
    ninja -C "$a_build" plugin/libgstcudafilters.so bench/kernel-times \
      > "$a_build/ab-build.log" 2>&1 & a=$!
    status=0
    wait $b || { tail -30 build-gpu/ab-build.log; status=1; }
    wait $a || { tail -30 "$a_build/ab-build.log"; status=1; }
    exit $status
    ;;
  stream | live | kernels)
    out=${1:?OUT}
    name=${2:?NAME}
    shift 2
    mkdir -p "$out"
    for run in a1 b1 a2 b2; do
      build="build-gpu"
      if [[ $run == a* ]]; then build=$a_build; fi
      log=$out/$name-$run.log
      if [ "$mode" != kernels ]; then
        # A registry of each plugin's own, made before anything is timed.
        export GST_REGISTRY_1_0=$root/$build/ab-registry.bin
        export GST_PLUGIN_PATH=$root/$build/plugin
        gst-inspect-1.0 cudamedian > /dev/null 2>&1
        echo "== $name $run: the plugin of $build" > "$log"
        program=build-gpu/bench/stream-bench
        [ "$mode" = live ] && program=build-gpu/bench/live-latency
      else
        echo "== $name $run: the kernel-times of $build" > "$log"
        program=$build/bench/kernel-times
      fi
      "$program" --json "$out/$name-$run.json" "$@" >> "$log" 2>&1 ||
        echo "$name $run: ${program##*/} failed" >&2
    done
    ;;
  *)
    echo "usage: bench/ab.sh build A_SRC [ARCH] | stream|live|kernels OUT NAME" \
      "[ARGS...]" >&2
    exit 2
    ;;
esac
