#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CI hardening step (run by .ci/run after ./test), in two parts; any sanitizer report or fuzz finding fails it.
#
#  1. build-asan/: core, the collector and native writer (capture/), the CLI and their test suites built with
#     -fsanitize=address,undefined (GAPSCOPE_SANITIZE, g++, GUI off), then gapscope_tests and
#     gapscope_capture_tests run; the capture tests record the test clients, themselves built with the
#     sanitizers, under the sanitized collector. The GUI tests are left out: Debian's Qt is not built with the
#     sanitizers, LeakSanitizer is known to report allocations Qt keeps until exit, building the viewer would
#     double the step's time on two cores, and the viewer reads the same core code these tests cover.
#  2. build-fuzz/: the libFuzzer targets of tests/fuzz/ (clang, GAPSCOPE_FUZZ + GAPSCOPE_SANITIZE), each run
#     for GAPSCOPE_FUZZ_SECONDS (default 30) on a copy of its seed corpus with its dictionary; prints
#     executions/s and total executions per target. A crash, leak, timeout or sanitizer report keeps its
#     input under build-fuzz/findings/ and fails the step.
#
# Usage: scripts/ci_hardening.sh [asan|fuzz]   (default: both). GAPSCOPE_JOBS sets the build's parallelism.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PART="${1:-all}"
JOBS="${GAPSCOPE_JOBS:-$(nproc)}"
FUZZ_SECONDS="${GAPSCOPE_FUZZ_SECONDS:-30}"
LAUNCHER=()
if command -v ccache >/dev/null; then
  LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# Any report ends the process with an error; detect_leaks is on by default on x86-64 Linux and stays on.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:print_stacktrace=1:detect_stack_use_after_return=1:strict_string_checks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

"$ROOT/scripts/setup.sh" --install-only
if [ -x /usr/local/cuda/bin/nvcc ] || [ -d /usr/local/cuda/lib64 ]; then
  export CUDAToolkit_ROOT="${CUDAToolkit_ROOT:-/usr/local/cuda}"
fi

started=$SECONDS
phase() { echo "== hardening: $* ($((SECONDS - started)) s so far)"; }

if [ "$PART" = all ] || [ "$PART" = asan ]; then
  phase "building the sanitized test suites in build-asan/"
  # -O1, as the sanitizers' documentation advises: reports as precise, and the build (the long part here) faster.
  cmake -S "$ROOT" -B "$ROOT/build-asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g -DNDEBUG" -DGAPSCOPE_BUILD_GUI=OFF \
    -DGAPSCOPE_SANITIZE=ON "${LAUNCHER[@]}" >/dev/null
  cmake --build "$ROOT/build-asan" -j "$JOBS" --target gapscope_tests gapscope_capture_tests gapscope
  phase "running gapscope_tests under ASan+UBSan"
  "$ROOT/build-asan/tests/gapscope_tests" --gtest_brief=1
  phase "running gapscope_capture_tests under ASan+UBSan"
  "$ROOT/build-asan/tests/capture/gapscope_capture_tests" --gtest_brief=1
fi

if [ "$PART" = all ] || [ "$PART" = fuzz ]; then
  phase "building the fuzz targets in build-fuzz/"
  cmake -S "$ROOT" -B "$ROOT/build-fuzz" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DGAPSCOPE_BUILD_GUI=OFF -DGAPSCOPE_BUILD_TESTS=OFF -DGAPSCOPE_FUZZ=ON -DGAPSCOPE_SANITIZE=ON \
    "${LAUNCHER[@]}" >/dev/null
  cmake --build "$ROOT/build-fuzz" -j "$JOBS" --target gapscope_fuzz
  findings="$ROOT/build-fuzz/findings"
  rm -rf "$findings" "$ROOT/build-fuzz/corpus-run"
  mkdir -p "$findings"
  failed=()
  summary=()
  for target in chrome_json chrome_gzip native_capture annotations record_form nsys_sqlite; do
    phase "fuzzing $target for ${FUZZ_SECONDS} s"
    corpus="$ROOT/build-fuzz/corpus-run/$target"
    mkdir -p "$corpus"
    cp "$ROOT/tests/fuzz/corpus/$target/"* "$corpus/"
    log="$ROOT/build-fuzz/fuzz-$target.log"
    status=0
    "$ROOT/build-fuzz/tests/fuzz/gapscope_fuzz_$target" -max_total_time="$FUZZ_SECONDS" -timeout=10 \
      -rss_limit_mb=2560 -print_final_stats=1 -dict="$ROOT/tests/fuzz/$target.dict" \
      -artifact_prefix="$findings/$target-" "$corpus" >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    summary+=("$(printf '%-16s %10s executions  %8s exec/s' "$target" "${runs:-?}" "${speed:-?}")")
    if [ "$status" -ne 0 ]; then
      failed+=("$target")
      tail -n 60 "$log"
    fi
  done
  echo "== fuzzing, ${FUZZ_SECONDS} s per target:"
  printf '%s\n' "${summary[@]}"
  if ((${#failed[@]})); then
    echo "== hardening: findings in ${failed[*]}: inputs kept in $findings" >&2
    ls -l "$findings" >&2
    exit 1
  fi
fi
phase "done, no sanitizer report, no fuzz finding"
