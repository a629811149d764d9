#!/usr/bin/env bash
# Builds and installs aclnn-cpu into build/install, then runs the PyTorch example: nn.SoftMarginLoss under
# DistributedDataParallel (gloo, two processes on 127.0.0.1) with CANN's arithmetic in every rank, checked
# against one process training on the whole batch. Exit status 0 when the parameters agree.
exec "$(dirname "$0")/run_python_installed.sh" examples/torch_ddp/train_ddp.py "$@"
