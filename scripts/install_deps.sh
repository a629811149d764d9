#!/usr/bin/env bash
# Installs the Debian 12 packages aclnn-cpu needs to build and test, when any is missing.
# As root it runs apt-get itself; otherwise it prints the command to run and fails.
set -euo pipefail
# dash and zsh: the tests source set_env.sh from every shell it supports.
# The Python package: pybind11, the DLPack header, numpy, and libtorch-dev for its PyTorch kernels; its tests:
# pytest, PyTorch, and matplotlib for compare reports (optional for the package itself: without it only
# --report is unavailable).
packages=(cmake ninja-build g++ make pkgconf libgtest-dev libhwy-dev dash zsh
          python3-dev pybind11-dev libdlpack-dev python3-numpy python3-pytest python3-torch libtorch-dev
          python3-matplotlib
          ${EXTRA_PACKAGES:-})
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0
if [[ $(id -u) -ne 0 ]]; then
    echo "aclnn-cpu needs these Debian packages: ${missing[*]}" >&2
    echo "install them with: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
echo "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
