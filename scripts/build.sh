#!/usr/bin/env bash
# Configures the build directory if it is not configured yet, then builds
# everything. The directory is build/ unless CAPSULE_BUILD_DIR names another.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${CAPSULE_BUILD_DIR:-build}
if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S . -B "$build_dir" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-19 \
    -DCMAKE_CXX_COMPILER=clang++-19 \
    -DLLVM_DIR=/usr/lib/llvm-19/lib/cmake/llvm
fi
cmake --build "$build_dir" -j "$(nproc)"
