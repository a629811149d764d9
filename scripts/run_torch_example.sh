#!/usr/bin/env bash
# Builds and installs aclnn-cpu into build/install, then runs the PyTorch example: nn.SoftMarginLoss under
# DistributedDataParallel (gloo, two processes on 127.0.0.1) with CANN's arithmetic in every rank, checked
# against one process training on the whole batch. Exit status 0 when the parameters agree.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scripts/build_and_install.sh
source "$root/build/install/set_env.sh"
# The interpreter the package was built for (configure chose one that has numpy; see README, Troubleshooting).
python=$(sed -n 's/^PYTHON_EXECUTABLE = "\(.*\)"$/\1/p' "$root/build/install/python/aclnn_cpu/_build_info.py")
exec "$python" "$root/examples/torch_ddp/train_ddp.py" "$@"
