#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

# Nsight Compute sections of the project's kernels at 3840x2160 GRAY8 (or FORMAT=RGBA,
# one packed plane of 4 channels, or FORMAT=GRAY16_LE), one launch each, on a GPU host
# whose ncu reads hardware counters:
#   [FORMAT=RGBA|GRAY16_LE] [ONLY=gauss5,hist] bash bench/profile.sh [BUILD_DIR]
# (ONLY: the kernels of those names alone).
# kernel-times must already be built in BUILD_DIR (bench/run.sh builds it). Reports go
# to $OUT (or ./profile-results): one text file per kernel, and times.txt.
set -uo pipefail
build=${1:-/tmp/build-bench-90}
out=${OUT:-$PWD/profile-results}
format=${FORMAT:-GRAY8}
# The kernel that takes each format's Gauss windows up to 15 taps, radius %d: the group
# kernel of one channel, or of RGBA's 3 computed channels of 4. Median 15x15: the moving
# histogram for 8-bit samples, the sorted-rows network for 16-bit ones.
case $format in
  GRAY8) channels=1 sample='unsigned char' computed=1 ;;
  RGBA) channels=4 sample='unsigned char' computed=3 ;;
  GRAY16_LE) channels=1 sample='unsigned short' computed=1 ;;
  *) echo "FORMAT: GRAY8, RGBA or GRAY16_LE"; exit 2 ;;
esac
gauss="gauss_group_kernel<$sample, \\(int\\)$channels, \\(int\\)$computed, \\(int\\)%d>"
median15="median_histogram_kernel<$sample>"
[ "$format" = GRAY16_LE ] && median15='median_network_kernel<\(int\)15, unsigned short, \(int\)1>'

mkdir -p "$out"
times=$build/bench/kernel-times
if [ -z "${ONLY:-}" ]; then
  "$times" --sizes 4k --formats "$format" --no-cpu > "$out/times.txt" 2>&1
  cat "$out/times.txt"
fi

# name | kernel-times --kernels | regex of the demangled kernel | launches to skip
profile() {
  local name=$1 kernels=$2 regex=$3 skip=$4
  [[ -z "${ONLY:-}" || ",$ONLY," == *",$name,"* ]] || return 0
  ncu --clock-control none --kernel-name-base demangled -k "regex:$regex" \
      --launch-skip "$skip" --launch-count 1 \
      --section SpeedOfLight --section LaunchStats --section Occupancy \
      --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
      --section ComputeWorkloadAnalysis --section InstructionStats \
      "$times" --sizes 4k --formats "$format" --no-cpu --kernels "$kernels" \
      > "$out/ncu-$name.txt" 2>&1
  grep -E "Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|Achieved Occupancy|Registers Per|Issued Ipc|No Eligible|Stall|Warp Cycles Per Issued|Executed Instructions  " \
      "$out/ncu-$name.txt" | sed "s/^/$name: /" | head -30
}
c="\\(int\\)$channels"
profile median3 median "median3_chunk_kernel<$sample, $c>" 5
profile median5 median "median_network_kernel<\\(int\\)5, $sample, $c>" 5
profile median7 median "median_network_kernel<\\(int\\)7, $sample, $c>" 5
profile median15 median "$median15" 0
profile gauss5 gauss "$(printf "$gauss" 2)" 5
profile gauss9 gauss "$(printf "$gauss" 4)" 5
profile gauss15 gauss "$(printf "$gauss" 7)" 5
profile gauss61 gauss "gauss_kernel<$sample" 5
[ "$format" = GRAY16_LE ] || profile hist histogram "value_histogram_kernel<.*ChunkedRows, $c>" 5
