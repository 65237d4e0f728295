#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

# The project against each GStreamer series carried to a GPU host (bench/gpu-env.sh
# with CF_GST_SERIES: 1.22, Debian 12's packages; 1.26, bench/make-gst-tree.sh), each
# in build-gpu-SERIES/ (release):
#   bash bench/series.sh build [ARCH]        both builds at once (ARCH: 90)
#   bash bench/series.sh test SERIES [ARGS]  meson test of that build, ARGS to it
#                                            (e.g. --suite gpu); one series at a
#                                            time (faults counts the device's
#                                            memory in use)
#   bash bench/series.sh bench OUT PASS [ARGS]
#                                            stream-bench --memory cuda ARGS, then
#                                            decode-bench, of each build in turn
#                                            (BUILDS, default "1.22 1.26"; a name
#                                            SERIES-VARIANT is build-gpu-SERIES-VARIANT
#                                            run with SERIES): OUT/NAME-device-PASS
#                                            and -decode-PASS (.log and .json)
# decode-bench decodes CLIP, by default .gpu/clip-1080p.mp4.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
series_list=(1.22 1.26)

# Runs "$@" with SERIES' GStreamer on the paths, in a subshell of its own.
with_series() {
  local series=$1
  shift
  (
    export CF_GST_SERIES=$series
    # shellcheck disable=SC1091
    source bench/gpu-env.sh
    "$@"
  )
}

build_series() {  # build_series SERIES ARCH
  local build=build-gpu-$1
  mkdir -p "$build"
  {
    [ -f "$build/build.ninja" ] || meson setup "$build" -Dbuildtype=release \
      -Dgpu_architectures="$2" -Dopencv=disabled
    ninja -C "$build"
  } > "$build/series-build.log" 2>&1 || { tail -40 "$build/series-build.log"; return 1; }
  grep -m1 "gstreamer-cuda" "$build/meson-logs/meson-log.txt" || true
}

mode=${1:?usage: bench/series.sh build [ARCH] | test SERIES [ARGS] | bench OUT PASS [ARGS]}
shift
case $mode in
  build)
    arch=${1:-90}
    pids=()
    for series in "${series_list[@]}"; do
      with_series "$series" build_series "$series" "$arch" & pids+=($!)
    done
    status=0
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
    exit $status
    ;;
  test)
    series=${1:?SERIES}
    shift
    with_series "$series" meson test -C "build-gpu-$series" --print-errorlogs "$@"
    ;;
  bench)
    out=$(realpath -m "${1:?OUT}")
    pass=${2:?PASS}
    shift 2
    mkdir -p "$out"
    clip=${CLIP:-$root/.gpu/clip-1080p.mp4}
    # nvh264dec probes for a GL display; without a runtime folder Wayland's client
    # library prints an error for every pipeline.
    [ -n "${XDG_RUNTIME_DIR:-}" ] || { XDG_RUNTIME_DIR=$(mktemp -d); export XDG_RUNTIME_DIR; }
    for name in ${BUILDS:-${series_list[*]}}; do
      build=build-gpu-$name
      prefix=$out/$name
      export GST_PLUGIN_PATH=$root/$build/plugin
      with_series "${name%%-*}" "$build/bench/stream-bench" --memory cuda \
        --json "$prefix-device-$pass.json" "$@" > "$prefix-device-$pass.log" 2>&1 ||
        echo "$name pass $pass: stream-bench failed" >&2
      with_series "${name%%-*}" "$build/bench/decode-bench" --clip "$clip" \
        --json "$prefix-decode-$pass.json" > "$prefix-decode-$pass.log" 2>&1 ||
        echo "$name pass $pass: decode-bench failed" >&2
    done
    ;;
  *)
    echo "unknown mode $mode" >&2
    exit 2
    ;;
esac
