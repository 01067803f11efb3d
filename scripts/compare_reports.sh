#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs two gapscope binaries over every trace under a folder and compares their `report` and `report --json`
# outputs (stdout, stderr and exit code) byte for byte, for the windows gpu, trace and steps: the check that a
# refactoring changed no figure. Prints each difference and "N of M compared equal"; exits 1 when any differ.
#
#   scripts/compare_reports.sh BEFORE_BINARY AFTER_BINARY [TRACE_FOLDER (default tests/data)]
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 BEFORE_BINARY AFTER_BINARY [TRACE_FOLDER]" >&2
    exit 2
fi
before=$1
after=$2
folder=${3:-$(dirname "$0")/../tests/data}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

equal=0
total=0
while IFS= read -r trace; do
    for format in text json; do
        for window in gpu trace steps; do
            args=(report --window "$window")
            [ "$format" = json ] && args+=(--json)
            args+=("$trace")
            for side in before after; do
                binary=$before
                [ "$side" = after ] && binary=$after
                "$binary" "${args[@]}" > "$work/$side.out" 2> "$work/$side.err"
                echo "exit $?" >> "$work/$side.err"
            done
            total=$((total + 1))
            if cmp -s "$work/before.out" "$work/after.out" && cmp -s "$work/before.err" "$work/after.err"; then
                equal=$((equal + 1))
            else
                echo "DIFFERS: gapscope ${args[*]}"
                diff "$work/before.out" "$work/after.out" | head -5
                diff "$work/before.err" "$work/after.err" | head -5
            fi
        done
    done
done < <(find "$folder" -type f \( -name '*.json' -o -name '*.json.gz' -o -name '*.gapscope' -o -name '*.sqlite' \) \
    ! -name '*.gapscope.json' ! -name '*.summary.json' | sort)
echo "$equal of $total compared equal"
[ "$equal" -eq "$total" ]
