#!/usr/bin/env bash
# Builds the libraries alone (the libraries preset: no tests, no Python package) and installs them into
# build/install (a CANN-like prefix), then builds and runs CANN's documented aclnnSoftMarginLossBackward sample
# the way CANN's documentation does:
#   source <prefix>/set_env.sh; cmake ../ -DCMAKE_CXX_COMPILER=g++ -DCMAKE_SKIP_RPATH=TRUE; make; ./bin/opapi_test
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scripts/build_and_install.sh libraries
rm -rf build/sample && mkdir -p build/sample && cd build/sample
source "$root/build/install/set_env.sh"
export ASCEND_CUSTOM_PATH="$ASCEND_HOME_PATH"
cmake "$root/examples/soft_margin_loss_backward" -DCMAKE_CXX_COMPILER=g++ -DCMAKE_SKIP_RPATH=TRUE >/dev/null
make >/dev/null
cd bin
./opapi_test
