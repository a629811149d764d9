#!/usr/bin/env bash
# Builds aclnn-cpu with a configure preset (release by default: libraries, tests and the Python package;
# `libraries`: what a program linking the libraries needs, and nothing else) and installs it into
# build/install, a CANN-like prefix; the Debian packages it needs come first (scripts/install_deps.sh). Used by
# run_sample.sh (libraries) and run_python_installed.sh (release).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
scripts/install_deps.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
cmake --install "build/$preset" --prefix "$(pwd)/build/install" >/dev/null
