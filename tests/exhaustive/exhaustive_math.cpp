// The project's vector math against correctly rounded references, on every input of its domain (or every
// stride-th one), for every SIMD target that Highway compiled and this CPU runs:
//   exp:   kernels::VectorExp on all 2^32 fp32 bit patterns;
//   loss:  the forward operator's per-element arithmetic (SoftMarginLoss::OfProduct, whose softplus is
//          kernels/vector_softplus-inl.h) on all 2^32 fp32 products t, against max(-t, 0) + log1p(exp(-|t|));
//          then every FLOAT16 and every BFLOAT16 t: the fp32 loss rounded to that type against the float64 loss
//          rounded once to it (the correctly rounded result): at least 99.99% equal, none more than 1 ulp (of
//          the type) off;
//   log:   kernels::VectorLog (the binary cross-entropy's logs, kernels/vector_log-inl.h) on all 2^32 fp32 bit
//          patterns, against IEEE's log: -inf for +-0, NaN for negatives;
//   sigmoid: the logits loss's gradient per element (BinaryCrossEntropyWithLogitsGrad, its float64 evaluation
//          with kernels/float64_evaluation-inl.h's exp) for gradOutput 1, target 0, no weights, on all 2^32 x:
//          1 / (1 + e^-x).
// The reference, computed once per input and shared by all targets, is the float64 function rounded to fp32
// (within 1 ulp of float64, so the correctly rounded fp32 result except in double-rounding ties far below the
// bound checked). Rules: NaN where the reference is NaN; +-inf exactly where the reference is; otherwise
// finite and within 2 ulp (counted in representable values, so 0 and subnormals are covered the same way).
// Per range of inputs (where the loss lives), it reports the share of finite, non-trivial results that are not
// correctly rounded and the worst error against the exact value (float64), in ulp.
// Usage: exhaustive_math [--function exp|loss|log|sigmoid] [--stride S]   (default: all; S = 1: every input)
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "exhaustive/exhaustive_math.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/float_convert.h"
#include "support/named_simd_targets.h"
#include "hwy/highway.h"
#include "kernels/vector_exp-inl.h"
#include "kernels/vector_log-inl.h"
#include "ops/binary_cross_entropy_with_logits/bce_with_logits_functors-inl.h"
#include "ops/soft_margin_loss/soft_margin_loss_functor-inl.h"
#include "reference.h"

#ifndef ACLNN_CPU_EXHAUSTIVE_MATH_REGISTRY
#define ACLNN_CPU_EXHAUSTIVE_MATH_REGISTRY
namespace exhaustive_math {
// A function over an array on one target; the count is a multiple of every target's vector length.
using ArrayFunction = void (*)(const float* in, float* out, size_t count);
struct TargetFunctions {
    int64_t target;
    ArrayFunction exp;
    ArrayFunction loss;
    ArrayFunction log;
    ArrayFunction sigmoid;
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

void LossArrayOnThisTarget(const float* in, float* out, size_t count) {
    using aclnn_cpu::ops::soft_margin_loss::HWY_NAMESPACE::SoftMarginLoss;
    const hn::ScalableTag<float> d;
    for (size_t i = 0; i < count; i += hn::Lanes(d))
        hn::StoreU(SoftMarginLoss::OfProduct(d, hn::LoadU(d, in + i)), d, out + i);
}

void LogArrayOnThisTarget(const float* in, float* out, size_t count) {
    const hn::ScalableTag<float> d;
    for (size_t i = 0; i < count; i += hn::Lanes(d))
        hn::StoreU(aclnn_cpu::kernels::HWY_NAMESPACE::VectorLog(d, hn::LoadU(d, in + i)), d, out + i);
}

void SigmoidArrayOnThisTarget(const float* in, float* out, size_t count) {
    using aclnn_cpu::ops::binary_cross_entropy_with_logits::HWY_NAMESPACE::BinaryCrossEntropyWithLogitsGrad;
    const BinaryCrossEntropyWithLogitsGrad<false> gradient(aclnn_cpu::kernels::ScaleParameters{1.0f});  // none, sum
    const hn::ScalableTag<float> d;
    const auto one = hn::Set(d, 1.0f);
    for (size_t i = 0; i < count; i += hn::Lanes(d))
        hn::StoreU(gradient(d, one, hn::LoadU(d, in + i), hn::Zero(d), one, one), d, out + i);
}

const bool kRegistered = (Targets().push_back({HWY_TARGET, &ExpArrayOnThisTarget, &LossArrayOnThisTarget,
                                               &LogArrayOnThisTarget, &SigmoidArrayOnThisTarget}),
                          true);

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

// Where the results live, per function: the rates of results that are not the correctly rounded value are
// reported per range, over finite results that are not trivially exact (0, 1, +inf), with the worst error
// against the exact value (float64), in ulp of the result's binade.
struct Range {
    const char* name;
    double low, high;  // the inputs x in [low, high)
};
constexpr int kMaxRanges = 4;
struct FunctionRanges {
    int count;
    Range ranges[kMaxRanges];
};
// exp: the loss's e = exp(-|t|) is the negative side; its gradient's exp(-x*y) both sides.
constexpr FunctionRanges kExpRanges = {4,
                                       {{"x in [-103.98, -87.34): subnormal results", -103.98, -87.3365447},
                                        {"x in [-87.34, -0.35]: normal results below 0.71", -87.3365447, -0.35},
                                        {"0 < |x| < 0.35: results in (0.70, 1.42)", -0.35, 0.35},
                                        {"x in [0.35, 88.72]: results above 1.41", 0.35, 88.7228394}}};
// The loss: t < 0 adds -t to a softplus term below it; t > 0 is the softplus term alone, e^-t past ~16.6.
constexpr FunctionRanges kLossRanges = {4,
                                        {{"t in [-88, -0.35): loss -t + log1p(e^t)", -88.0, -0.35},
                                         {"|t| < 0.35: loss in (0.53, 0.88)", -0.35, 0.35},
                                         {"t in [0.35, 16.6): loss in (6e-8, 0.53)", 0.35, 16.6},
                                         {"t in [16.6, 103.98): loss ~ e^-t (subnormal past 87.34)", 16.6, 103.98}}};

// log: the subnormals (pre-scaled), the normals below the table's interval, the interval itself (k = 0, where
// the results near 1 are small), and above it.
constexpr FunctionRanges kLogRanges = {4,
                                       {{"x in (0, 2^-126): subnormal inputs", 0.0, 1.1754943508222875e-38},
                                        {"x in [2^-126, 0.703125): results below -0.352", 1.1754943508222875e-38,
                                         0.703125},
                                        {"x in [0.703125, 1.40625): |results| < 0.352", 0.703125, 1.40625},
                                        {"x in [1.40625, FLT_MAX]: results above 0.34", 1.40625, 3.5e38}}};

// sigmoid: the gradient's y = 0 slope; its subnormal tail, its small side (e^x), and its side near 1.
constexpr FunctionRanges kSigmoidRanges = {3,
                                           {{"x in [-103.98, -87.34): subnormal results", -103.98, -87.3365447},
                                            {"x in [-87.34, 0): results below 1/2", -87.3365447, 0.0},
                                            {"x in [0, 16.7): results in [1/2, 1)", 0.0, 16.7}}};

// Which range x falls in, or -1 (outside all: trivial results, or not reported).
int RangeOf(const FunctionRanges& ranges, float x) {
    for (int r = 0; r < ranges.count; ++r)
        if (x >= ranges.ranges[r].low && x < ranges.ranges[r].high) return r;
    return -1;
}

struct RangeTally {
    uint64_t results = 0;      // finite, not trivially exact
    uint64_t not_rounded = 0;  // not the correctly rounded value (1 ulp or more from it)
    double worst_exact = 0;    // the largest |got - exact| / ulp, over all results of the range
    float worst_input = 0;

    void Merge(const RangeTally& other) {
        results += other.results;
        not_rounded += other.not_rounded;
        if (other.worst_exact > worst_exact) {
            worst_exact = other.worst_exact;
            worst_input = other.worst_input;
        }
    }
};

// |got - exact| in units of the spacing of floats at the correctly rounded result (2^-149 for subnormals).
double ExactUlpError(float got, double exact, float rounded) {
    int exponent = 0;
    std::frexp(static_cast<double>(std::fabs(rounded)), &exponent);
    const double ulp = std::ldexp(1.0, std::max(exponent - 24, -149));
    return std::fabs(static_cast<double>(got) - exact) / ulp;
}

struct Tally {
    uint64_t checked = 0;
    RangeTally ranges[kMaxRanges];
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
        for (int r = 0; r < kMaxRanges; ++r) ranges[r].Merge(other.ranges[r]);
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
    if (std::isnan(expected)) {
        if (!std::isnan(got)) tally.Fail(x, got, expected, "NaN where the reference is NaN");
        else ++tally.by_ulp[0];
        return;
    }
    if (std::isinf(expected) || std::isinf(got)) {
        if (got != expected) tally.Fail(x, got, expected, "inf exactly where the rounded reference is inf");
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

// One chunk's results on one target, against the reference: the rules per input, and the ranges' counts.
void TallyChunk(const float* in, const float* got, const float* expected, const double* exact, const int* range,
                uint64_t count, Tally& tally) {
    for (uint64_t i = 0; i < count; ++i) {
        // Most results are the correctly rounded value: compare the bits first.
        const bool rounded = Bits(got[i]) == Bits(expected[i]);
        if (rounded && !std::isnan(in[i])) {
            ++tally.checked;
            ++tally.by_ulp[0];
        } else {
            Check(in[i], got[i], expected[i], tally);
        }
        if (range[i] >= 0) {
            RangeTally& where = tally.ranges[range[i]];
            ++where.results;
            if (!rounded) {  // only these can exceed half an ulp
                ++where.not_rounded;
                const double error = ExactUlpError(got[i], exact[i], expected[i]);
                if (error > where.worst_exact) {
                    where.worst_exact = error;
                    where.worst_input = in[i];
                }
            }
        }
    }
}

// One function's check over [0, last_pattern] in steps of stride; returns whether every input passed.
bool CheckFunction(const char* name, double (*reference)(double), ArrayFunction TargetFunctions::*function,
                   const FunctionRanges& ranges, uint64_t last_pattern, uint64_t stride,
                   const std::vector<TargetFunctions>& targets) {
    const uint64_t inputs = last_pattern / stride + 1;
    const int64_t chunks = static_cast<int64_t>((inputs + kChunk - 1) / kChunk);
    std::vector<Tally> totals(targets.size());
#pragma omp parallel
    {
        std::vector<Tally> tallies(targets.size());
        std::vector<Tally> chunk_tallies(targets.size());
        std::vector<std::vector<float>> outputs(targets.size(), std::vector<float>(kChunk));
        std::vector<float> in(kChunk), expected(kChunk);
        std::vector<double> exact(kChunk);
        std::vector<int> range(kChunk);
#pragma omp for schedule(dynamic, 16)
        for (int64_t chunk = 0; chunk < chunks; ++chunk) {
            const uint64_t first = static_cast<uint64_t>(chunk) * kChunk;
            const uint64_t count = first + kChunk <= inputs ? kChunk : inputs - first;
            for (uint64_t i = 0; i < kChunk; ++i) {
                // Past the last input (a partial last chunk), repeat it: vectors stay full.
                const uint64_t index = (i < count ? first + i : first + count - 1) * stride;
                in[i] = FromBits(static_cast<uint32_t>(index));
                exact[i] = reference(static_cast<double>(in[i]));
                expected[i] = static_cast<float>(exact[i]);
                // Trivially exact results are left out of the ranges: 0, 1, inf.
                const bool trivial = !std::isfinite(expected[i]) || expected[i] == 0.0f || expected[i] == 1.0f;
                range[i] = trivial || i >= count ? -1 : RangeOf(ranges, in[i]);
            }
            for (size_t t = 0; t < targets.size(); ++t) {
                std::vector<float>& got = outputs[t];
                (targets[t].*function)(in.data(), got.data(), kChunk);
                // Targets that share an instruction set's arithmetic give the same bits (SSSE3, SSE4 and scalar;
                // AVX2 and AVX-512): a chunk equal to an earlier target's adds that target's chunk tally, so the
                // per-input checks run once per distinct result. The first equal target tallied its own chunk
                // (any target equal to it would be equal, and earlier, still).
                size_t same = t;
                for (size_t u = 0; u < t && same == t; ++u)
                    if (std::memcmp(outputs[u].data(), got.data(), count * sizeof(float)) == 0) same = u;
                if (same == t) {
                    chunk_tallies[t] = Tally();
                    TallyChunk(in.data(), got.data(), expected.data(), exact.data(), range.data(), count,
                               chunk_tallies[t]);
                }
                tallies[t].Merge(chunk_tallies[same]);
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
        for (int r = 0; r < ranges.count; ++r) {
            const RangeTally& where = tally.ranges[r];
            std::printf("  %-50s %11llu results, %10llu not correctly rounded (%.2f%%), worst %.3f ulp "
                        "(x = %a)\n",
                        ranges.ranges[r].name, static_cast<unsigned long long>(where.results),
                        static_cast<unsigned long long>(where.not_rounded),
                        where.results > 0 ? 100.0 * static_cast<double>(where.not_rounded) /
                                                static_cast<double>(where.results)
                                          : 0.0,
                        where.worst_exact, where.worst_input);
        }
        if (tally.failures > 0 || tally.checked != inputs) ok = false;
    }
    std::printf("%s: %s\n", name, ok ? "every input within the rules" : "FAILED");
    return ok;
}

double Exp(double x) { return std::exp(x); }
double Log(double x) { return std::log(x); }  // -inf for +-0, NaN for negatives
double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
// The tests' float64 reference of the forward (tests/support/reference.h), with target 1: t itself.
double Loss(double t) { return test_support::SoftMarginLossReference(t, 1.0).value; }

// A 16-bit floating-point type as the loss check needs it: its conversions, the bit pattern of +inf, and the
// value that pattern stands for when rounding (the power of two past the largest finite value: a value from
// halfway between that power and the largest finite one upwards rounds to inf, ties to even included).
struct SixteenBitType {
    const char* name;
    float (*to_float)(uint16_t);
    uint16_t (*from_float)(float);
    uint16_t infinity_bits;
    double overflow_value;
};

// The value of a non-negative bit pattern for rounding: +inf's pattern stands for the overflow value.
double SixteenBitValue(const SixteenBitType& type, uint16_t bits) {
    return bits == type.infinity_bits ? type.overflow_value : static_cast<double>(type.to_float(bits));
}

// v (float64, not NaN) rounded once to the 16-bit type, to nearest with ties to even: of the patterns next to
// the twice-rounded one, the nearest to v. For non-negative values adjacent patterns are adjacent values, the
// differences to v are exact (Sterbenz, or v - 0), and a tie goes to the even pattern.
uint16_t RoundOnce(const SixteenBitType& type, double v) {
    const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
    const double magnitude = std::fabs(v);
    if (magnitude >= type.overflow_value) return static_cast<uint16_t>(sign | type.infinity_bits);
    const uint16_t near = static_cast<uint16_t>(type.from_float(static_cast<float>(magnitude)) & 0x7fff);
    uint16_t best = near;
    double best_distance = std::fabs(SixteenBitValue(type, near) - magnitude);
    for (const int step : {-1, 1}) {
        const int candidate = near + step;
        if (candidate < 0 || candidate > type.infinity_bits) continue;
        const double distance = std::fabs(SixteenBitValue(type, static_cast<uint16_t>(candidate)) - magnitude);
        if (distance < best_distance || (distance == best_distance && candidate % 2 == 0)) {
            best = static_cast<uint16_t>(candidate);
            best_distance = distance;
        }
    }
    return static_cast<uint16_t>(sign | best);
}

// Every t of a 16-bit type: the kernel's fp32 loss rounded to the type (as the operator rounds its result)
// against the float64 loss rounded *once* to the type (correctly rounded from the exact value). Rules: NaN for
// NaN, inf for inf, and no finite result more than 1 ulp of the type from the correctly rounded one. Reports
// the share that is correctly rounded; returns false on a broken rule or a share below 99.99%.
bool CheckSixteenBitLoss(const SixteenBitType& type, const std::vector<TargetFunctions>& targets) {
    static_assert(kChunk == 0x10000, "one chunk holds every 16-bit pattern");
    std::vector<float> in(kChunk), got(kChunk);
    std::vector<uint16_t> expected(kChunk);
    for (uint32_t bits = 0; bits < 0x10000u; ++bits) {
        in[bits] = type.to_float(static_cast<uint16_t>(bits));
        const double loss = Loss(static_cast<double>(in[bits]));
        expected[bits] = std::isnan(loss) ? type.from_float(NAN) : RoundOnce(type, loss);
    }
    bool ok = true;
    for (const TargetFunctions& t : targets) {
        t.loss(in.data(), got.data(), kChunk);
        uint64_t finite = 0, rounded = 0, failures = 0;
        for (uint32_t bits = 0; bits < 0x10000u; ++bits) {
            const uint16_t result = type.from_float(got[bits]);
            const float expected_value = type.to_float(expected[bits]), result_value = type.to_float(result);
            if (std::isnan(expected_value) || std::isinf(expected_value)) {
                if (std::isnan(expected_value) ? !std::isnan(result_value) : result != expected[bits]) ++failures;
                continue;
            }
            ++finite;
            if (result == expected[bits]) {
                ++rounded;
            } else if (std::isnan(result_value) || std::llabs(static_cast<int64_t>(result) - expected[bits]) > 1) {
                ++failures;  // losses are >= 0: adjacent bit patterns are adjacent values
            }
        }
        const double share = 100.0 * static_cast<double>(rounded) / static_cast<double>(finite);
        const bool pass = failures == 0 && share >= 99.99;
        std::printf("loss  %-8s %s: %llu finite results, %llu (%.4f%%) correctly rounded from float64, %llu 1 ulp "
                    "off, %llu more than 1 ulp off%s\n",
                    hwy::TargetName(t.target), type.name, static_cast<unsigned long long>(finite),
                    static_cast<unsigned long long>(rounded), share,
                    static_cast<unsigned long long>(finite - rounded - failures),
                    static_cast<unsigned long long>(failures), pass ? "" : " -- FAILED");
        ok = ok && pass;
    }
    return ok;
}

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
            std::fprintf(stderr,
                         "usage: %s [--function exp|loss|log|sigmoid] [--stride S]  (S >= 1; 1 checks every input)\n",
                         argv[0]);
            return 2;
        }
    }
    if (stride == 0 || (!only.empty() && only != "exp" && only != "loss" && only != "log" && only != "sigmoid")) {
        std::fprintf(stderr, "--stride must be at least 1; --function is exp, loss, log or sigmoid\n");
        return 2;
    }
    std::vector<int64_t> available, named;
    for (const TargetFunctions& t : Targets())
        if (hwy::SupportedTargets() & t.target) available.push_back(t.target);
    if (!available.empty() && !test_support::ChooseNamedTargets(available, &named)) return 1;
    std::vector<TargetFunctions> targets;
    for (const int64_t target : named)
        for (const TargetFunctions& t : Targets())
            if (t.target == target) targets.push_back(t);
    if (targets.empty()) {
        std::fprintf(stderr, "no compiled SIMD target runs on this CPU\n");
        return 1;
    }
    bool ok = true;
    if (only.empty() || only == "exp")
        ok &= CheckFunction("exp", &Exp, &TargetFunctions::exp, kExpRanges, 0xffffffffu, stride, targets);
    if (only.empty() || only == "loss") {
        ok &= CheckFunction("loss", &Loss, &TargetFunctions::loss, kLossRanges, 0xffffffffu, stride, targets);
        const SixteenBitType float16{"FLOAT16", &aclnn_cpu::HalfToFloat, &aclnn_cpu::FloatToHalf, 0x7c00, 65536.0};
        const SixteenBitType bfloat16{"BFLOAT16", &aclnn_cpu::Bf16ToFloat, &aclnn_cpu::FloatToBf16, 0x7f80,
                                      std::ldexp(1.0, 128)};
        // The reference rounds once: just above a halfway point, where rounding through fp32 would make a tie
        // that goes to the even neighbour below, it goes up.
        if (RoundOnce(float16, 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)) != 0x3c01 ||
            RoundOnce(bfloat16, 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)) != 0x3f81) {
            std::printf("loss  the 16-bit reference does not round once -- FAILED\n");
            ok = false;
        }
        ok &= CheckSixteenBitLoss(float16, targets);
        ok &= CheckSixteenBitLoss(bfloat16, targets);
    }
    if (only.empty() || only == "log")
        ok &= CheckFunction("log", &Log, &TargetFunctions::log, kLogRanges, 0xffffffffu, stride, targets);
    if (only.empty() || only == "sigmoid")
        ok &= CheckFunction("sigmoid", &Sigmoid, &TargetFunctions::sigmoid, kSigmoidRanges, 0xffffffffu, stride,
                            targets);
    return ok ? 0 : 1;
}
#endif  // HWY_ONCE
