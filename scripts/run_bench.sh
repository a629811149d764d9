#!/usr/bin/env bash
# Builds the benchmark (Release, no -march: Highway picks the SIMD target at run time) and runs it.
# It prints Google Benchmark's table, then the table of ratios that the targets of docs/contract.md section 5
# are stated in.
# Extra arguments go to the benchmark (e.g. --benchmark_filter=op/f32). ACLNN_BENCH_QUICK=1 runs only 16M.
set -euo pipefail
cd "$(dirname "$0")/.."
EXTRA_PACKAGES="libbenchmark-dev" scripts/install_deps.sh
# The release tree with the benchmark switched on (kept in its cache): the library's objects are the ones the
# test command built, so only the benchmark compiles after it.
cmake --preset release -DACLNN_CPU_BUILD_BENCHMARKS=ON >/dev/null
cmake --build --preset release --target bench_operators
exec build/release/bench/bench_operators --benchmark_color=false "$@"
