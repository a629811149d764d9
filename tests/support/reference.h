// The tests' own float64 models of aclnnSoftMarginLossBackward, aclnnSoftMarginLoss and the three element
// formats. They share no code with the library: decoding uses ldexp on the bit fields, rounding uses nearbyint
// on a scaled value.
#pragma once

#include <cmath>
#include <cstdint>

#include "acl/acl_base.h"

namespace test_support {

// Exact value of the element at p, of dtype FLOAT, FLOAT16 or BFLOAT16.
double DecodeElement(const void* p, aclDataType type);

// v rounded to nearest (ties to even) in type's format, with overflow to infinity and gradual underflow.
double RoundToType(double v, aclDataType type);

// Size of one unit in the last place of type's format at the magnitude of v (the subnormal spacing near 0).
double UlpOf(double v, aclDataType type);

// Encodes v (already representable in type) into dst.
void EncodeElement(double v, aclDataType type, void* dst);

// CANN's type promotion within {FLOAT, FLOAT16, BFLOAT16}.
aclDataType PromoteTypes(aclDataType a, aclDataType b);

struct ReferenceValue {
    double value = 0;                   // the formula in float64, with fp32's range at every step
    bool nan_acceptable = false;        // -x*y lies within 0.1 of exp's overflow threshold: NaN or value
    bool nonfinite_acceptable = false;  // an intermediate within fp32's subnormal spacing of 0, times inf
    double absolute_slack = 0;          // subnormal intermediates: their spacing carried to the result
};

// cof * g * (-y * e) / (1 + e), e = exp(-x*y), evaluated step by step in float64 from the fp32-rounded
// product x*y; a step whose magnitude exceeds the fp32 range becomes infinite and one below the normal range
// is rounded to fp32's subnormal spacing (or zero), as in the fp32 kernel, so inf/inf and 0*inf give NaN
// exactly where the kernel's do.
ReferenceValue SoftMarginLossGradReference(double x, double y, double g, double cof);

// L = max(0, -t) + log(1 + exp(-|t|)) with t = x*y rounded to fp32 (as for the backward), everything after
// the product in float64 (log1p for the logarithm). NaN when t is NaN; t = +inf gives 0, t = -inf +inf.
// Where exp(-|t|) is below fp32's normal range the kernel keeps only its subnormal bits: two subnormal
// spacings are granted as absolute slack there.
ReferenceValue SoftMarginLossReference(double x, double y);

// The reference of one element of the operator table's `operator_name` (ops/operator_table.h), from its
// inputs in the operator's order; cof scales a gradient (1/N for mean). A new operator adds its case here.
ReferenceValue OperatorElementReference(const char* operator_name, const double* inputs, double cof);

// Checks an element of out against the reference: promote-type rounding, conversion to out's type, and the
// tolerances of docs/contract.md section 4 (FLOAT: 8 ulp; FLOAT16/BFLOAT16: 1 ulp of the promote type; plus
// one ulp of out's type when out is narrower). Returns an empty string when it matches, else a description.
const char* CheckElement(const ReferenceValue& reference, aclDataType promote, aclDataType out_type, double got,
                         double* expected_out);

// A running sum accurate to far below an fp32 ulp whatever the order: double-double accumulation (TwoSum keeps
// each addition's rounding error). An infinite or NaN term makes the total the plain sum.
class AccurateSummer {
public:
    void Add(double v) {
        const double sum = high_ + v;
        const double virtual_v = sum - high_;
        low_ += (high_ - (sum - virtual_v)) + (v - virtual_v);
        high_ = sum;
    }
    double Total() const { return std::isfinite(high_) ? high_ + low_ : high_; }

private:
    double high_ = 0, low_ = 0;
};

// Checks a mean or sum of aclnnSoftMarginLoss (got, in out's type) against exact_sum, the exact sum of the
// float64 losses of its n terms (NaN when a loss is NaN). The kernel's order is CANN's: the sum rounded to fp32
// -- infinity when it exceeds FLT_MAX, even if the mean would not -- then, for mean, times 1/(float)n. Within 10
// fp32 ulp (each fp32 term is within 8 ulp and all are non-negative; the fp32 sum and 1/n round), plus an ulp
// of the promote type and of out's type where they are narrower; a sum within that tolerance of the fp32
// overflow boundary may be finite or infinite. Returns an empty string when it matches.
const char* CheckReducedLoss(double exact_sum, int64_t n, bool mean, aclDataType promote, aclDataType out_type,
                             double got, double* expected_out);

}  // namespace test_support
