#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Lists the translation units of a build whose preprocessing reaches a header, and counts them: what a header
# costs the build (every unit that reaches it compiles it). Each entry of compile_commands.json is run with -M
# (dependencies only, no compilation), two at a time.
#
#   scripts/units_including.sh HEADER_PATH_PART [BUILD_DIR (default build)]
#   scripts/units_including.sh QtConcurrent/qtconcurrentrun.h
set -euo pipefail
if [ $# -lt 1 ]; then
    echo "usage: $0 HEADER_PATH_PART [BUILD_DIR]" >&2
    exit 2
fi
export NEEDLE=$1
BUILD=${2:-build}
python3 - "$BUILD/compile_commands.json" <<'PY'
import json, os, shlex, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

needle = os.environ["NEEDLE"]
entries = [e for e in json.load(open(sys.argv[1])) if e["file"].endswith(".cpp")]

def reaches(entry):
    args = shlex.split(entry["command"])
    if "ccache" in os.path.basename(args[0]):
        args = args[1:]
    command, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
        elif arg not in ("-c", "-MD", "-MMD"):
            command.append(arg)
    result = subprocess.run(["nice", "-n", "15"] + command + ["-M"], cwd=entry["directory"], capture_output=True,
        text=True)
    return entry["file"], needle in result.stdout, result.returncode == 0

with ThreadPoolExecutor(2) as pool:
    results = list(pool.map(reaches, entries))
root = os.path.commonpath([os.getcwd()])
for file, hit, _ in sorted(results):
    if hit:
        print(os.path.relpath(file, root))
failed = sum(1 for _, _, ok in results if not ok)
print(f"{sum(1 for _, hit, _ in results if hit)} of {len(results)} translation units reach {needle}"
      + (f"; {failed} could not be preprocessed" if failed else ""))
PY
