#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Shared by ./run and ./test: installs the Debian packages GapScope needs (when missing) and
# configures + builds into build/. Usage: scripts/setup.sh [ninja targets...]
# `scripts/setup.sh --install-only` installs the packages and stops (scripts/ci_hardening.sh builds elsewhere).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${GAPSCOPE_BUILD_DIR:-$ROOT/build}"

PACKAGES=(
  g++ cmake ninja-build pkg-config
  qt6-base-dev libgl-dev fonts-dejavu-core
  nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev zlib1g-dev libsqlite3-dev
  libopenmpi-dev openmpi-bin
  clang libclang-rt-14-dev llvm-14
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
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

if [ "${1:-}" = "--install-only" ]; then
  exit 0
fi

if [ -x /usr/local/cuda/bin/nvcc ] || [ -d /usr/local/cuda/lib64 ]; then
  export CUDAToolkit_ROOT="${CUDAToolkit_ROOT:-/usr/local/cuda}"
fi

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
JOBS="${GAPSCOPE_JOBS:-$(nproc)}"
if [ $# -gt 0 ]; then
  cmake --build "$BUILD_DIR" -j "$JOBS" --target "$@"
else
  cmake --build "$BUILD_DIR" -j "$JOBS"
fi
