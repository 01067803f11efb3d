#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A stand-in for the CUDA test client in the dry run of tests/gpu/run_gpu_checks.sh on a machine without a GPU
# (GAPSCOPE_GPU_CHECK_CLIENT=tests/gpu/fake_cuda_client.sh): the loops print the client's JSON line with the time
# N launches of US microseconds would take (plus 2 % under the collector, whose environment it sees), so the
# script's overhead path runs end to end; the other modes print nothing and exit 0. It records nothing.
mode=${1:-shape}
case $mode in
  kernel-loop | empty-loop)
    n=${2:-1000}
    us=${3:-2}
    [[ $mode == empty-loop ]] && us=2
    factor=1.00
    [[ -n ${CUDA_INJECTION64_PATH:-} ]] && factor=1.02
    seconds=$(awk -v n="$n" -v us="$us" -v f="$factor" 'BEGIN { printf "%.6f", n * us * 1e-6 * f }')
    echo "{\"mode\":\"$mode\",\"launches\":$n,\"seconds\":$seconds}"
    ;;
esac
exit 0
