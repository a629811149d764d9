#!/usr/bin/env bash
# The heavier suites (docs/reliability.md): the whole test suite, the examples and a short stress run under
# AddressSanitizer + UndefinedBehaviorSanitizer and under ThreadSanitizer; a longer stress run under
# ThreadSanitizer; the libFuzzer harness for a bounded time; the vector exp, the forward's loss and the log on all
# their inputs; valgrind memcheck on the examples (where this CPU lets valgrind run a program linked to Highway:
# scripts/valgrind_probe.sh).
# FUZZ_SECONDS (default 240) and STRESS_SECONDS (default 60) bound the two open-ended parts.
set -euo pipefail
cd "$(dirname "$0")/.."
EXTRA_PACKAGES="clang libclang-rt-14-dev libomp-dev valgrind" scripts/install_deps.sh
fuzz_seconds=${FUZZ_SECONDS:-240}
stress_seconds=${STRESS_SECONDS:-60}

echo "== AddressSanitizer + UndefinedBehaviorSanitizer: tests, examples, short stress"
cmake --preset asan >/dev/null
cmake --build --preset asan
ctest --preset asan

echo "== ThreadSanitizer: tests, examples, short stress"
cmake --preset tsan >/dev/null
cmake --build --preset tsan
ctest --preset tsan
echo "== ThreadSanitizer: stress for ${stress_seconds} s"
TSAN_OPTIONS="halt_on_error=1:allocator_may_return_null=1" build/tsan/tests/stress_operators --seconds "$stress_seconds" --threads 6 \
    --streams-per-thread 3

echo "== libFuzzer (ASan + UBSan) for ${fuzz_seconds} s"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
corpus=build/fuzz/corpus
rm -rf "$corpus" && mkdir -p "$corpus" && cp tests/fuzz/corpus/* "$corpus"/
ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1" \
    build/fuzz/tests/fuzz/fuzz_operators -max_total_time="$fuzz_seconds" -print_final_stats=1 -timeout=20 \
    -rss_limit_mb=4096 "$corpus" tests/fuzz/regressions 2>&1 | tail -n 25

cmake --preset release >/dev/null
cmake --build --preset release
echo "== the vector exp, the forward's loss and the log on all 2^32 fp32 inputs (and every FLOAT16/BFLOAT16 t), every SIMD target this CPU runs"
build/release/tests/exhaustive_math

echo "== valgrind memcheck: the examples"
if reason=$(scripts/valgrind_probe.sh build/release/valgrind_probe); then
    EXAMPLE_VALGRIND=1 bash tests/examples/run_examples.sh build/release "$PWD/examples" build/release/valgrind_examples
else
    echo "valgrind memcheck SKIPPED: $reason"
    echo "(ASan + UBSan above still check memory errors on this CPU)"
fi
echo "reliability suites passed"
