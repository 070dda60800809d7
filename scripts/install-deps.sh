#!/usr/bin/env bash
# Installs the Debian 12 packages that building and testing Capsule need.
# Leaves apt alone when all of them are installed, so it is cheap to run
# before every build; installing needs root.
set -euo pipefail

packages=(
  cmake ninja-build          # build
  clang-19 llvm-19-dev       # compiler, and LLVM for the plugin
  lld-19                     # link-time differentiation (capsule-config --lto-ldflags)
  libclang-19-dev            # clang's plugin for the attributes of custom rules
  llvm-19-tools              # lit, FileCheck, not
  libgtest-dev               # runtime unit tests
  libbenchmark-dev           # bench/
  python3 python3-psutil     # lit, and its per-test timeout
  gnuplot-nox                # plots of examples/paper-fig8/sweep.py
  libeigen3-dev              # tests of C++ code using Eigen
  libopenblas-dev            # tests and benchmark of the BLAS rules
  libomp-19-dev              # tests and benchmark of OpenMP code
  libclang-rt-19-dev         # sanitizers' runtimes (tests of -fsanitize builds)
)

installed() {
  [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = \
    "install ok installed" ]
}

missing=()
for package in "${packages[@]}"; do
  installed "$package" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run this script as root to install them" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}"
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
  "${missing[@]}"
