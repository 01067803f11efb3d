#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/setup.sh installs per use: ./run's set has what the viewer needs and nothing for tests or fuzzing
# (no GoogleTest, Benchmark, MPI, clang or LLVM); ./test's adds the test libraries; the hardening set adds clang.
# And ./run builds the viewer's targets only. Usage: setup_sets_test.sh SOURCE_DIR
set -euo pipefail
ROOT="$1"
fail() { echo "FAIL: $*" >&2; exit 1; }
run_set="$("$ROOT/scripts/setup.sh" --set run --print-packages)"
test_set="$("$ROOT/scripts/setup.sh" --set test --print-packages)"
hardening_set="$("$ROOT/scripts/setup.sh" --set hardening --print-packages)"
for p in qt6-base-dev g++ cmake ninja-build nlohmann-json3-dev zlib1g-dev libsqlite3-dev libcli11-dev; do
  grep -qx "$p" <<<"$run_set" || fail "run set lacks $p"
done
for p in libgtest-dev libgmock-dev libbenchmark-dev libopenmpi-dev clang llvm-14 libclang-rt-14-dev; do
  if grep -qx "$p" <<<"$run_set"; then fail "run set installs $p, which only the tests or fuzzing need"; fi
done
for p in libgtest-dev libbenchmark-dev qt6-base-dev; do
  grep -qx "$p" <<<"$test_set" || fail "test set lacks $p"
done
for p in clang llvm-14; do
  if grep -qx "$p" <<<"$test_set"; then fail "test set installs $p"; fi
  grep -qx "$p" <<<"$hardening_set" || fail "hardening set lacks $p"
done
# ./run asks for the run set and builds gapscope (and the collector), never everything.
grep -q 'setup.sh" --set run "${TARGETS\[@\]}"' "$ROOT/run" || fail "./run does not build its targets only"
grep -q '^TARGETS=(gapscope)$' "$ROOT/run" || fail "./run's targets are not gapscope"
grep -q 'setup.sh" --set test' "$ROOT/test" || fail "./test does not install the test set"
grep -q 'setup.sh" --set hardening --install-only' "$ROOT/scripts/ci_hardening.sh" || fail "hardening set unused"
echo "setup sets: ok"
