#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The GPU checks of the collector, in one call, on a machine with an NVIDIA GPU and the CUDA toolkit:
#
#   tests/gpu/run_gpu_checks.sh OUTDIR                    everything below (needs a GPU)
#   tests/gpu/run_gpu_checks.sh --configure-only OUTDIR   steps 1 and 2 without a GPU: configure and
#                                                         build what the checks need (nvcc required)
#
# 1. configures (GAPSCOPE_BUILD_CUDA_CLIENT=ON, no GUI, no Google Benchmark needed) and
# 2. builds gapscope, the collector, the CUDA test client (nvcc, sm_80 + sm_90) and the GPU tests;
# 3. runs the GPU tests (ctest -L gpu --timeout 180) with GAPSCOPE_REQUIRE_GPU=1, which turns a skip
#    into a failure: a run where every test skipped is not a pass;
# 4. records the client's known shape with `gapscope record` and reports it: the CUPTI version,
#    the records by kind, the gap causes;
# 5. measures the collector's overhead: an empty-kernel loop and a 20 us-kernel loop, each sized to
#    last at least MIN_LOOP_SECONDS (2 s, against the collector's 150 ms flush interval), run REPEATS
#    times without and with the collector, alternating; every instrumented run must exit 0 and record
#    every launch; reports medians, min-max spread, us added per launch and % of wall time.
#
# Every client run is under `timeout 120`, so a hang cannot eat the device slot. Everything it finds
# goes to OUTDIR: summary.md (the figures), overhead.json, gpu_tests.xml, logs. Exit status 0 only
# when every step passed.
# Environment: BUILD_DIR (default OUTDIR/build), REPEATS (3), MIN_LOOP_SECONDS (2), EMPTY_LAUNCHES
# (start value, 400000), KERNEL_LAUNCHES (start value, 100000), CUDA_HOME (/usr/local/cuda), JOBS (nproc).
set -u -o pipefail

CONFIGURE_ONLY=0
if [[ ${1:-} == --configure-only ]]; then
    CONFIGURE_ONLY=1
    shift
fi
if [[ $# -ne 1 ]]; then
    echo "usage: $0 [--configure-only] OUTDIR" >&2
    exit 2
fi
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD_DIR:-$OUT/build}
REPEATS=${REPEATS:-3}
MIN_LOOP_SECONDS=${MIN_LOOP_SECONDS:-2}
EMPTY_LAUNCHES=${EMPTY_LAUNCHES:-400000}
KERNEL_LAUNCHES=${KERNEL_LAUNCHES:-100000}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
JOBS=${JOBS:-$(nproc)}
SUMMARY=$OUT/summary.md
STATUS=0
CLIENT_TIMEOUT=120

# Both write to stderr and files only: run_loop's stdout is the value its callers capture.
log() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$OUT/run.log" >&2; }
# A marker file, not only STATUS: fail may run in a $(...) subshell.
fail() {
    log "FAILED: $*"
    echo "- FAILED: $*" >>"$SUMMARY"
    touch "$OUT/.failed"
    STATUS=1
}

: >"$OUT/run.log"
rm -f "$OUT/.failed"
{
    echo "# GapScope GPU checks"
    echo
    echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "- commit: $(git -C "$SOURCE" rev-parse --short HEAD 2>/dev/null || echo unknown)"
} >"$SUMMARY"

# ---- the machine ----------------------------------------------------------------------------------
if [[ $CONFIGURE_ONLY == 0 ]]; then
    if ! command -v nvidia-smi >/dev/null || ! timeout 60 nvidia-smi >"$OUT/nvidia-smi.log" 2>&1; then
        log "no usable NVIDIA GPU (nvidia-smi failed); see $OUT/nvidia-smi.log"
        echo "- GPU: none found; nothing was run" >>"$SUMMARY"
        exit 3
    fi
    GPU=$(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | head -1)
    echo "- GPU: $GPU" >>"$SUMMARY"
    log "GPU: $GPU"
    if [[ ! -r /proc/driver/nvidia/version ]]; then
        # The GPU tests look for it; with GAPSCOPE_REQUIRE_GPU=1 they fail rather than skip.
        log "warning: /proc/driver/nvidia/version is missing although nvidia-smi works"
    fi
fi
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
if grep -q "no CUDA compiler" "$OUT/configure.log"; then
    log "CMake found no CUDA compiler; see $OUT/configure.log"
    exit 5
fi
log "building"
TARGETS=(gapscope_cuda_client)
[[ $CONFIGURE_ONLY == 0 ]] && TARGETS+=(gapscope gapscope_inject gapscope_capture_gpu_tests)
if ! cmake --build "$BUILD" -j "$JOBS" --target "${TARGETS[@]}" >"$OUT/build.log" 2>&1; then
    log "build failed; see $OUT/build.log"
    exit 6
fi
if [[ $CONFIGURE_ONLY == 1 ]]; then
    echo "- configured and built ${TARGETS[*]} (--configure-only: no GPU step was run)" >>"$SUMMARY"
    log "configure-only: done"
    cat "$SUMMARY"
    exit 0
fi
GAPSCOPE=$BUILD/app/gapscope
CLIENT=$BUILD/tests/capture/gapscope_cuda_client
export GAPSCOPE_CUDA_CLIENT=$CLIENT
export GAPSCOPE_REQUIRE_GPU=1

# ---- GPU tests --------------------------------------------------------------------------------------
log "running the GPU tests"
(cd "$BUILD" && ctest -L gpu --timeout 180 --output-on-failure --output-junit "$OUT/gpu_tests.xml") \
    >"$OUT/gpu_tests.log" 2>&1
CTEST_STATUS=$?
TOTAL=$(sed -n 's/.*tests passed, [0-9]* tests failed out of \([0-9]*\).*/\1/p' "$OUT/gpu_tests.log" | tail -1)
SKIPPED=$(grep -c -E "\*\*\*Skipped|Not Run" "$OUT/gpu_tests.log")
if [[ $CTEST_STATUS -ne 0 ]]; then
    fail "GPU tests (ctest -L gpu); see gpu_tests.log"
elif [[ -z $TOTAL || $TOTAL -eq 0 ]]; then
    fail "GPU tests: ctest ran no test"
elif [[ $SKIPPED -ne 0 ]]; then
    fail "GPU tests: $SKIPPED skipped (GAPSCOPE_REQUIRE_GPU=1 allows none)"
else
    echo "- GPU tests (ctest -L gpu): $TOTAL passed, none skipped" >>"$SUMMARY"
fi
grep -E "CUPTI API version: " "$OUT/gpu_tests.log" | head -1 | sed 's/^/- shape test: /' >>"$SUMMARY"
grep -E "Passed|Failed|Skipped|tests passed" "$OUT/gpu_tests.log" | tail -20 >>"$OUT/run.log"

# ---- a recording of the known shape -----------------------------------------------------------------
log "recording the client's shape"
if timeout $CLIENT_TIMEOUT "$GAPSCOPE" record -o "$OUT/shape.gapscope" -- "$CLIENT" shape >"$OUT/record_shape.log" 2>&1; then
    timeout $CLIENT_TIMEOUT "$GAPSCOPE" report "$OUT/shape.gapscope" >"$OUT/report_shape.txt" 2>&1 ||
        fail "gapscope report; see report_shape.txt"
    timeout $CLIENT_TIMEOUT "$GAPSCOPE" convert "$OUT/shape.gapscope" "$OUT/shape.json.gz" >>"$OUT/record_shape.log" 2>&1 ||
        fail "convert"
else
    fail "gapscope record of the shape; see $OUT/record_shape.log"
fi
{
    echo
    echo "## Recording of the shape (gapscope record -- cuda_client shape)"
    echo
    echo "- CUPTI: $(grep -m1 -o 'CUPTI API version [0-9]*' "$OUT/record_shape.log" || echo 'not reported')"
    echo "- $(grep -m1 '^Records by kind' "$OUT/record_shape.log" || echo 'no records line')"
    echo "- gap causes: $(grep -m1 -i 'by cause' -A6 "$OUT/report_shape.txt" | tr '\n' ' ' || true)"
    echo
    echo '```'
    sed -n '/^The program/,$p' "$OUT/record_shape.log"
    echo '```'
} >>"$SUMMARY"

# ---- overhead ---------------------------------------------------------------------------------------
# run_loop with|without LAUNCHES ARGS... -> prints the loop's own wall time (from the client's JSON
# line); with the collector, checks the exit code and that every launch (and the 100 warm-up ones)
# was recorded.
run_loop() {
    local with=$1 launches=$2
    shift 2
    local output status
    if [[ $with == with ]]; then
        output=$(timeout $CLIENT_TIMEOUT "$GAPSCOPE" record -o "$OUT/overhead-last.gapscope" -- "$CLIENT" "$@" \
            2>"$OUT/overhead-last.log")
        status=$?
        cat "$OUT/overhead-last.log" >>"$OUT/overhead.log"
        local kernels
        kernels=$(sed -n 's/^Records by kind:.* kernel \([0-9]*\).*/\1/p' "$OUT/overhead-last.log")
        if [[ $status -ne 0 ]]; then
            fail "instrumented run of '$*' exited with $status; see overhead.log"
        elif [[ $kernels != $((launches + 100)) ]]; then
            fail "instrumented run of '$*' recorded ${kernels:-no} kernels, not $((launches + 100)); see overhead.log"
        fi
        rm -f "$OUT/overhead-last.gapscope"
    else
        output=$(timeout $CLIENT_TIMEOUT "$CLIENT" "$@" 2>>"$OUT/overhead.log")
        status=$?
        [[ $status -ne 0 ]] && fail "run of '$*' exited with $status; see overhead.log"
    fi
    echo "$output" | sed -n 's/.*"seconds":\([0-9.]*\).*/\1/p' | tail -1
}

median() { sort -g | awk '{v[NR]=$1} END {if (NR==0) print ""; else if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

# measure NAME START_LAUNCHES MODE [US]: sizes the loop to last MIN_LOOP_SECONDS without the collector,
# then alternates runs without and with it.
measure() {
    local name=$1 launches=$2 mode=$3 us=${4:-}
    local args=("$mode" "$launches")
    [[ -n $us ]] && args+=("$us")
    local first
    first=$(run_loop without "$launches" "${args[@]}")
    if [[ -z $first ]]; then
        fail "overhead loop $name produced no time; see overhead.log"
        return
    fi
    if awk -v s="$first" -v m="$MIN_LOOP_SECONDS" 'BEGIN { exit !(s < m) }'; then
        launches=$(awk -v n="$launches" -v s="$first" -v m="$MIN_LOOP_SECONDS" 'BEGIN { printf "%d", n * m * 1.15 / s + 1 }')
        args=("$mode" "$launches")
        [[ -n $us ]] && args+=("$us")
    fi
    log "overhead loop $name: $launches launches (first run: $first s)"
    local base=() with=()
    for ((i = 0; i < REPEATS; i++)); do
        base+=("$(run_loop without "$launches" "${args[@]}")")
        with+=("$(run_loop with "$launches" "${args[@]}")")
    done
    local b w
    b=$(printf '%s\n' "${base[@]}" | grep -v '^$' | median)
    w=$(printf '%s\n' "${with[@]}" | grep -v '^$' | median)
    if [[ -z $b || -z $w ]]; then
        fail "overhead loop $name produced no time; see overhead.log"
        return
    fi
    awk -v name="$name" -v n="$launches" -v b="$b" -v w="$w" -v rb="${base[*]}" -v rw="${with[*]}" 'BEGIN {
        nb = split(rb, xb, " "); nw = split(rw, xw, " ")
        minb = maxb = xb[1]; for (i = 2; i <= nb; i++) { if (xb[i] < minb) minb = xb[i]; if (xb[i] > maxb) maxb = xb[i] }
        minw = maxw = xw[1]; for (i = 2; i <= nw; i++) { if (xw[i] < minw) minw = xw[i]; if (xw[i] > maxw) maxw = xw[i] }
        printf "{\"loop\":\"%s\",\"launches\":%d,\"baseline_s\":%.6f,\"collector_s\":%.6f,", name, n, b, w
        printf "\"baseline_min_s\":%.6f,\"baseline_max_s\":%.6f,\"collector_min_s\":%.6f,\"collector_max_s\":%.6f,", minb, maxb, minw, maxw
        printf "\"us_added_per_launch\":%.3f,\"percent_wall\":%.2f,", (w - b) / n * 1e6, (w - b) / b * 100
        printf "\"baseline_runs\":\"%s\",\"collector_runs\":\"%s\"}\n", rb, rw
        printf "| %s | %d | %.1f (%.1f-%.1f, spread %.1f %%) | %.1f (%.1f-%.1f, spread %.1f %%) | %.3f | %.2f %% |\n", \
            name, n, b * 1e3, minb * 1e3, maxb * 1e3, (maxb - minb) / b * 100, w * 1e3, minw * 1e3, maxw * 1e3, \
            (maxw - minw) / w * 100, (w - b) / n * 1e6, (w - b) / b * 100 > "/dev/stderr"
    }' >>"$OUT/overhead.json" 2>>"$SUMMARY"
}

log "measuring the collector's overhead ($REPEATS runs each, loops of at least $MIN_LOOP_SECONDS s)"
: >"$OUT/overhead.json"
: >"$OUT/overhead.log"
{
    echo
    echo "## Collector overhead (medians of $REPEATS alternated runs; target <= 3 % on the 20 us loop)"
    echo
    echo "| loop | launches | without (ms, min-max, spread) | with collector (ms, min-max, spread) | us added per launch | % wall time |"
    echo "|---|---|---|---|---|---|"
} >>"$SUMMARY"
measure empty-kernel "$EMPTY_LAUNCHES" empty-loop
measure 20us-kernel "$KERNEL_LAUNCHES" kernel-loop 20

[[ -e $OUT/.failed ]] && STATUS=1
{
    echo
    echo "Logs: run.log, build.log, gpu_tests.log (and gpu_tests.xml), record_shape.log, report_shape.txt, overhead.log."
    echo
    echo "Status: $([[ $STATUS -eq 0 ]] && echo passed || echo FAILED)"
} >>"$SUMMARY"
log "done (status $STATUS); figures in $SUMMARY"
cat "$SUMMARY"
exit $STATUS
