#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Shared by ./run, ./test and scripts/ci_hardening.sh: installs the Debian packages of one set (when missing) and
# configures + builds into build/.
# Usage: scripts/setup.sh [--set run|test|hardening] [--install-only] [ninja targets...]
#   --set run        what the viewer and the command line need (./run): compiler, CMake, Qt 6, zlib, SQLite, JSON
#   --set test       run's, plus GoogleTest, Google Benchmark and Open MPI (./test; the default)
#   --set hardening  test's, plus clang and LLVM 14 for the sanitizer and fuzz builds (scripts/ci_hardening.sh)
#   --install-only   install the packages and stop (scripts/ci_hardening.sh builds elsewhere)
#   --configure-only install, configure build/ and stop
#   --print-packages print the packages of the set, one a line, and stop (installs nothing)
# Without targets it builds everything; the run set never configures the tests without GoogleTest installed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${GAPSCOPE_BUILD_DIR:-$ROOT/build}"

SET=test
INSTALL_ONLY=""
CONFIGURE_ONLY=""
PRINT_ONLY=""
while [ $# -gt 0 ]; do
  case "$1" in
    --set) SET="${2:-}"; shift 2 ;;
    --install-only) INSTALL_ONLY=1; shift ;;
    --configure-only) CONFIGURE_ONLY=1; shift ;;
    --print-packages) PRINT_ONLY=1; shift ;;
    *) break ;;
  esac
done

RUN_PACKAGES=(
  g++ cmake ninja-build pkg-config
  qt6-base-dev libgl-dev fonts-dejavu-core
  nlohmann-json3-dev zlib1g-dev libsqlite3-dev libcli11-dev
)
TEST_PACKAGES=(libgtest-dev libgmock-dev libbenchmark-dev libopenmpi-dev openmpi-bin)
HARDENING_PACKAGES=(clang libclang-rt-14-dev llvm-14)
case "$SET" in
  run) PACKAGES=("${RUN_PACKAGES[@]}") ;;
  test) PACKAGES=("${RUN_PACKAGES[@]}" "${TEST_PACKAGES[@]}") ;;
  hardening) PACKAGES=("${RUN_PACKAGES[@]}" "${TEST_PACKAGES[@]}" "${HARDENING_PACKAGES[@]}") ;;
  *) echo "GapScope: scripts/setup.sh --set run|test|hardening (not '$SET')" >&2; exit 2 ;;
esac

if [ -n "$PRINT_ONLY" ]; then
  printf '%s\n' "${PACKAGES[@]}"
  exit 0
fi

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

missing=()
for p in "${PACKAGES[@]}"; do
  installed "$p" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "GapScope: installing missing packages: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "GapScope: need root (or sudo) to apt-get install: ${missing[*]}" >&2; exit 1; }
    SUDO="sudo"
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ -n "$INSTALL_ONLY" ]; then
  exit 0
fi

if [ -x /usr/local/cuda/bin/nvcc ] || [ -d /usr/local/cuda/lib64 ]; then
  export CUDAToolkit_ROOT="${CUDAToolkit_ROOT:-/usr/local/cuda}"
fi

# The tests need GoogleTest: configured when it is there (always for the test sets, which install it).
TESTS=OFF
if [ "$SET" != run ] || installed libgtest-dev; then TESTS=ON; fi
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGAPSCOPE_BUILD_TESTS="$TESTS" >/dev/null
elif [ "$TESTS" = ON ] && grep -q '^GAPSCOPE_BUILD_TESTS:BOOL=OFF' "$BUILD_DIR/CMakeCache.txt" 2>/dev/null; then
  # ./run configured this folder before the test packages were installed.
  cmake -S "$ROOT" -B "$BUILD_DIR" -DGAPSCOPE_BUILD_TESTS=ON >/dev/null
fi
if [ -n "$CONFIGURE_ONLY" ]; then
  exit 0
fi
JOBS="${GAPSCOPE_JOBS:-$(nproc)}"
if [ $# -gt 0 ]; then
  cmake --build "$BUILD_DIR" -j "$JOBS" --target "$@"
else
  cmake --build "$BUILD_DIR" -j "$JOBS"
fi
