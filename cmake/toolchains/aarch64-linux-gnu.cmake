# Cross-builds aclnn-cpu for aarch64 Linux (Kunpeng and other Arm servers) on a Debian x86-64 host, with
# Debian's cross compiler (g++-aarch64-linux-gnu) and the arm64 multiarch packages (libhwy-dev:arm64,
# libgtest-dev:arm64, libgomp1:arm64, libbenchmark-dev:arm64; scripts/run_tests_aarch64.sh installs them).
# ctest then runs every test under qemu-user (Debian's qemu-user): the CPU model comes from QEMU_CPU
# (neoverse-n1, "max,sve128=on", ...; qemu's default is "max"). qemu is given no -L: it then uses Debian's
# multiarch loader (/lib/ld-linux-aarch64.so.1 from libc6:arm64); the cross toolchain's own libc under
# /usr/aarch64-linux-gnu makes threaded programs hang at their first thread.
#
#   cmake -S . -B build/aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
#
# The Python package is left out of a cross build (pybind11 would need the target's Python); build it
# natively on an Arm host.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Debian's multiarch layout: the arm64 libraries and their CMake packages live in /usr/lib/aarch64-linux-gnu,
# beside the host's; the headers in /usr/include are shared.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
find_program(ACLNN_CPU_QEMU_AARCH64 qemu-aarch64)
if(ACLNN_CPU_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${ACLNN_CPU_QEMU_AARCH64})
endif()
