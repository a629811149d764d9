#include "reference.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>

namespace test_support {
namespace {

struct Format {
    int precision;  // significand bits, including the implicit one
    int min_exponent;  // exponent of the smallest normal
    double max_finite;
};

Format FormatOf(aclDataType type) {
    switch (type) {
        case ACL_FLOAT16: return {11, -14, 65504.0};
        case ACL_BF16: return {8, -126, std::ldexp(255.0, 120)};  // (2 - 2^-7) * 2^127
        default: return {24, -126, static_cast<double>(FLT_MAX)};
    }
}

constexpr double kExpOverflowThreshold = 88.72283935546875;  // largest t with expf(t) finite is just below

}  // namespace

double DecodeElement(const void* p, aclDataType type) {
    if (type == ACL_FLOAT) {
        float f;
        std::memcpy(&f, p, sizeof f);
        return f;
    }
    uint16_t bits;
    std::memcpy(&bits, p, sizeof bits);
    const double sign = (bits & 0x8000) ? -1.0 : 1.0;
    if (type == ACL_BF16) {
        const int exponent = (bits >> 7) & 0xff;
        const int mantissa = bits & 0x7f;
        if (exponent == 0xff) return mantissa ? std::numeric_limits<double>::quiet_NaN() : sign * INFINITY;
        if (exponent == 0) return sign * std::ldexp(mantissa, -126 - 7);
        return sign * std::ldexp(128 + mantissa, exponent - 127 - 7);
    }
    const int exponent = (bits >> 10) & 0x1f;
    const int mantissa = bits & 0x3ff;
    if (exponent == 0x1f) return mantissa ? std::numeric_limits<double>::quiet_NaN() : sign * INFINITY;
    if (exponent == 0) return sign * std::ldexp(mantissa, -14 - 10);
    return sign * std::ldexp(1024 + mantissa, exponent - 15 - 10);
}

double RoundToType(double v, aclDataType type) {
    if (std::isnan(v) || std::isinf(v) || v == 0.0) return v;
    const Format f = FormatOf(type);
    int e;
    std::frexp(v, &e);  // |v| = m * 2^e, m in [0.5, 1): the leading bit has exponent e - 1
    const int lead = std::max(e - 1, f.min_exponent);
    const double quantum = std::ldexp(1.0, lead - (f.precision - 1));
    const double rounded = std::nearbyint(v / quantum) * quantum;  // default rounding: nearest, ties to even
    if (std::fabs(rounded) > f.max_finite) return std::copysign(INFINITY, v);
    return rounded;
}

double UlpOf(double v, aclDataType type) {
    const Format f = FormatOf(type);
    int e = f.min_exponent + 1;
    if (v != 0.0 && std::isfinite(v)) std::frexp(v, &e);
    const int lead = std::max(e - 1, f.min_exponent);
    return std::ldexp(1.0, lead - (f.precision - 1));
}

void EncodeElement(double v, aclDataType type, void* dst) {
    if (type == ACL_FLOAT) {
        const float f = static_cast<float>(v);
        std::memcpy(dst, &f, sizeof f);
        return;
    }
    // Build the bits from the (representable) value's fields.
    uint16_t bits = std::signbit(v) ? 0x8000 : 0;
    const bool half = type == ACL_FLOAT16;
    const int mantissa_bits = half ? 10 : 7;
    const int bias = half ? 15 : 127;
    const int max_exponent_field = half ? 0x1f : 0xff;
    const double a = std::fabs(v);
    if (std::isnan(v)) {
        bits = static_cast<uint16_t>(bits | (max_exponent_field << mantissa_bits) | (1 << (mantissa_bits - 1)));
    } else if (std::isinf(v)) {
        bits = static_cast<uint16_t>(bits | (max_exponent_field << mantissa_bits));
    } else if (a != 0.0) {
        int e;
        std::frexp(a, &e);
        int exponent_field = e - 1 + bias;
        if (exponent_field <= 0) {  // subnormal
            const double units = a / std::ldexp(1.0, 1 - bias - mantissa_bits);
            bits = static_cast<uint16_t>(bits | static_cast<int>(units));
        } else {
            const double scaled = a / std::ldexp(1.0, e - 1 - mantissa_bits);  // in [2^m, 2^(m+1))
            const int mantissa = static_cast<int>(scaled) - (1 << mantissa_bits);
            bits = static_cast<uint16_t>(bits | (exponent_field << mantissa_bits) | mantissa);
        }
    }
    std::memcpy(dst, &bits, sizeof bits);
}

aclDataType PromoteTypes(aclDataType a, aclDataType b) { return a == b ? a : ACL_FLOAT; }

ReferenceValue SoftMarginLossGradReference(double x, double y, double g, double cof) {
    // fp32's range with float64's precision: a step overflows to infinity, and below the normal range it
    // takes fp32's subnormal spacing, down to zero, as it does in the kernel (so exp(-200) is 0 there, and
    // 0 * inf gives NaN exactly when the fp32 formula does).
    auto fp32 = [](double v) {
        if (!std::isfinite(v)) return v;
        const double rounded = RoundToType(v, ACL_FLOAT);
        if (std::isinf(rounded) || std::fabs(v) < 0x1p-126) return rounded;
        return v;
    };
    // The product is rounded to fp32, as every implementation of this operator does (CANN's kernels, PyTorch):
    // exp(-p) turns the product's half-ulp rounding into a relative error of |p| * 2^-24 (up to ~44 ulp at
    // |p| = 88), which no fp32 evaluation of the formula avoids and which the NPU shows too. Everything after
    // the product is evaluated in float64. docs/compatibility.md explains this choice.
    const double t = -RoundToType(x * y, ACL_FLOAT);
    const double e = fp32(std::exp(t));
    const double num = fp32(-y * e);
    const double den = fp32(e + 1.0);
    const double q = fp32(num / den);
    const double gs = fp32(g * cof);
    ReferenceValue result;
    result.value = fp32(q * gs);
    result.nan_acceptable = std::fabs(t - kExpOverflowThreshold) < 0.1;
    // Below fp32's normal range an intermediate keeps only its subnormal bits, and one spacing there is a
    // large relative error: an exp that is off by one subnormal spacing (Highway's Exp is within 1 ulp), or
    // a quotient rounded to that spacing, is then scaled up by gradOutput. The fp32 formula's accuracy at
    // such inputs is those spacings, carried to the result; it is granted here (it cannot arise otherwise).
    if (e < 0x1p-126 || std::fabs(num) < 0x1p-126 || std::fabs(q) < 0x1p-126) {
        const double q_slack = (std::fabs(y) + 1.0) * 0x1p-147;  // two subnormal spacings of e, num and q
        if (std::isinf(gs)) {
            // q may be 0 in one evaluation and a subnormal in the other: 0 * inf (NaN) or +-inf.
            result.nonfinite_acceptable = std::fabs(q) <= q_slack;
        } else {
            result.absolute_slack = q_slack * std::fabs(gs);
        }
    }
    return result;
}

ReferenceValue SoftMarginLossReference(double x, double y) {
    const double t = RoundToType(x * y, ACL_FLOAT);
    ReferenceValue result;
    if (std::isnan(t)) {
        result.value = t;
        return result;
    }
    const double e = std::exp(-std::fabs(t));
    result.value = std::max(0.0, -t) + std::log1p(e);
    if (e < 0x1p-126) result.absolute_slack = 0x1p-148;
    return result;
}

const char* CheckElement(const ReferenceValue& reference, aclDataType promote, aclDataType out_type, double got,
                         double* expected_out) {
    const double in_promote = RoundToType(reference.value, promote);
    const double expected = RoundToType(in_promote, out_type);
    *expected_out = expected;
    if (reference.nonfinite_acceptable && !std::isfinite(got)) return "";
    if (std::isnan(got)) {
        if (std::isnan(expected) || reference.nan_acceptable) return "";
        return "got NaN where a number was expected";
    }
    if (std::isnan(expected)) return reference.nan_acceptable ? "" : "expected NaN";
    if (reference.nonfinite_acceptable && std::isnan(expected)) return "";
    const double promote_ulps = promote == ACL_FLOAT ? 8.0 : 1.0;
    if (std::isinf(expected) || std::isinf(got)) {
        if (got == expected) return "";
        // One side overflowed and the other did not: right only when the exact value lies within the
        // tolerance of an overflow boundary (the midpoint past the largest finite value), so that an ulp of
        // difference decides between the largest finite value and infinity.
        if (std::signbit(got) != std::signbit(expected)) return "infinity mismatch";
        for (aclDataType type : {promote, out_type}) {
            const double largest = FormatOf(type).max_finite;
            const double boundary = largest + UlpOf(largest, type) / 2;
            const double slack = promote_ulps * UlpOf(largest, promote) + UlpOf(largest, type);
            if (std::fabs(std::fabs(reference.value) - boundary) <= slack) return "";
        }
        return "infinity mismatch";
    }
    double allowed = promote_ulps * UlpOf(in_promote, promote);
    if (out_type != promote && out_type != ACL_FLOAT) allowed += UlpOf(expected, out_type);
    allowed += reference.absolute_slack;
    if (std::fabs(got - expected) > allowed) return "outside tolerance";
    return "";
}

const char* CheckReducedLoss(double exact_sum, int64_t n, bool mean, aclDataType promote, aclDataType out_type,
                             double got, double* expected_out) {
    double reference = exact_sum;
    const double largest = FormatOf(ACL_FLOAT).max_finite;
    const double boundary = largest + UlpOf(largest, ACL_FLOAT) / 2;  // sums from here on round to infinity
    const bool sum_overflows = std::isinf(exact_sum) || std::fabs(exact_sum) >= boundary;
    const bool near_overflow = std::fabs(std::fabs(exact_sum) - boundary) <= 10 * UlpOf(largest, ACL_FLOAT);
    if (sum_overflows) reference = std::copysign(INFINITY, exact_sum);
    if (mean) reference /= static_cast<double>(n);  // n = 0: 0/0 is NaN, CANN's mean of nothing
    const double expected = RoundToType(RoundToType(RoundToType(reference, ACL_FLOAT), promote), out_type);
    *expected_out = expected;
    if (std::isnan(reference)) return std::isnan(got) ? "" : "expected NaN";
    if (std::isnan(got)) return "got NaN where a number was expected";
    if (std::isinf(expected) || std::isinf(got)) {
        if (got == expected || near_overflow) return "";
        // Narrowing to a 16-bit out may overflow on its own: an ulp across that boundary is fine.
        for (aclDataType type : {promote, out_type}) {
            const double top = FormatOf(type).max_finite;
            const double edge = top + UlpOf(top, type) / 2;
            const double slack = 10 * UlpOf(top, ACL_FLOAT) + UlpOf(top, promote) + UlpOf(top, type);
            if (std::isfinite(reference) && std::fabs(std::fabs(reference) - edge) <= slack) return "";
        }
        return "infinity mismatch";
    }
    double allowed = 10 * UlpOf(reference, ACL_FLOAT);
    if (promote != ACL_FLOAT) allowed += UlpOf(reference, promote);
    if (out_type != ACL_FLOAT) allowed += UlpOf(reference, out_type);
    return std::fabs(got - expected) <= allowed ? "" : "outside tolerance";
}

ReferenceValue OperatorElementReference(const char* operator_name, const double* inputs, double cof) {
    if (std::strcmp(operator_name, "soft_margin_loss") == 0) return SoftMarginLossReference(inputs[0], inputs[1]);
    if (std::strcmp(operator_name, "soft_margin_loss_backward") == 0)
        return SoftMarginLossGradReference(inputs[1], inputs[2], inputs[0], cof);
    std::fprintf(stderr, "no reference for operator %s\n", operator_name);
    std::abort();
}

}  // namespace test_support
