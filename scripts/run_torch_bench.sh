#!/usr/bin/env bash
# Builds and installs aclnn-cpu into build/install, then times PyTorch with and without aclnn_cpu.torch,
# paired in one run (bench/torch_override.py; --quick for 3 rounds instead of 7).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scripts/build_and_install.sh
source "$root/build/install/set_env.sh"
python=$(sed -n 's/^PYTHON_EXECUTABLE = "\(.*\)"$/\1/p' "$root/build/install/python/aclnn_cpu/_build_info.py")
exec "$python" "$root/bench/torch_override.py" "$@"
