#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fails when a tracked C++ file differs from the project's clang-format style (.clang-format), then runs
# clang-tidy (.clang-tidy) on the lines of .cpp files changed since the base branch and fails on its findings.
# `scripts/check_format.sh --fix` rewrites the formatting instead.
# clang-tidy needs the build's compile_commands.json (GAPSCOPE_BUILD_DIR, default build/; CMake writes it) and
# compares against GAPSCOPE_TIDY_BASE (default main); without either it says so and skips; GAPSCOPE_TIDY=0 skips
# it on purpose. Only changed lines: clang-tidy takes about as long as compiling, too long for the whole tree on
# every check (a branch that changes 35 files took over 20 minutes on the shared 2-core machine).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
if ! command -v clang-format >/dev/null; then
  echo "check_format: installing clang-format" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends clang-format
fi
mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.cu')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if ((${#bad[@]})); then
  echo "check_format: ${#bad[@]} file(s) differ from .clang-format (run scripts/check_format.sh --fix):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check_format: ${#files[@]} files follow .clang-format"

BUILD_DIR="${GAPSCOPE_BUILD_DIR:-$ROOT/build}"
BASE="${GAPSCOPE_TIDY_BASE:-main}"
if [ "${GAPSCOPE_TIDY:-1}" = "0" ]; then
  echo "check_format: GAPSCOPE_TIDY=0: clang-tidy skipped"
  exit 0
fi
if ! command -v clang-tidy >/dev/null; then
  echo "check_format: clang-tidy not installed (apt-get install clang-tidy): skipped"
  exit 0
fi
if [ ! -f "$BUILD_DIR/compile_commands.json" ]; then
  echo "check_format: no $BUILD_DIR/compile_commands.json (configure a build first): clang-tidy skipped"
  exit 0
fi
if ! base=$(git merge-base HEAD "$BASE" 2>/dev/null); then
  echo "check_format: no branch '$BASE' to compare with (GAPSCOPE_TIDY_BASE): clang-tidy skipped"
  exit 0
fi
# The changed .cpp files that the build compiles (a header is checked through the .cpp files that include it).
mapfile -t changed < <(git diff --name-only --diff-filter=AMR "$base" -- '*.cpp' | while read -r f; do
  grep -q "\"file\": \"$ROOT/$f\"" "$BUILD_DIR/compile_commands.json" && echo "$f"; done)
if ((${#changed[@]} == 0)); then
  echo "check_format: no changed .cpp file since $BASE for clang-tidy"
  exit 0
fi
# Only the changed lines: the findings are the change's own, not those of the code around it (clang-tidy-diff
# passes clang-tidy a line filter; it reports nothing for lines, or headers, that the change did not touch).
TIDY_DIFF="$(command -v clang-tidy-diff || command -v clang-tidy-diff-14.py || true)"
if [ -z "$TIDY_DIFF" ]; then
  echo "check_format: clang-tidy-diff not found (it comes with clang-tidy): clang-tidy skipped"
  exit 0
fi
echo "check_format: clang-tidy on the changed lines of ${#changed[@]} file(s) since $BASE (about one compile each;" \
  "GAPSCOPE_TIDY=0 skips it)"
# -M with a pathspec that holds both names: a moved file counts only its changed lines.
regex=$(printf '%s|' "${changed[@]}" | sed 's/[.+]/\\&/g; s/|$//')
output=$(git diff -U0 -M "$base" -- '*.cpp' | "$TIDY_DIFF" -p1 -path "$BUILD_DIR" -quiet -j 2 -regex "($regex)" 2>&1 || true)
if grep -qE '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' <<<"$output"; then
  grep -E -A3 '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' <<<"$output" >&2
  echo "check_format: clang-tidy found problems in the lines changed since $BASE (${#changed[@]} file(s))" >&2
  exit 1
fi
echo "check_format: clang-tidy passed on the lines of ${#changed[@]} file(s) changed since $BASE"
