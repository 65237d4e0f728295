#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

# Fuzzes the elements for a fixed time: configures build-fuzz/ beside build/ with
# clang and -Dfuzzing=true, builds only the fuzz target, and runs it under
# libFuzzer, seeded with the kept corpus (tests/fuzz/corpus/): half the time with
# a fixed seed (1: every run starts from the same inputs and mutates them alike),
# the rest with a random seed, printed (CF_FUZZ_SEED=N repeats it).
#   tests/fuzz/run-fuzz.sh [SECONDS [BUILD_DIR]]   60 s, build-fuzz/ by default
# Inputs that reach new code collect in BUILD_DIR/fuzz-corpus/ (the kept corpus
# stays as it is: tests/fuzz/README.md says how to merge). Then every input of
# both corpora runs once more under LeakSanitizer, 25 inputs a process (each
# input of a failing batch again alone).
# A crash, a hang, a sanitizer report, a leak or a g_critical makes it exit
# non-zero, with the reproducer in BUILD_DIR/fuzz-findings/. The result goes to
# BUILD_DIR/meson-logs/testlog-fuzz.json as one test (.ci/run counts it).
set -euo pipefail

seconds=${1:-60}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${2:-$root/build-fuzz}
findings=$build/fuzz-findings
corpus=$build/fuzz-corpus
log=$build/meson-logs/testlog-fuzz.json
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi

record() {
  mkdir -p "$(dirname "$log")"
  printf '{"name": "fuzz_pipeline", "result": "%s", "duration": %d}\n' "$1" "$SECONDS" >"$log"
}
trap 'record FAIL' EXIT  # replaced by OK at the very end

if [ -f "$build/build.ninja" ]; then
  meson setup --reconfigure "$build" "$root" >/dev/null
else
  CC=clang CXX=clang++ meson setup "$build" "$root" -Dfuzzing=true \
    -Dgpu_architectures=90 -Ddevice-optimization=false -Dtests=enabled -Dexamples=disabled -Dopencv=disabled \
    >/dev/null
fi
meson compile -C "$build" tests/fuzz/fuzz-pipeline
# The tests' environment (plugin path and loading whitelist: meson.build).
eval "$(meson devenv -C "$build" --dump)"

rm -rf "$findings"
mkdir -p "$findings" "$corpus"
echo "Fuzzing for $seconds s (seeds: tests/fuzz/corpus/, new inputs: $corpus)"
# G_SLICE: GLib's own allocator would hide GStreamer objects from AddressSanitizer.
# -timeout: an input running this long is a hang (the target's watchdog names the
# step first, at 20 s).
# Leaks are looked for in the replay below, not here: in one long process,
# LeakSanitizer's checks race GStreamer's thread-pool threads and now and then
# report their memory (GLib's per-thread caches, a state change under way) where
# no input leaks when run again alone.
export G_SLICE=always-malloc
status=0
fuzz() {  # SEED SECONDS
  ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1}:detect_leaks=0 \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
    "$build/tests/fuzz/fuzz-pipeline" -seed="$1" -max_total_time="$2" -timeout=30 \
    -rss_limit_mb=4096 -verbosity=0 -print_final_stats=1 -detect_leaks=0 \
    -artifact_prefix="$findings/" "$corpus" "$root/tests/fuzz/corpus" || status=$?
}
# The deterministic part: every kept input (the crashes found, named after them,
# among them) and a fixed seed's mutations of them.
fixed_seconds=$(( (seconds + 1) / 2 ))
start=$SECONDS
echo "Fixed part: -seed=1 for $fixed_seconds s"
fuzz 1 "$fixed_seconds"
# The random part, whatever time is left (loading the corpus counts), unless the
# fixed part failed; its seed in the log, so that a failure can be run again.
random_seconds=$(( seconds - (SECONDS - start) ))
if [ "$status" -eq 0 ] && [ "$random_seconds" -gt 0 ]; then
  seed=${CF_FUZZ_SEED:-$(( (RANDOM << 15 | RANDOM) + 1 ))}
  echo "Random part: -seed=$seed for $random_seconds s (again: CF_FUZZ_SEED=$seed $0 $seconds)"
  fuzz "$seed" "$random_seconds"
fi

# Each input alone, from start to exit, under LeakSanitizer with whole stacks;
# one that fails is kept as leak-NAME (or failed-NAME).
replay_for_leaks() {
  local log kind=failed
  log=$(mktemp)
  if ! ASAN_OPTIONS=abort_on_error=1:fast_unwind_on_malloc=0 \
      "$build/tests/fuzz/fuzz-pipeline" "$1" >"$log" 2>&1; then
    grep -q LeakSanitizer "$log" && kind=leak
    cp "$1" "$findings/$kind-$(basename "$1")"
    echo "--- $kind: $1" >&2
    grep -A30 -m1 'ERROR:' "$log" >&2 || tail -n 30 "$log" >&2
  fi
  rm -f "$log"
}
# Inputs in batches of 25 a process (a process start costs more than an input);
# a batch that fails is replayed input by input to find the culprit.
replay_batch() {
  ASAN_OPTIONS=abort_on_error=1:fast_unwind_on_malloc=0 \
    "$build/tests/fuzz/fuzz-pipeline" "$@" >/dev/null 2>&1 && return
  for input in "$@"; do
    replay_for_leaks "$input"
  done
}
export -f replay_for_leaks replay_batch
export build findings
echo "Replaying $(find "$corpus" "$root/tests/fuzz/corpus" -type f | wc -l) inputs for leaks"
find "$corpus" "$root/tests/fuzz/corpus" -type f -print0 |
  xargs -0 -P "$(nproc)" -n 25 bash -c 'replay_batch "$@"' replay

if [ "$status" -ne 0 ] || [ -n "$(ls -A "$findings")" ]; then
  echo "FUZZING FAILED (exit $status); reproducers in $findings:" >&2
  ls -l "$findings" >&2
  echo "replay one: G_SLICE=always-malloc CF_FUZZ_VERBOSE=1 $build/tests/fuzz/fuzz-pipeline FILE" >&2
  exit 1
fi
trap - EXIT
record OK
echo "fuzzing: no failure in $seconds s"
