#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test suite (lit: IR,
# end-to-end, runtime unit and tools tests). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
scripts/build.sh
cmake --build "${CAPSULE_BUILD_DIR:-build}" --target check
