#!/bin/sh
# SPDX-License-Identifier: MIT
# `gapscope job --mpi` under mpirun (4 MPI ranks) against the one-machine `gapscope job` on the same traces:
# the text report, the JSON report and every written summary must be the same, byte for byte.
# Usage: job_mpi_compare.sh GAPSCOPE MPIEXEC TRACE_DIR WORK_DIR
set -eu
gapscope=$1 mpiexec=$2 traces=$3 work=$4
# Only what this script writes is removed, never the folder itself.
mkdir -p "$work"
rm -rf "$work/one" "$work/mpi" "$work/one.txt" "$work/mpi.txt" "$work/one.json" "$work/mpi.json"
run_mpi() {
  "$mpiexec" --allow-run-as-root --oversubscribe -n 4 "$gapscope" job --mpi "$@"
}
"$gapscope" job -o "$work/one" "$traces" > "$work/one.txt"
run_mpi -o "$work/mpi" "$traces" > "$work/mpi.txt"
"$gapscope" job --json "$traces" > "$work/one.json"
run_mpi --json "$traces" > "$work/mpi.json"
cmp "$work/one.txt" "$work/mpi.txt"
cmp "$work/one.json" "$work/mpi.json"
diff -r "$work/one" "$work/mpi"
grep -q "straggler    rank 7" "$work/mpi.txt"
echo "job --mpi on 4 MPI ranks: the same report and summaries as the one-machine run ($(wc -c < "$work/one.json") bytes of JSON)"
