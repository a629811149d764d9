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
        case ACL_DOUBLE: return {53, -1022, DBL_MAX};
        default: return {24, -126, static_cast<double>(FLT_MAX)};
    }
}

template <typename T>
double DecodeAs(const void* p) {
    T value;
    std::memcpy(&value, p, sizeof value);
    return static_cast<double>(value);
}

// Through int64 (|v| < 2^63), so that a value outside a narrower type's range wraps, as an integer cast does,
// rather than being undefined.
template <typename T>
void EncodeAs(double v, void* dst) {
    const T value = static_cast<T>(static_cast<int64_t>(v));
    std::memcpy(dst, &value, sizeof value);
}

}  // namespace

bool IsIntegerType(aclDataType type) {
    return type == ACL_INT64 || type == ACL_INT32 || type == ACL_INT16 || type == ACL_INT8 || type == ACL_UINT8 ||
           type == ACL_BOOL;
}

double DecodeElement(const void* p, aclDataType type) {
    switch (type) {
        case ACL_INT64: return DecodeAs<int64_t>(p);
        case ACL_INT32: return DecodeAs<int32_t>(p);
        case ACL_INT16: return DecodeAs<int16_t>(p);
        case ACL_INT8: return DecodeAs<int8_t>(p);
        case ACL_UINT8: return DecodeAs<uint8_t>(p);
        case ACL_BOOL: return *static_cast<const uint8_t*>(p) != 0 ? 1.0 : 0.0;
        case ACL_DOUBLE: return DecodeAs<double>(p);
        default: break;
    }
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
    if (type == ACL_DOUBLE) return v;
    if (IsIntegerType(type)) return type == ACL_BOOL ? (v != 0.0 ? 1.0 : 0.0) : std::nearbyint(v);
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
    switch (type) {  // integer types: v is an integer within the type's range
        case ACL_INT64: return EncodeAs<int64_t>(v, dst);
        case ACL_INT32: return EncodeAs<int32_t>(v, dst);
        case ACL_INT16: return EncodeAs<int16_t>(v, dst);
        case ACL_INT8: return EncodeAs<int8_t>(v, dst);
        case ACL_UINT8: case ACL_BOOL: return EncodeAs<uint8_t>(v, dst);
        case ACL_DOUBLE: std::memcpy(dst, &v, sizeof v); return;
        default: break;
    }
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

aclDataType PromoteTypes(aclDataType a, aclDataType b) {
    if (IsIntegerType(a) != IsIntegerType(b)) return IsIntegerType(a) ? b : a;  // the floating type
    return a == b ? a : ACL_FLOAT;
}

ReferenceValue SoftMarginLossGradReference(double x, double y, double g, double cof) {
    const double inputs[3] = {g, x, y};
    aclnn_cpu::references::ReferenceCall call;
    call.scale = cof;
    return aclnn_cpu::references::SoftMarginLossGrad(inputs, call);
}

ReferenceValue SoftMarginLossReference(double x, double y) {
    const double inputs[2] = {x, y};
    return aclnn_cpu::references::SoftMarginLoss(inputs, aclnn_cpu::references::ReferenceCall{});
}

int64_t ReductionOf(const RowCall& call) { return aclnn_cpu::ReductionValue(*call.row, call.parameters.data()); }

double GradientScale(const RowCall& call) {
    if (!aclnn_cpu::IsGradient(*call.row)) return 1.0;
    if (call.row->batch_mean && ReductionOf(call) == 3)
        return call.first_dim > 0 ? 1.0 / static_cast<double>(call.first_dim) : 1.0;
    if (ReductionOf(call) != 1) return 1.0;
    const int64_t n = call.row->mean_divisor == aclnn_cpu::MeanDivisor::kSelfElements ? call.self_count
                                                                                       : call.broadcast_count;
    return n > 0 ? 1.0 / static_cast<double>(n) : 1.0;
}

ReferenceValue RowElementReference(const RowCall& call, const double* inputs) {
    aclnn_cpu::references::ReferenceCall reference_call;
    reference_call.parameters = call.parameters.data();
    reference_call.scale = GradientScale(call);
    reference_call.single_element_gradient = call.gradient_count == 1;
    reference_call.given_inputs = call.given_inputs;
    return call.row->reference(inputs, reference_call);
}

aclDataType PromoteAll(const std::vector<aclDataType>& types) {
    aclDataType promote = types.empty() ? ACL_FLOAT : types[0];
    for (aclDataType type : types) promote = PromoteTypes(promote, type);
    return promote;
}

aclDataType ComputeType(const aclnn_cpu::OperatorDescription& row, const std::vector<aclDataType>& input_types,
                        aclDataType out_type) {
    return row.computes_in_out_dtype ? out_type : PromoteAll(input_types);
}

std::vector<ReferenceValue> AlongDimReferences(const RowCall& call, const std::vector<std::vector<double>>& values,
                                               const std::vector<int64_t>& shape) {
    const aclnn_cpu::OperatorDescription& row = *call.row;
    // Each row along the dim (a 0-d shape is a row of one): rows of n elements `inner` apart.
    int64_t dim = -1;
    for (int p = 0; p < row.parameter_count; ++p)
        if (row.parameters[p].type == aclnn_cpu::ParameterType::kDim) dim = static_cast<int64_t>(call.parameters[p]);
    const std::vector<int64_t> dims = shape.empty() ? std::vector<int64_t>{1} : shape;
    const int64_t rank = static_cast<int64_t>(dims.size());
    const size_t axis = static_cast<size_t>(dim < 0 ? dim + rank : dim);
    int64_t numel = 1;
    for (int64_t d : dims) numel *= d;
    const int64_t n = dims[axis];
    int64_t inner = 1;
    for (size_t d = axis + 1; d < dims.size(); ++d) inner *= dims[d];
    std::vector<ReferenceValue> table(static_cast<size_t>(numel));
    std::vector<std::vector<double>> line(values.size(), std::vector<double>(static_cast<size_t>(n)));
    std::vector<const double*> pointers;
    for (const auto& l : line) pointers.push_back(l.data());
    std::vector<ReferenceValue> results(static_cast<size_t>(n));
    for (int64_t first = 0; n > 0 && first < numel; first += n * inner) {
        for (int64_t column = 0; column < inner; ++column) {
            for (size_t k = 0; k < values.size(); ++k)
                for (int64_t i = 0; i < n; ++i)
                    line[k][static_cast<size_t>(i)] = values[k][static_cast<size_t>(first + i * inner + column)];
            row.row_reference(pointers.data(), n, results.data());
            for (int64_t i = 0; i < n; ++i)
                table[static_cast<size_t>(first + i * inner + column)] = results[static_cast<size_t>(i)];
        }
    }
    return table;
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
    const double promote_ulps = promote == ACL_FLOAT ? reference.ulps : 1.0;
    if (std::isinf(expected) || std::isinf(got)) {
        if (got == expected) return "";
        // One side overflowed and the other did not: right only when the exact value lies within the
        // tolerance of an overflow boundary (the midpoint past the largest finite value), so that an ulp of
        // difference decides between the largest finite value and infinity.
        // A reference whose own error bound spans fp32's whole range (a cancellation times a weight near fp32's
        // limit) says nothing about the result; one whose bound exceeds its value leaves the sign open.
        if (reference.absolute_slack >= FormatOf(ACL_FLOAT).max_finite) return "";
        if (std::isinf(got) && std::isinf(expected) && std::signbit(got) != std::signbit(expected))
            return std::fabs(reference.value) <= reference.absolute_slack ? "" : "infinity mismatch";
        for (aclDataType type : {promote, out_type}) {
            const double largest = FormatOf(type).max_finite;
            const double boundary = largest + UlpOf(largest, type) / 2;
            const double slack = promote_ulps * UlpOf(largest, promote) + UlpOf(largest, type) +
                                 reference.absolute_slack;  // the fp32 value may lie anywhere within it
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

void ReducedLossReference::AddRounded(const ReferenceValue& term, aclDataType promote) {
    const double rounded = RoundToType(term.value, promote);
    Add(term, rounded);
    if (!std::isfinite(term.value) || promote == ACL_FLOAT) return;
    const double span = 8 * UlpOf(term.value, ACL_FLOAT);
    if (RoundToType(term.value - span, promote) != rounded || RoundToType(term.value + span, promote) != rounded)
        slack_ += UlpOf(term.value, promote);
}

const char* CheckReducedLoss(double exact_sum, int64_t n, bool mean, aclDataType promote, aclDataType out_type,
                             double got, double* expected_out, double extra_error) {
    double reference = exact_sum;
    const double largest = FormatOf(ACL_FLOAT).max_finite;
    const double boundary = largest + UlpOf(largest, ACL_FLOAT) / 2;  // sums from here on round to infinity
    const bool sum_overflows = std::isinf(exact_sum) || std::fabs(exact_sum) >= boundary;
    // The terms' own error (extra_error) may carry the fp32 sum across the boundary either way.
    const bool near_overflow = std::fabs(std::fabs(exact_sum) - boundary) <= 10 * UlpOf(largest, ACL_FLOAT) + extra_error;
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
            const double slack = 10 * UlpOf(top, ACL_FLOAT) + UlpOf(top, promote) + UlpOf(top, type) +
                                 (mean && n > 0 ? extra_error / static_cast<double>(n) : extra_error);
            if (std::isfinite(reference) && std::fabs(std::fabs(reference) - edge) <= slack) return "";
        }
        return "infinity mismatch";
    }
    double allowed = 10 * UlpOf(reference, ACL_FLOAT) + (mean && n > 0 ? extra_error / static_cast<double>(n)
                                                                       : extra_error);
    if (promote != ACL_FLOAT) allowed += UlpOf(reference, promote);
    if (out_type != ACL_FLOAT) allowed += UlpOf(reference, out_type);
    return std::fabs(got - expected) <= allowed ? "" : "outside tolerance";
}

}  // namespace test_support
