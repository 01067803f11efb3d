#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The verdicts on what tests/gpu/run_gpu_checks.sh sent back from a GPU machine, here on the development machine:
#
#   tests/gpu/check_gpu_results.sh RESULTS [--commit]
#
# RESULTS: the folder the device call's files came back to (gpu-results.tar.gz, torch_profiler.json.gz,
# summary.md, run.log), or an unpacked gpu-results folder. Unpacks it, puts the Kineto trace where the test looks
# for it, and runs RecordedGpuResultsTest (tests/capture/recorded_gpu_results_test.cpp) of gapscope_capture_tests
# over it: the CUDA client's shape, gap causes, kinds, graph, threads and fork, the overhead (<= 3 % on 20 us
# kernels; the figures are printed), GapScope's kernels of the PyTorch step against torch.profiler's, and the
# second-client run. --commit then copies the captures (without the overhead loop's, which is large) into
# tests/data/gpu-results, from where the same test runs on every CI run.
# Environment: BUILD_DIR (default build/, where gapscope_capture_tests is built).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
if [[ $# -lt 1 ]]; then
    echo "usage: $0 RESULTS [--commit]" >&2
    exit 2
fi
SOURCE=$1
COMMIT=${2:-}
TESTS=$BUILD/tests/capture/gapscope_capture_tests
if [[ ! -x $TESTS ]]; then
    echo "check_gpu_results: build gapscope_capture_tests first (cmake --build $BUILD --target gapscope_capture_tests)" >&2
    exit 2
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gapscope-gpu-check-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
if [[ -f $SOURCE/gpu-results.tar.gz ]]; then
    tar -C "$WORK" -xzf "$SOURCE/gpu-results.tar.gz"
    RESULTS=$WORK/gpu-results
    if [[ -f $SOURCE/torch_profiler.json.gz ]]; then
        mkdir -p "$RESULTS/torch-profiler"
        cp "$SOURCE/torch_profiler.json.gz" "$RESULTS/torch-profiler/trace.json.gz"
    fi
elif [[ -d $SOURCE/shape ]]; then
    RESULTS=$(cd "$SOURCE" && pwd)
else
    echo "check_gpu_results: $SOURCE holds neither gpu-results.tar.gz nor an unpacked results folder" >&2
    exit 2
fi
[[ -f $SOURCE/summary.md ]] && cat "$SOURCE/summary.md" && echo
status=0
GAPSCOPE_GPU_RESULTS=$RESULTS "$TESTS" --gtest_filter='RecordedGpuResultsTest.*' || status=$?
if [[ $COMMIT == --commit ]]; then
    DEST=$ROOT/tests/data/gpu-results
    rm -rf "$DEST"
    mkdir -p "$DEST"
    (cd "$RESULTS" && tar -cf - --exclude='overhead-*' --exclude='*.log' .) | tar -C "$DEST" -xf -
    echo "check_gpu_results: copied $(du -sh "$DEST" | cut -f1) into tests/data/gpu-results (add its notice to tests/data/NOTICE.md)"
fi
exit $status
