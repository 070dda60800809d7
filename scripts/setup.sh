#!/usr/bin/env bash
# Sets Capsule up on a fresh Debian 12 machine (run as root): installs what
# is missing, builds build/, and runs the main example.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
scripts/build.sh

example=${CAPSULE_BUILD_DIR:-build}/bin/capsule-rotation-example
if [ -x "$example" ]; then
  "$example"
else
  echo "setup: built; the main example ($example) does not exist yet"
fi
