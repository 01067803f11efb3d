#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The GPU checks of the collector, in one call, on a machine with an NVIDIA GPU and the CUDA toolkit:
#
#   tests/gpu/run_gpu_checks.sh OUTDIR
#
# 1. builds gapscope, the collector, the CUDA test client (nvcc, sm_80 + sm_90) and the GPU tests;
# 2. runs the GPU tests (ctest label `gpu`): kinds, counts, streams, correlation, gap causes;
# 3. records the client's known shape with `gapscope record` and reports it;
# 4. measures the collector's overhead: an empty-kernel loop and a 20 us-kernel loop, each run
#    REPEATS times without and with the collector (medians): us added per launch, % of wall time.
#
# Everything it finds goes to OUTDIR: summary.md (the figures), overhead.json, gpu_tests.xml, logs.
# Environment: BUILD_DIR (default OUTDIR/build), REPEATS (5), EMPTY_LAUNCHES (20000),
# KERNEL_LAUNCHES (5000), CUDA_HOME (/usr/local/cuda), JOBS (nproc).
set -u -o pipefail

if [[ $# -ne 1 ]]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD_DIR:-$OUT/build}
REPEATS=${REPEATS:-5}
EMPTY_LAUNCHES=${EMPTY_LAUNCHES:-20000}
KERNEL_LAUNCHES=${KERNEL_LAUNCHES:-5000}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
JOBS=${JOBS:-$(nproc)}
SUMMARY=$OUT/summary.md
STATUS=0

log() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$OUT/run.log"; }
fail() { log "FAILED: $*"; STATUS=1; }

: >"$OUT/run.log"
{
    echo "# GapScope GPU checks"
    echo
    echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "- commit: $(git -C "$SOURCE" rev-parse --short HEAD 2>/dev/null || echo unknown)"
} >"$SUMMARY"

# ---- the machine ----------------------------------------------------------------------------------
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi >"$OUT/nvidia-smi.log" 2>&1; then
    log "no usable NVIDIA GPU (nvidia-smi failed); see $OUT/nvidia-smi.log"
    echo "- GPU: none found; nothing was run" >>"$SUMMARY"
    exit 3
fi
GPU=$(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | head -1)
echo "- GPU: $GPU" >>"$SUMMARY"
log "GPU: $GPU"
if [[ ! -x $CUDA_HOME/bin/nvcc ]]; then
    log "nvcc not found under CUDA_HOME=$CUDA_HOME"
    exit 4
fi
echo "- CUDA: $("$CUDA_HOME/bin/nvcc" --version | tail -1)" >>"$SUMMARY"

# ---- build ------------------------------------------------------------------------------------------
log "configuring in $BUILD"
GENERATOR=()
command -v ninja >/dev/null && GENERATOR=(-G Ninja)
if ! cmake -S "$SOURCE" -B "$BUILD" "${GENERATOR[@]}" -DCMAKE_BUILD_TYPE=Release -DGAPSCOPE_BUILD_GUI=OFF \
    -DGAPSCOPE_BUILD_CUDA_CLIENT=ON -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" \
    -DCUDAToolkit_ROOT="$CUDA_HOME" >"$OUT/configure.log" 2>&1; then
    log "configure failed; see $OUT/configure.log"
    exit 5
fi
log "building"
if ! cmake --build "$BUILD" -j "$JOBS" --target gapscope gapscope_inject gapscope_cuda_client \
    gapscope_capture_gpu_tests >"$OUT/build.log" 2>&1; then
    log "build failed; see $OUT/build.log"
    exit 6
fi
GAPSCOPE=$BUILD/app/gapscope
CLIENT=$BUILD/tests/capture/gapscope_cuda_client
export GAPSCOPE_CUDA_CLIENT=$CLIENT

# ---- GPU tests --------------------------------------------------------------------------------------
log "running the GPU tests"
if (cd "$BUILD" && ctest -L gpu --output-on-failure --output-junit "$OUT/gpu_tests.xml") >"$OUT/gpu_tests.log" 2>&1; then
    echo "- GPU tests (ctest -L gpu): passed" >>"$SUMMARY"
else
    fail "GPU tests; see $OUT/gpu_tests.log"
    echo "- GPU tests (ctest -L gpu): FAILED (gpu_tests.log)" >>"$SUMMARY"
fi
grep -E "Passed|Failed|Skipped|tests passed" "$OUT/gpu_tests.log" | tail -20 >>"$OUT/run.log"

# ---- a recording of the known shape -----------------------------------------------------------------
log "recording the client's shape"
if "$GAPSCOPE" record -o "$OUT/shape.gapscope" -- "$CLIENT" shape >"$OUT/record_shape.log" 2>&1; then
    "$GAPSCOPE" report "$OUT/shape.gapscope" >"$OUT/report_shape.txt" 2>&1 || fail "gapscope report; see report_shape.txt"
    "$GAPSCOPE" convert "$OUT/shape.gapscope" "$OUT/shape.json.gz" >>"$OUT/record_shape.log" 2>&1 || fail "convert"
else
    fail "gapscope record of the shape; see $OUT/record_shape.log"
fi
{
    echo
    echo "## Recording of the shape (gapscope record -- cuda_client shape)"
    echo
    echo '```'
    sed -n '/^The program/,$p' "$OUT/record_shape.log"
    echo '```'
} >>"$SUMMARY"

# ---- overhead ---------------------------------------------------------------------------------------
# seconds MODE ARGS... -> the loop's own wall time, from the client's JSON line.
loop_seconds() {
    local with=$1
    shift
    local output
    if [[ $with == yes ]]; then
        output=$("$GAPSCOPE" record -o "$OUT/overhead-last.gapscope" -- "$CLIENT" "$@" 2>>"$OUT/overhead.log")
    else
        output=$("$CLIENT" "$@" 2>>"$OUT/overhead.log")
    fi
    echo "$output" | sed -n 's/.*"seconds":\([0-9.]*\).*/\1/p' | tail -1
}

median() { sort -g | awk '{v[NR]=$1} END {if (NR==0) print ""; else if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

measure() {
    local name=$1 launches=$2
    shift 2
    local base=() with=()
    for ((i = 0; i < REPEATS; i++)); do
        base+=("$(loop_seconds no "$@")")
        with+=("$(loop_seconds yes "$@")")
    done
    local b w
    b=$(printf '%s\n' "${base[@]}" | grep -v '^$' | median)
    w=$(printf '%s\n' "${with[@]}" | grep -v '^$' | median)
    if [[ -z $b || -z $w ]]; then
        fail "overhead loop $name produced no time; see $OUT/overhead.log"
        return
    fi
    awk -v name="$name" -v n="$launches" -v b="$b" -v w="$w" -v rb="${base[*]}" -v rw="${with[*]}" 'BEGIN {
        printf "{\"loop\":\"%s\",\"launches\":%d,\"baseline_s\":%.6f,\"collector_s\":%.6f,", name, n, b, w
        printf "\"us_added_per_launch\":%.3f,\"percent_wall\":%.2f,", (w - b) / n * 1e6, (w - b) / b * 100
        printf "\"baseline_runs\":\"%s\",\"collector_runs\":\"%s\"}\n", rb, rw
    }' >>"$OUT/overhead.json"
    awk -v name="$name" -v n="$launches" -v b="$b" -v w="$w" 'BEGIN {
        printf "| %s | %d | %.2f | %.2f | %.3f | %.2f %% |\n", name, n, b * 1e3, w * 1e3, (w - b) / n * 1e6, (w - b) / b * 100
    }' >>"$SUMMARY"
}

log "measuring the collector's overhead ($REPEATS runs each)"
: >"$OUT/overhead.json"
{
    echo
    echo "## Collector overhead (medians of $REPEATS runs; target <= 3 % on the 20 us loop)"
    echo
    echo "| loop | launches | without (ms) | with collector (ms) | us added per launch | % wall time |"
    echo "|---|---|---|---|---|---|"
} >>"$SUMMARY"
measure empty-kernel "$EMPTY_LAUNCHES" empty-loop "$EMPTY_LAUNCHES"
measure 20us-kernel "$KERNEL_LAUNCHES" kernel-loop "$KERNEL_LAUNCHES" 20
rm -f "$OUT/overhead-last.gapscope"

{
    echo
    echo "Logs: run.log, build.log, gpu_tests.log (and gpu_tests.xml), record_shape.log, report_shape.txt, overhead.log."
} >>"$SUMMARY"
log "done (status $STATUS); figures in $SUMMARY"
cat "$SUMMARY"
exit $STATUS
