#!/usr/bin/env bash
# Builds and installs aclnn-cpu into build/install, then times PyTorch with and without aclnn_cpu.torch,
# paired in one run (bench/torch_override.py; --quick for 3 rounds instead of 7).
exec "$(dirname "$0")/run_python_installed.sh" bench/torch_override.py "$@"
