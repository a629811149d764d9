#!/usr/bin/env bash
# Builds and installs aclnn-cpu into build/install, then runs a Python script (path relative to the
# repository) against the installed package, with the interpreter the package was built for (configure chose
# one that can import numpy). Used by run_torch_example.sh and run_torch_bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
script=$1
shift
scripts/build_and_install.sh
source "$root/build/install/set_env.sh"
python=$(sed -n 's/^PYTHON_EXECUTABLE = "\(.*\)"$/\1/p' "$root/build/install/python/aclnn_cpu/_build_info.py")
exec "$python" "$root/$script" "$@"
