#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

# The gpu test suite under NVIDIA's compute-sanitizer, on a GPU host: every test of
# meson's gpu suite in BUILD_DIR (or only the TESTs named) under each tool, memcheck
# (with leak checking), racecheck, initcheck and synccheck, with the environment meson
# gives the test, CK_FORK=no (CUDA cannot be used in a forked child) and the quick
# case set (CF_TEST_CASES=quick, tests/filter_cases.h). One log per tool and test in
# OUT_DIR (default BUILD_DIR/compute-sanitizer), then a table of every run: its exit
# status and compute-sanitizer's ERROR SUMMARY. Exits 1 if any run reported errors,
# failed, timed out or was skipped (no usable device).
#
# Usage: tests/sanitizers/gpu-sanitizers.sh BUILD_DIR [OUT_DIR [TEST...]]
# Environment: CF_SANITIZER_TOOLS (default "memcheck racecheck initcheck synccheck"),
# CF_SANITIZER_TIMEOUT (seconds per run, default 900), CF_SANITIZER_ARGS (more
# compute-sanitizer options for every run).
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR [OUT_DIR [TEST...]]" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
out=${2:-$build/compute-sanitizer}
shift $(( $# < 2 ? $# : 2 ))
tools=(${CF_SANITIZER_TOOLS:-memcheck racecheck initcheck synccheck})
timeout_s=${CF_SANITIZER_TIMEOUT:-900}
extra_args=(${CF_SANITIZER_ARGS:-})

sanitizer=$(command -v compute-sanitizer || true)
if [ -z "$sanitizer" ] && command -v nvcc >/dev/null; then
  sanitizer=$(dirname "$(command -v nvcc)")/compute-sanitizer
fi
[ -x "$sanitizer" ] || sanitizer=/usr/local/cuda/bin/compute-sanitizer
if [ ! -x "$sanitizer" ]; then
  echo "compute-sanitizer not found: put the CUDA toolkit's bin/ on PATH" >&2
  exit 2
fi

meson compile -C "$build"
mkdir -p "$out"

# Each gpu test as one line: its name, then `env` with meson's variables and its
# command, shell-quoted.
runs_text=$(python3 - "$build/meson-info/intro-tests.json" "$@" <<'EOF'
import json, os, shlex, sys

wanted = set(sys.argv[2:])
with open(sys.argv[1]) as f:
    tests = json.load(f)
found = set()
for test in tests:
    if not any(suite.split(":")[-1] == "gpu" for suite in test["suite"]):
        continue
    if wanted and test["name"] not in wanted:
        continue
    found.add(test["name"])
    # As meson test does: search paths it sets come before the caller's, not instead.
    env = [f"{key}={value}:{os.environ[key]}" if key.endswith("PATH") and os.environ.get(key)
           else f"{key}={value}" for key, value in sorted(test["env"].items())]
    print(test["name"], " ".join(shlex.quote(arg) for arg in ["env"] + env + test["cmd"]))
if not found or wanted - found:
    sys.exit("not in the gpu suite: " + (" ".join(sorted(wanted - found)) or "any test"))
EOF
)
mapfile -t runs <<<"$runs_text"

export CK_FORK=no CF_TEST_CASES=quick
# GStreamer scans plugins into each test's registry on first use: done here, outside
# the sanitizers, so that other plugins' CUDA use at scan time (nvcodec probes every
# device) stays out of the reports. A test case of no such name runs no test.
for run in "${runs[@]}"; do
  eval "CK_RUN_CASE=registry-scan-only ${run#* }" >/dev/null 2>&1 || true
done

summary=$out/summary.txt
printf '%-10s %-22s %-12s %7s  %s\n' tool test status seconds "compute-sanitizer" \
  | tee "$summary"
failed=0
for tool in "${tools[@]}"; do
  tool_args=(--tool "$tool")
  [ "$tool" = memcheck ] && tool_args+=(--leak-check full)
  for run in "${runs[@]}"; do
    name=${run%% *}
    log=$out/$tool-$name.log
    start=$SECONDS
    status=0
    eval "timeout -k 30 $timeout_s $(printf '%q ' "$sanitizer" "${tool_args[@]}" \
      --error-exitcode 1 "${extra_args[@]}") ${run#* }" >"$log" 2>&1 || status=$?
    # racecheck ends with a RACECHECK SUMMARY of hazards, the other tools with an
    # ERROR SUMMARY.
    errors=$({ grep -aE '(ERROR|RACECHECK) SUMMARY' "$log" || true; } | tail -n 1 |
      sed 's/^=* *//')
    case $status in
      0) verdict=ok ;;
      77) verdict=SKIPPED ;;
      124|137) verdict=TIMEOUT ;;
      *) verdict="FAIL($status)" ;;
    esac
    # A run without the summary line did not finish under the tool.
    if [ "$status" -eq 0 ] && [[ $errors != "ERROR SUMMARY: 0 errors" ]] &&
       [[ $errors != "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)" ]]; then
      verdict=FAIL
    fi
    [ "$verdict" = ok ] || failed=1
    printf '%-10s %-22s %-12s %7d  %s\n' "$tool" "$name" "$verdict" \
      $(( SECONDS - start )) "${errors:-no ERROR SUMMARY line}" | tee -a "$summary"
  done
done
echo "logs: $out/TOOL-TEST.log; this table: $summary"
exit $failed
