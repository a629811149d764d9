# Debian's CMake does not search <prefix>/lib64 for packages, so this file in <prefix>/share/cmake/aclnn_cpu
# lets find_package(aclnn_cpu) with CMAKE_PREFIX_PATH=<prefix> find the real one in <prefix>/lib64/cmake/.
include("${CMAKE_CURRENT_LIST_DIR}/../../../lib64/cmake/aclnn_cpu/aclnn_cpuConfig.cmake")
