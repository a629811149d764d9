// The project's vector math against correctly rounded references, on every input of its domain (or every
// stride-th one), for every SIMD target that Highway compiled and this CPU runs:
//   exp:   kernels::VectorExp on all 2^32 fp32 bit patterns;
//   log1p: kernels::Log1pOfUnitInterval on every fp32 e in [0, 1] (its domain: e = exp(-|t|) in the loss).
// The reference, computed once per input and shared by all targets, is the float64 function rounded to fp32
// (within 1 ulp of float64, so the correctly rounded fp32 result except in double-rounding ties far below the
// bound checked). Rules: NaN -> NaN; +inf exactly where the reference is +inf; otherwise finite and within 2
// ulp (counted in representable values, so 0 and subnormals are covered the same way).
// Also: log1p of NaN (quiet, signalling, either sign) must be NaN.
// Usage: exhaustive_math [--function exp|log1p] [--stride S]   (default: both; S = 1: every input)
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "exhaustive/exhaustive_math.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "hwy/highway.h"
#include "kernels/vector_exp-inl.h"
#include "kernels/vector_log1p-inl.h"

#ifndef ACLNN_CPU_EXHAUSTIVE_MATH_REGISTRY
#define ACLNN_CPU_EXHAUSTIVE_MATH_REGISTRY
namespace exhaustive_math {
// A function over an array on one target; the count is a multiple of every target's vector length.
using ArrayFunction = void (*)(const float* in, float* out, size_t count);
struct TargetFunctions {
    int64_t target;
    ArrayFunction exp;
    ArrayFunction log1p;
};
// Filled by each target's namespace at static initialisation.
inline std::vector<TargetFunctions>& Targets() {
    static std::vector<TargetFunctions> targets;
    return targets;
}
}  // namespace exhaustive_math
#endif

HWY_BEFORE_NAMESPACE();
namespace exhaustive_math::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void ExpArrayOnThisTarget(const float* in, float* out, size_t count) {
    const hn::ScalableTag<float> d;
    for (size_t i = 0; i < count; i += hn::Lanes(d))
        hn::StoreU(aclnn_cpu::kernels::HWY_NAMESPACE::VectorExp(d, hn::LoadU(d, in + i)), d, out + i);
}

void Log1pArrayOnThisTarget(const float* in, float* out, size_t count) {
    const hn::ScalableTag<float> d;
    for (size_t i = 0; i < count; i += hn::Lanes(d))
        hn::StoreU(aclnn_cpu::kernels::HWY_NAMESPACE::Log1pOfUnitInterval(d, hn::LoadU(d, in + i)), d, out + i);
}

const bool kRegistered =
    (Targets().push_back({HWY_TARGET, &ExpArrayOnThisTarget, &Log1pArrayOnThisTarget}), true);

}  // namespace exhaustive_math::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exhaustive_math {
namespace {

constexpr uint64_t kChunk = 1 << 16;

uint32_t Bits(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

float FromBits(uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

// Position of a float in the ordered sequence of all floats (adjacent values differ by 1).
int64_t Ordered(float value) {
    const uint32_t bits = Bits(value);
    return (bits & 0x80000000u) ? -static_cast<int64_t>(bits & 0x7fffffffu) : static_cast<int64_t>(bits);
}

struct Tally {
    uint64_t checked = 0;
    uint64_t by_ulp[4] = {};  // 0, 1, 2 ulp, and more (failures)
    uint64_t failures = 0;
    int64_t max_ulp = 0;
    float worst_input = 0.0f;
    std::vector<std::string> examples;

    void Fail(float x, float got, float expected, const char* rule) {
        if (++failures <= 5) {
            char line[160];
            std::snprintf(line, sizeof line, "x = %a (0x%08x): got %a, expected %a (%s)", x, Bits(x), got, expected,
                          rule);
            examples.push_back(line);
        }
    }
    void Merge(const Tally& other) {
        checked += other.checked;
        for (int i = 0; i < 4; ++i) by_ulp[i] += other.by_ulp[i];
        failures += other.failures;
        if (other.max_ulp > max_ulp) {
            max_ulp = other.max_ulp;
            worst_input = other.worst_input;
        }
        for (const auto& e : other.examples)
            if (examples.size() < 5) examples.push_back(e);
    }
};

void Check(float x, float got, float expected, Tally& tally) {
    ++tally.checked;
    if (std::isnan(x)) {
        if (!std::isnan(got)) tally.Fail(x, got, expected, "NaN must give NaN");
        return;
    }
    if (std::isinf(expected) || std::isinf(got)) {
        if (got != expected) tally.Fail(x, got, expected, "+inf exactly where the rounded exp is +inf");
        else ++tally.by_ulp[0];
        return;
    }
    if (std::isnan(got)) {
        tally.Fail(x, got, expected, "NaN for a non-NaN input");
        return;
    }
    const int64_t ulp = std::llabs(Ordered(got) - Ordered(expected));
    if (ulp > tally.max_ulp) {
        tally.max_ulp = ulp;
        tally.worst_input = x;
    }
    ++tally.by_ulp[ulp < 3 ? ulp : 3];
    if (ulp > 2) tally.Fail(x, got, expected, "more than 2 ulp");
}

// One function's check over [0, last_pattern] in steps of stride; returns whether every input passed.
bool CheckFunction(const char* name, double (*reference)(double), ArrayFunction TargetFunctions::*function,
                   uint64_t last_pattern, uint64_t stride, const std::vector<TargetFunctions>& targets) {
    const uint64_t inputs = last_pattern / stride + 1;
    const int64_t chunks = static_cast<int64_t>((inputs + kChunk - 1) / kChunk);
    std::vector<Tally> totals(targets.size());
#pragma omp parallel
    {
        std::vector<Tally> tallies(targets.size());
        std::vector<float> in(kChunk), expected(kChunk), got(kChunk);
#pragma omp for schedule(dynamic, 16)
        for (int64_t chunk = 0; chunk < chunks; ++chunk) {
            const uint64_t first = static_cast<uint64_t>(chunk) * kChunk;
            const uint64_t count = first + kChunk <= inputs ? kChunk : inputs - first;
            for (uint64_t i = 0; i < kChunk; ++i) {
                // Past the last input (a partial last chunk), repeat it: vectors stay full.
                const uint64_t index = (i < count ? first + i : first + count - 1) * stride;
                in[i] = FromBits(static_cast<uint32_t>(index));
                expected[i] = static_cast<float>(reference(static_cast<double>(in[i])));
            }
            for (size_t t = 0; t < targets.size(); ++t) {
                (targets[t].*function)(in.data(), got.data(), kChunk);
                // Most results are the correctly rounded value: compare the bits first, in bulk.
                for (uint64_t i = 0; i < count; ++i) {
                    if (Bits(got[i]) == Bits(expected[i]) && !std::isnan(in[i])) {
                        ++tallies[t].checked;
                        ++tallies[t].by_ulp[0];
                    } else {
                        Check(in[i], got[i], expected[i], tallies[t]);
                    }
                }
            }
        }
#pragma omp critical
        for (size_t t = 0; t < targets.size(); ++t) totals[t].Merge(tallies[t]);
    }
    bool ok = true;
    for (size_t t = 0; t < targets.size(); ++t) {
        const Tally& tally = totals[t];
        std::printf("%-5s %-8s %llu inputs: 0 ulp %llu, 1 ulp %llu, 2 ulp %llu, more %llu; max %lld ulp (x = %a); "
                    "failures %llu\n",
                    name, hwy::TargetName(targets[t].target), static_cast<unsigned long long>(tally.checked),
                    static_cast<unsigned long long>(tally.by_ulp[0]), static_cast<unsigned long long>(tally.by_ulp[1]),
                    static_cast<unsigned long long>(tally.by_ulp[2]), static_cast<unsigned long long>(tally.by_ulp[3]),
                    static_cast<long long>(tally.max_ulp), tally.worst_input,
                    static_cast<unsigned long long>(tally.failures));
        for (const auto& example : tally.examples) std::printf("  %s\n", example.c_str());
        if (tally.failures > 0 || tally.checked != inputs) ok = false;
    }
    std::printf("%s: %s\n", name, ok ? "every input within the rules" : "FAILED");
    return ok;
}

double Exp(double x) { return std::exp(x); }
double Log1p(double x) { return std::log1p(x); }

}  // namespace
}  // namespace exhaustive_math

int main(int argc, char** argv) {
    using namespace exhaustive_math;
    uint64_t stride = 1;
    std::string only;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--stride") == 0 && i + 1 < argc) {
            stride = std::strtoull(argv[++i], nullptr, 10);
        } else if (std::strcmp(argv[i], "--function") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else {
            std::fprintf(stderr, "usage: %s [--function exp|log1p] [--stride S]  (S >= 1; 1 checks every input)\n",
                         argv[0]);
            return 2;
        }
    }
    if (stride == 0 || (!only.empty() && only != "exp" && only != "log1p")) {
        std::fprintf(stderr, "--stride must be at least 1; --function is exp or log1p\n");
        return 2;
    }
    std::vector<TargetFunctions> targets;
    for (const TargetFunctions& t : Targets())
        if (hwy::SupportedTargets() & t.target) targets.push_back(t);
    if (targets.empty()) {
        std::fprintf(stderr, "no compiled SIMD target runs on this CPU\n");
        return 1;
    }
    bool ok = true;
    if (only.empty() || only == "exp")
        ok &= CheckFunction("exp", &Exp, &TargetFunctions::exp, 0xffffffffu, stride, targets);
    if (only.empty() || only == "log1p") {  // every e in [0, 1]: bit patterns 0 .. 0x3f800000
        ok &= CheckFunction("log1p", &Log1p, &TargetFunctions::log1p, 0x3f800000u, stride, targets);
        // Outside that domain only NaN is promised: NaN in, NaN out (quiet, signalling, either sign).
        std::vector<float> nans(kChunk, FromBits(0x7fc00000u)), got(kChunk);
        nans[1] = FromBits(0xffc00000u);
        nans[2] = FromBits(0x7f800001u);
        nans[3] = FromBits(0xffbfffffu);
        for (const TargetFunctions& t : targets) {
            t.log1p(nans.data(), got.data(), kChunk);
            for (size_t i = 0; i < 4; ++i) {
                if (!std::isnan(got[i])) {
                    std::printf("log1p %s: NaN 0x%08x gave %a\n", hwy::TargetName(t.target), Bits(nans[i]), got[i]);
                    ok = false;
                }
            }
        }
    }
    return ok ? 0 : 1;
}
#endif  // HWY_ONCE
