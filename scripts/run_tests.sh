#!/usr/bin/env bash
# Builds aclnn-cpu (Release) and runs the whole test suite with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
cmake --preset release
cmake --build --preset release
ctest --preset release
