#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CI hardening step (.ci/run runs it after ./test and the format check); any sanitizer report or fuzz finding
# fails it. One clang build, build-hardening/: -fsanitize=address,undefined everywhere (GAPSCOPE_SANITIZE,
# every report fatal), libFuzzer coverage in core only and -fsanitize=fuzzer on the fuzz targets
# (GAPSCOPE_FUZZ), -O1 with line tables only (the sanitizers' advice; full debug info doubled the compile
# time for nothing a report needs), GUI and MPI off, only the targets run below. Then:
#
#  1. gapscope_tests (core and CLI; two shards at once) and gapscope_capture_tests: the capture tests record
#     the test clients, themselves sanitized, under the sanitized collector. LeakSanitizer stays on; memory
#     kept on purpose is reachable (capture/inject/kept_for_life.h). The GUI tests are left out: Debian's Qt
#     is not built with the sanitizers, LeakSanitizer is known to report allocations Qt keeps until exit,
#     building the viewer would double the step's time on two cores, and the viewer reads the same core code
#     these tests cover.
#  2. every libFuzzer target of tests/fuzz/, on a copy of its seed corpus with its dictionary, GAPSCOPE_JOBS
#     targets at a time, for a fixed number of inputs with a fixed seed (GAPSCOPE_FUZZ_SEED, default 1): the
#     same code gets the same inputs on every machine, so CI's verdict does not depend on luck or on the
#     machine's speed (the counts are what each target ran in 30 s at load ~8 here; GAPSCOPE_FUZZ_SECONDS, default
#     120, caps a slow machine). Exploring with random seeds for an hour: tests/fuzz/README.md. Prints
#     executions/s and total executions per target. A crash, leak, timeout or sanitizer report keeps its input
#     under build-hardening/findings/.
#
#  3. ThreadSanitizer: a second, small clang build, build-tsan/, of the collector alone (GAPSCOPE_COLLECTOR_ONLY,
#     GAPSCOPE_TSAN: no core, CLI or viewer) and gapscope_collector_unit_tests, the core-free capture unit tests:
#     the buffer pool, the completed-buffer reader, the translator and the writer under concurrent producers,
#     the exit's detach. Any race report fails it (halt_on_error).
#
# Usage: scripts/ci_hardening.sh [tests|fuzz|tsan]   (default: all three; each builds what it needs).
# GAPSCOPE_JOBS sets the build's and the runs' parallelism (default: all cores).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PART="${1:-all}"
JOBS="${GAPSCOPE_JOBS:-$(nproc)}"
FUZZ_SECONDS="${GAPSCOPE_FUZZ_SECONDS:-120}"
FUZZ_SEED="${GAPSCOPE_FUZZ_SEED:-1}"
# Inputs per target (about 30 s each at load ~8 on two cores, 2026-12-02).
declare -A FUZZ_RUNS=([chrome_json]=2000 [chrome_gzip]=1000 [native_capture]=3600 [annotations]=48000
  [record_form]=280000 [nsys_sqlite]=75000)
BUILD="$ROOT/build-hardening"
FUZZ_TARGETS=(chrome_json chrome_gzip native_capture annotations record_form nsys_sqlite)
case "$PART" in
  all) TARGETS=(gapscope_tests gapscope_capture_tests gapscope_fuzz) ;;
  tests) TARGETS=(gapscope_tests gapscope_capture_tests) ;;
  fuzz) TARGETS=(gapscope_fuzz) ;;
  tsan) TARGETS=() ;;
  *) echo "usage: scripts/ci_hardening.sh [tests|fuzz|tsan]" >&2; exit 2 ;;
esac
LAUNCHER=()
if command -v ccache >/dev/null; then
  LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# Any report ends the process with an error; detect_leaks is on by default on x86-64 Linux and stays on.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:print_stacktrace=1:detect_stack_use_after_return=1:strict_string_checks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
if [ -x /usr/lib/llvm-14/bin/llvm-symbolizer ]; then
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer # file:line in the reports
fi

"$ROOT/scripts/setup.sh" --set hardening --install-only
if [ -x /usr/local/cuda/bin/nvcc ] || [ -d /usr/local/cuda/lib64 ]; then
  export CUDAToolkit_ROOT="${CUDAToolkit_ROOT:-/usr/local/cuda}"
fi

started=$SECONDS
phase() { echo "== hardening: $* ($((SECONDS - started)) s so far)"; }

if ((${#TARGETS[@]})); then
  phase "building ${TARGETS[*]} in build-hardening/ (clang, ASan+UBSan, libFuzzer)"
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" -DGAPSCOPE_BUILD_GUI=OFF \
    -DGAPSCOPE_WITH_MPI=OFF -DGAPSCOPE_SANITIZE=ON -DGAPSCOPE_FUZZ=ON "${LAUNCHER[@]}" >/dev/null
  cmake --build "$BUILD" -j "$JOBS" --target "${TARGETS[@]}"
fi

if [ "$PART" = all ] || [ "$PART" = tests ]; then
  phase "running gapscope_tests under ASan+UBSan, in $JOBS shards"
  pids=()
  for ((shard = 0; shard < JOBS; shard++)); do
    GTEST_TOTAL_SHARDS=$JOBS GTEST_SHARD_INDEX=$shard "$BUILD/tests/gapscope_tests" --gtest_brief=1 \
      >"$BUILD/gapscope_tests-$shard.log" 2>&1 &
    pids+=($!)
  done
  failed=0
  for ((shard = 0; shard < JOBS; shard++)); do
    if ! wait "${pids[$shard]}"; then
      failed=1
      tail -n 80 "$BUILD/gapscope_tests-$shard.log"
    fi
    grep -h '^\[  PASSED  \]' "$BUILD/gapscope_tests-$shard.log" | sed "s/^/shard $shard: /"
  done
  if [ "$failed" -ne 0 ]; then
    echo "== hardening: gapscope_tests failed under the sanitizers" >&2
    exit 1
  fi
  phase "running gapscope_capture_tests under ASan+UBSan"
  "$BUILD/tests/capture/gapscope_capture_tests" --gtest_brief=1
fi

if [ "$PART" = all ] || [ "$PART" = fuzz ]; then
  findings="$BUILD/findings"
  rm -rf "$findings" "$BUILD/corpus-run" "$BUILD"/fuzz-*.status
  mkdir -p "$findings"
  phase "fuzzing ${#FUZZ_TARGETS[@]} targets (seed $FUZZ_SEED, a fixed number of inputs each), $JOBS at a time"
  fuzz() {
    local target=$1 corpus="$BUILD/corpus-run/$1"
    mkdir -p "$corpus"
    cp "$ROOT/tests/fuzz/corpus/$target/"* "$corpus/"
    local status=0
    "$BUILD/tests/fuzz/gapscope_fuzz_$target" -seed="$FUZZ_SEED" -runs="${FUZZ_RUNS[$target]}" \
      -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2560 \
      -print_final_stats=1 -dict="$ROOT/tests/fuzz/$target.dict" -artifact_prefix="$findings/$target-" \
      "$corpus" >"$BUILD/fuzz-$target.log" 2>&1 || status=$?
    echo "$status" >"$BUILD/fuzz-$target.status"
  }
  for target in "${FUZZ_TARGETS[@]}"; do
    while (($(jobs -rp | wc -l) >= JOBS)); do
      wait -n || true
    done
    fuzz "$target" &
  done
  wait
  failed=()
  summary=()
  for target in "${FUZZ_TARGETS[@]}"; do
    status=$(cat "$BUILD/fuzz-$target.status" 2>/dev/null || echo "no status")
    log="$BUILD/fuzz-$target.log"
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    summary+=("$(printf '%-16s %10s executions  %8s exec/s' "$target" "${runs:-?}" "${speed:-?}")")
    if [ "$status" != 0 ]; then
      failed+=("$target")
      tail -n 60 "$log"
    fi
  done
  echo "== fuzzing, seed $FUZZ_SEED, $JOBS targets at a time:"
  printf '%s\n' "${summary[@]}"
  if ((${#failed[@]})); then
    echo "== hardening: findings in ${failed[*]}: inputs kept in $findings" >&2
    ls -l "$findings" >&2
    exit 1
  fi
fi
if [ "$PART" = all ] || [ "$PART" = tsan ]; then
  if [ -d "${CUDAToolkit_ROOT:-/usr/local/cuda}/include" ]; then
    phase "building gapscope_collector_unit_tests in build-tsan/ (clang, ThreadSanitizer, collector only)"
    cmake -S "$ROOT" -B "$ROOT/build-tsan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" -DGAPSCOPE_COLLECTOR_ONLY=ON \
      -DGAPSCOPE_TSAN=ON "${LAUNCHER[@]}" >/dev/null
    cmake --build "$ROOT/build-tsan" -j "$JOBS" --target gapscope_collector_unit_tests
    phase "running gapscope_collector_unit_tests under ThreadSanitizer"
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1" "$ROOT/build-tsan/tests/capture/collector_unit/gapscope_collector_unit_tests" \
      --gtest_brief=1
  else
    phase "no CUDA toolkit (CUPTI): the ThreadSanitizer build of the collector is skipped"
  fi
fi
phase "done, no sanitizer report, no fuzz finding"
