#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The collector's GPU checks in one call, on a GPU machine that has CUDA 13 (nvcc, CUPTI), CMake, python3 with
# PyTorch -- and nothing else of ours: no GoogleTest, nlohmann-json, SQLite or Qt development packages. It records;
# tests/gpu/check_gpu_results.sh asserts, on the development machine, on what comes back (tests/gpu/README.md).
#
#   tests/gpu/run_gpu_checks.sh [--configure-only] [OUTDIR]    OUTDIR defaults to $OUT
#
#  1. the machine: nvidia-smi, nvcc, python3/torch versions (env.txt);
#  2. configures GAPSCOPE_COLLECTOR_ONLY=ON (capture/inject and the CUDA test client only) and checks that the
#     configure log says CUPTI was found; builds gapscope_inject and gapscope_cuda_client (nvcc, sm_80 + sm_90).
#     --configure-only stops here (no GPU needed);
#  3. records with the collector's environment variables alone (CUDA_INJECTION64_PATH, NVTX_INJECTION64_PATH,
#     GAPSCOPE_OUTPUT_DIR, GAPSCOPE_KINDS), one folder of per-process .gapscope files per run: the CUDA client's
#     shape (all kinds, kernels only, without driver records), graph, threads, fork, a 1,000-kernel loop, and the
#     NVTX-first order (the shape client names a range before it touches CUDA);
#  4. the overhead: 20 us kernels and empty kernels, each loop sized to ~1.5 s, REPEATS (5) alternated runs without
#     and with the collector (overhead.json: every run's seconds; the last instrumented run's capture is kept);
#  5. a small PyTorch training step (torch_step.py) recorded by GapScope, traced by torch.profiler to Chrome JSON,
#     and recorded by GapScope while torch.profiler is active (the second CUPTI client).
#
# Bounded: the whole script stops itself by DEADLINE_S (default 450 s, under the device call's 8 minutes): every
# step runs under `timeout` of at most what is left, a watchdog ends what still runs, and whatever happened is
# still written. Under OUTDIR it leaves 4 files, none in a folder: summary.md, run.log, gpu-results.tar.gz (every
# run's folder, logs, overhead.json, env.txt, configure and build logs) and torch_profiler.json.gz (the Kineto
# trace). Exit status 0 when every step ran and exited 0; the verdict on the figures is check_gpu_results.sh's.
# Environment: DEADLINE_S (450), REPEATS (5), JOBS (nproc), CUDA_HOME (/usr/local/cuda), PYTHON (python3),
# WORK_DIR (a temporary folder; the build and the results before packing); for dry runs without a GPU,
# GAPSCOPE_GPU_CHECK_CLIENT (tests/gpu/fake_cuda_client.sh) stands in for the CUDA client.
set -u -o pipefail

CONFIGURE_ONLY=0
if [[ ${1:-} == --configure-only ]]; then
    CONFIGURE_ONLY=1
    shift
fi
OUTDIR=${1:-${OUT:-}}
if [[ -z $OUTDIR ]]; then
    echo "usage: $0 [--configure-only] [OUTDIR]   (OUTDIR defaults to \$OUT)" >&2
    exit 2
fi
OUTDIR=$(mkdir -p "$OUTDIR" && cd "$OUTDIR" && pwd)
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DEADLINE_S=${DEADLINE_S:-450}
REPEATS=${REPEATS:-5}
JOBS=${JOBS:-$(nproc)}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
PYTHON=${PYTHON:-python3}
WORK=${WORK_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/gapscope-gpu-XXXXXX")}
RESULTS=$WORK/gpu-results
BUILD=$WORK/build
rm -rf "$RESULTS" # a WORK_DIR used before keeps its build, not its results
mkdir -p "$RESULTS"
STARTED=$SECONDS
FAILURES=0
: >"$OUTDIR/run.log"

log() { echo "[$(date +%H:%M:%S) +$((SECONDS - STARTED))s] $*" | tee -a "$OUTDIR/run.log" >&2; }
step_result() { echo "| $1 | $2 | $3 |" >>"$RESULTS/steps.md"; } # name, status, detail
fail() {
    FAILURES=$((FAILURES + 1))
    log "FAILED: $*"
}
left() { echo $((DEADLINE_S - (SECONDS - STARTED))); }
# bounded SECONDS CMD...: runs CMD under timeout of at most SECONDS and of what is left before the deadline
# (15 s are kept for packing); returns 124 without running it when too little is left.
bounded() {
    local limit=$1
    shift
    local remaining=$(($(left) - 15))
    ((remaining < limit)) && limit=$remaining
    if ((limit < 5)); then
        log "skipped (deadline): $*"
        return 124
    fi
    timeout -k 5 "$limit" "$@"
}

PACKED=0
pack() {
    ((PACKED)) && return
    PACKED=1
    log "packing the results ($((SECONDS - STARTED)) s used of $DEADLINE_S)"
    {
        echo "# GapScope GPU checks"
        echo
        echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ); commit $(git -C "$SOURCE" rev-parse --short HEAD 2>/dev/null || echo unknown)"
        echo "- GPU: $(head -1 "$RESULTS/gpu.txt" 2>/dev/null || echo none)"
        echo "- $(grep -m1 '^nvcc:' "$RESULTS/env.txt" 2>/dev/null || echo 'nvcc: ?')"
        echo "- $(grep -m1 '^torch:' "$RESULTS/env.txt" 2>/dev/null || echo 'torch: ?')"
        echo "- wall time: $((SECONDS - STARTED)) s of a $DEADLINE_S s deadline; $FAILURES failed step(s)"
        echo
        echo "| step | status | detail |"
        echo "|---|---|---|"
        cat "$RESULTS/steps.md" 2>/dev/null
        if [[ -s $RESULTS/overhead.md ]]; then
            echo
            echo "## Overhead (medians of $REPEATS alternated runs; every run in gpu-results/overhead.json)"
            echo
            echo "| loop | launches | without (ms, min-max) | with collector (ms, min-max) | us added per launch | % wall |"
            echo "|---|---|---|---|---|---|"
            cat "$RESULTS/overhead.md"
        fi
        echo
        echo "Verdicts: tests/gpu/check_gpu_results.sh on the development machine."
    } >"$OUTDIR/summary.md"
    cp "$OUTDIR/run.log" "$RESULTS/run.log" 2>/dev/null
    [[ -s $RESULTS/torch-profiler/trace.json ]] && gzip -c "$RESULTS/torch-profiler/trace.json" >"$OUTDIR/torch_profiler.json.gz"
    rm -f "$RESULTS/torch-profiler/trace.json" # it comes back once, compressed
    tar -C "$WORK" -czf "$OUTDIR/gpu-results.tar.gz" gpu-results 2>>"$OUTDIR/run.log"
    [[ -z ${WORK_DIR:-} ]] && rm -rf "$WORK"
}
# The watchdog: at the deadline, TERM to this script (which packs and exits) and to what it runs.
# (bash runs a trap only once the foreground command ended: the watchdog also stops this script's children.)
# Its own sleep is ended with it, so that nothing of this script outlives it.
(
    trap 'kill $sleeper 2>/dev/null; exit 0' TERM
    sleep "$DEADLINE_S" &
    sleeper=$!
    wait $sleeper
    kill -TERM $$ 2>/dev/null
    sleep 1
    pkill -TERM -P $$ 2>/dev/null
) &
WATCHDOG=$!
on_term() {
    log "deadline ($DEADLINE_S s) reached: stopping"
    FAILURES=$((FAILURES + 1))
    step_result deadline FAILED "the script was stopped at $DEADLINE_S s"
    pack
    exit 124
}
trap on_term TERM
trap 'pack; kill $WATCHDOG 2>/dev/null' EXIT

# ---- 1. the machine ---------------------------------------------------------------------------------------------
{
    echo "nvcc: $("$CUDA_HOME/bin/nvcc" --version 2>/dev/null | tail -1)"
    echo "cmake: $(cmake --version 2>/dev/null | head -1)"
    echo "torch: $(bounded 60 "$PYTHON" -c 'import torch; print(torch.__version__, "cuda", torch.version.cuda, "available", torch.cuda.is_available())' 2>&1 | tail -1)"
    echo "host: $(uname -srm); $(nproc) cores"
} >"$RESULTS/env.txt"
if ((!CONFIGURE_ONLY)); then
    if ! bounded 30 nvidia-smi >"$RESULTS/nvidia-smi.txt" 2>&1; then
        log "no usable NVIDIA GPU (nvidia-smi failed)"
        step_result machine FAILED "nvidia-smi failed: see gpu-results/nvidia-smi.txt"
        exit 3
    fi
    bounded 30 nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv,noheader \
        >"$RESULTS/gpu.txt" 2>&1
    step_result machine ok "$(head -1 "$RESULTS/gpu.txt")"
fi
if [[ ! -x $CUDA_HOME/bin/nvcc ]]; then
    step_result machine FAILED "no nvcc under CUDA_HOME=$CUDA_HOME"
    exit 4
fi

# ---- 2. the collector and the CUDA client -----------------------------------------------------------------------
log "configuring GAPSCOPE_COLLECTOR_ONLY=ON in $BUILD"
GENERATOR=()
command -v ninja >/dev/null && GENERATOR=(-G Ninja)
if ! bounded 120 cmake -S "$SOURCE" -B "$BUILD" "${GENERATOR[@]}" -DCMAKE_BUILD_TYPE=Release -DGAPSCOPE_COLLECTOR_ONLY=ON \
    -DGAPSCOPE_BUILD_TESTS=OFF -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" -DCUDAToolkit_ROOT="$CUDA_HOME" \
    >"$RESULTS/configure.log" 2>&1; then
    step_result configure FAILED "see gpu-results/configure.log"
    exit 5
fi
if ! grep -q "with CUPTI found: building the collector only" "$RESULTS/configure.log" ||
    ! grep -q "building the CUDA test client" "$RESULTS/configure.log"; then
    step_result configure FAILED "the configure log does not say CUPTI and nvcc were found"
    exit 5
fi
step_result configure ok "$(grep -m1 -o 'CUDA [0-9.]* with CUPTI found' "$RESULTS/configure.log")"
log "building gapscope_inject and gapscope_cuda_client"
BUILD_STATUS=0
bounded 300 cmake --build "$BUILD" -j "$JOBS" --target gapscope_inject gapscope_cuda_client >"$RESULTS/build.log" 2>&1 ||
    BUILD_STATUS=$?
if ((BUILD_STATUS != 0)); then
    step_result build FAILED "$( ((BUILD_STATUS == 124)) && echo 'stopped at the deadline; ')see gpu-results/build.log"
    exit 6
fi
INJECT=$BUILD/capture/libgapscope_inject.so
CLIENT=${GAPSCOPE_GPU_CHECK_CLIENT:-$BUILD/tests/clients/gapscope_cuda_client} # a stand-in for dry runs only
step_result build ok "gapscope_inject, gapscope_cuda_client in $((SECONDS - STARTED)) s"
if ((CONFIGURE_ONLY)); then
    step_result runs skipped "--configure-only"
    exit 0
fi

# ---- 3. recordings ------------------------------------------------------------------------------------------------
# record NAME KINDS LIMIT CMD...: runs CMD with the collector's environment, its files in RESULTS/NAME.
record() {
    local name=$1 kinds=$2 limit=$3
    shift 3
    local dir=$RESULTS/$name
    mkdir -p "$dir"
    local status=0
    CUDA_INJECTION64_PATH=$INJECT NVTX_INJECTION64_PATH=$INJECT GAPSCOPE_OUTPUT_DIR=$dir GAPSCOPE_KINDS=$kinds \
        bounded "$limit" "$@" >"$dir/stdout.txt" 2>"$dir/stderr.txt" || status=$?
    echo "$status" >"$dir/exit_status"
    echo "$*" >"$dir/command"
    if ((status != 0)); then
        fail "$name exited $status"
        step_result "$name" FAILED "exit $status$( ((status == 124)) && echo ' (timeout or deadline)'): $(tail -1 "$dir/stderr.txt")"
    else
        step_result "$name" ok "$(ls "$dir" | grep -c '\.gapscope$') file(s), $(du -sk "$dir" | cut -f1) KB"
    fi
    return $status
}
ALL=255
log "recording the CUDA client"
record shape $ALL 60 "$CLIENT" shape
record shape-kernels 1 60 "$CLIENT" shape
record shape-nodriver $((ALL & ~32)) 60 "$CLIENT" shape
record graph $ALL 60 "$CLIENT" graph
record threads $ALL 60 "$CLIENT" threads
record fork $ALL 60 "$CLIENT" fork
record loop $ALL 60 "$CLIENT" kernel-loop 1000 20

# ---- 4. overhead ---------------------------------------------------------------------------------------------------
# loop_seconds STDOUT_FILE -> the loop's own wall time from the client's JSON line.
loop_seconds() { sed -n 's/.*"seconds":\([0-9.]*\).*/\1/p' "$1" | tail -1; }
# measure NAME MODE START_LAUNCHES [US]
measure() {
    local name=$1 mode=$2 launches=$3 us=${4:-}
    local tmp=$WORK/overhead-$name
    mkdir -p "$tmp"
    bounded 60 "$CLIENT" "$mode" "$launches" $us >"$tmp/calibrate.txt" 2>&1
    local first
    first=$(loop_seconds "$tmp/calibrate.txt")
    if [[ -z $first ]]; then
        fail "overhead $name: the calibration run printed no time"
        step_result "overhead $name" FAILED "calibration: $(tail -1 "$tmp/calibrate.txt")"
        return
    fi
    launches=$(awk -v n="$launches" -v s="$first" 'BEGIN { printf "%d", n * 1.5 / s + 1 }')
    log "overhead $name: $launches launches per run ($REPEATS alternated runs each way)"
    local base=() with=() i s
    for ((i = 0; i < REPEATS; i++)); do
        bounded 60 "$CLIENT" "$mode" "$launches" $us >"$tmp/base.txt" 2>>"$RESULTS/overhead.log"
        s=$(loop_seconds "$tmp/base.txt")
        [[ -n $s ]] && base+=("$s")
        rm -rf "$RESULTS/overhead-$name"
        if record "overhead-$name" $ALL 60 "$CLIENT" "$mode" "$launches" $us >/dev/null; then
            s=$(loop_seconds "$RESULTS/overhead-$name/stdout.txt")
            [[ -n $s ]] && with+=("$s")
        fi
    done
    # The 20 us loop's last capture comes back (its kernel count is checked there); the empty loop's is
    # tens of MB (half a million launches), over what the device call returns.
    [[ $name == empty-kernel ]] && rm -f "$RESULTS/overhead-$name"/*.gapscope
    sed -i '/^| overhead-/d' "$RESULTS/steps.md" # one line per loop, below
    printf '{"loop":"%s","launches":%d,"baseline_runs":[%s],"collector_runs":[%s]}\n' "$name" "$launches" \
        "$(IFS=,; echo "${base[*]}")" "$(IFS=,; echo "${with[*]}")" >>"$RESULTS/overhead.json"
    if ((${#base[@]} == 0 || ${#with[@]} == 0)); then
        fail "overhead $name: no complete pair of runs"
        step_result "overhead $name" FAILED "${#base[@]} runs without, ${#with[@]} with"
        return
    fi
    # Sorted by sort(1), not awk's asort (gawk only; Debian's awk is mawk).
    printf '%s\n' "${base[@]}" | sort -g >"$tmp/b"
    printf '%s\n' "${with[@]}" | sort -g >"$tmp/w"
    awk -v name="$name" -v n="$launches" 'function med(a, k) { return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
        FNR == 1 { f++ } f == 1 { b[++nb] = $1 } f == 2 { w[++nw] = $1 }
        END { mb = med(b, nb); mw = med(w, nw)
              printf "| %s | %d | %.1f (%.1f-%.1f) | %.1f (%.1f-%.1f) | %.3f | %.2f %% |\n", name, n, mb * 1e3, b[1] * 1e3,
                  b[nb] * 1e3, mw * 1e3, w[1] * 1e3, w[nw] * 1e3, (mw - mb) / n * 1e6, (mw - mb) / mb * 100 }' \
        "$tmp/b" "$tmp/w" >>"$RESULTS/overhead.md"
    step_result "overhead $name" ok "$(tail -1 "$RESULTS/overhead.md" | cut -d'|' -f4-7 | tr -s ' ')"
}
: >"$RESULTS/overhead.json"
measure 20us-kernel kernel-loop 20000 20
measure empty-kernel empty-loop 100000

# ---- 5. PyTorch ------------------------------------------------------------------------------------------------------
if grep -q "available True" "$RESULTS/env.txt"; then
    log "PyTorch: recorded by GapScope, traced by torch.profiler, and both at once"
    record torch-gapscope $ALL 120 "$PYTHON" "$SOURCE/tests/gpu/torch_step.py" gapscope
    mkdir -p "$RESULTS/torch-profiler"
    if bounded 120 "$PYTHON" "$SOURCE/tests/gpu/torch_step.py" profiler "$RESULTS/torch-profiler/trace.json" \
        >"$RESULTS/torch-profiler/stdout.txt" 2>"$RESULTS/torch-profiler/stderr.txt"; then
        step_result torch-profiler ok "$(du -k "$RESULTS/torch-profiler/trace.json" | cut -f1) KB of Chrome JSON"
    else
        fail "torch-profiler"
        step_result torch-profiler FAILED "$(tail -1 "$RESULTS/torch-profiler/stderr.txt")"
    fi
    record torch-both $ALL 120 "$PYTHON" "$SOURCE/tests/gpu/torch_step.py" both "$RESULTS/torch-both-profiler.json"
    gzip -f "$RESULTS/torch-both-profiler.json" 2>/dev/null
else
    fail "PyTorch with CUDA is not available: $(grep '^torch:' "$RESULTS/env.txt")"
    step_result torch FAILED "$(grep '^torch:' "$RESULTS/env.txt")"
fi

log "done: $FAILURES failed step(s)"
((FAILURES == 0))
