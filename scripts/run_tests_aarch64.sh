#!/usr/bin/env bash
# Cross-builds aclnn-cpu for aarch64 (the libraries, tests, examples and benchmark, with Debian's
# g++-aarch64-linux-gnu and the arm64 multiarch packages) and runs the whole ctest suite under qemu-user on
# three CPU models: neoverse-n1 (NEON: the Kunpeng 920 class), max with 128-bit SVE (SVE2 at 128 bits) and
# max with 512-bit SVE. On each it first checks which Highway targets the kernels dispatch to, so a silent
# fall-back to NEON or to scalar code fails, and that every target gives x86's digest; the numeric tests then run
# each target once over the three models. Emulated timings mean nothing; the benchmark runs once as a smoke
# test. On an aarch64 host this is the native suite: scripts/run_tests.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $(uname -m) == aarch64 ]]; then
    echo "an aarch64 host: running the native suite (scripts/run_tests.sh)"
    exec scripts/run_tests.sh
fi

echo "== the aarch64 cross build (and its packages)"
scripts/install_deps.sh
arm_packages=(g++-aarch64-linux-gnu qemu-user libhwy-dev:arm64 libgtest-dev:arm64 libgomp1:arm64
              libbenchmark-dev:arm64)
missing=()
for package in "${arm_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [[ ${#missing[@]} -gt 0 ]]; then
    if [[ $(id -u) -ne 0 ]]; then
        echo "the aarch64 cross build needs: dpkg --add-architecture arm64; apt-get update;" \
             "apt-get install ${missing[*]}" >&2
        exit 1
    fi
    echo "installing ${missing[*]}"
    dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake --preset aarch64 >/dev/null
cmake --build --preset aarch64

# The x86 FMA targets' digest of both operators' results on fixed inputs (tests/cross_target): every aarch64
# target must give the same values (docs/compatibility.md, "Across CPUs").
cmake --preset release >/dev/null
cmake --build --preset release --target output_digest >/dev/null
x86_digest=$(build/release/tests/output_digest | awk '$1 == "AVX2" || $1 ~ /^AVX3/ {print $2; exit}')
[[ -n "$x86_digest" ]] || { echo "this x86 CPU has no FMA target (AVX2) to compare aarch64 with" >&2; exit 1; }

# CPU model -> the Highway targets the dispatch must reach there (test_simd_convert runs once per target the
# CPU supports and prints each).
declare -A expected_targets=(
    [neoverse-n1]="NEON"
    [max,sve128=on]="SVE2_128 SVE2 SVE NEON"
    [max,sve512=on]="SVE2 SVE NEON"
)
# CPU model -> the targets its ctest run covers (ACLNN_CPU_TEST_TARGETS): each target once over the three models, SVE
# at 128 bits and at 512 (emulated SVE is slow; the digest above still checks every target on every model).
declare -A tested_targets=(
    [neoverse-n1]="NEON"
    [max,sve128=on]="SVE2_128 SVE"
    [max,sve512=on]="SVE2"
)
for cpu in neoverse-n1 max,sve128=on max,sve512=on; do
    echo "== qemu-aarch64, CPU model $cpu"
    export QEMU_CPU=$cpu
    ran=$(qemu-aarch64 build/aarch64/tests/test_simd_convert 2>&1 | sed -n 's/^\[ TARGET   \] SIMD target \([A-Z0-9_]*\) .*/\1/p' |
          tr '\n' ' ' | sed 's/ $//')
    if [[ "$ran" != "${expected_targets[$cpu]}" ]]; then
        echo "on $cpu the kernels ran on targets [$ran], expected [${expected_targets[$cpu]}]" >&2
        exit 1
    fi
    echo "SIMD targets on $cpu: $ran"
    differing=$(qemu-aarch64 build/aarch64/tests/output_digest | awk -v want="$x86_digest" '$2 != want')
    if [[ -n "$differing" ]]; then
        echo "on $cpu these targets' results differ from x86's ($x86_digest): $differing" >&2
        exit 1
    fi
    echo "results on $cpu: the same values as x86's FMA targets (digest $x86_digest)"
    echo "the numeric tests on $cpu run on: ${tested_targets[$cpu]}"
    ACLNN_CPU_TEST_TARGETS="${tested_targets[$cpu]}" ctest --preset aarch64 -j2
done
unset QEMU_CPU

echo "== the benchmark, once under qemu (a smoke test: emulated timings mean nothing)"
bench_output=$(QEMU_CPU=max,sve128=on qemu-aarch64 build/aarch64/bench/bench_operators \
    --benchmark_filter='latency' --benchmark_min_time=0.01 --benchmark_color=false)
echo "${bench_output%%$'\n'*}"
grep -q "SIMD target: SVE2_128" <<<"$bench_output" || { echo "the benchmark did not run on SVE2_128" >&2; exit 1; }
echo "aarch64 suites passed"
