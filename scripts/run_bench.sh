#!/usr/bin/env bash
# Builds the benchmark (Release, no -march: Highway picks the SIMD target at run time) and runs it.
# It prints Google Benchmark's table, then the table of ratios that the targets of docs/contract.md section 5
# are stated in.
# Extra arguments go to the benchmark (e.g. --benchmark_filter=op/f32). ACLNN_BENCH_QUICK=1 runs only 16M.
set -euo pipefail
cd "$(dirname "$0")/.."
EXTRA_PACKAGES="libbenchmark-dev" scripts/install_deps.sh
cmake --preset bench >/dev/null
cmake --build --preset bench
exec build/bench/bench/bench_operators --benchmark_color=false "$@"
