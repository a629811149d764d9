#!/usr/bin/env bash
# Builds aclnn-cpu (the release preset) and installs it into build/install, a CANN-like prefix; the Debian
# packages it needs come first (scripts/install_deps.sh). Used by run_sample.sh and run_torch_example.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
cmake --install build/release --prefix "$(pwd)/build/install" >/dev/null
