// The tests' own float64 models: the three element formats (decoding uses ldexp on the bit fields, rounding uses
// nearbyint on a scaled value), the operators' elements through the operator table's float64 references
// (ops/operator_references.h), and the tolerances they are checked with. None of it shares code with the
// library.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "acl/acl_base.h"
#include "ops/operator_table.h"

namespace test_support {

// Exact value of the element at p, of dtype FLOAT, FLOAT16 or BFLOAT16.
// BOOL and the signed and unsigned integer types the operators read.
bool IsIntegerType(aclDataType type);
double DecodeElement(const void* p, aclDataType type);

// v rounded to nearest (ties to even) in type's format, with overflow to infinity and gradual underflow.
double RoundToType(double v, aclDataType type);

// Size of one unit in the last place of type's format at the magnitude of v (the subnormal spacing near 0).
double UlpOf(double v, aclDataType type);

// Encodes v (already representable in type) into dst.
void EncodeElement(double v, aclDataType type, void* dst);

// CANN's type promotion within {FLOAT, FLOAT16, BFLOAT16}.
aclDataType PromoteTypes(aclDataType a, aclDataType b);

using ReferenceValue = aclnn_cpu::references::ReferenceElement;

// aclnnSoftMarginLossBackward's element (gradOutput g, self x, target y; cof = 1/N for mean).
ReferenceValue SoftMarginLossGradReference(double x, double y, double g, double cof);
// aclnnSoftMarginLoss's element (self x, target y).
ReferenceValue SoftMarginLossReference(double x, double y);

// What a row's element reference needs to know of a call besides the element's inputs.
struct RowCall {
    const aclnn_cpu::OperatorDescription* row = nullptr;
    std::vector<double> parameters;  // the row's, in order
    int64_t broadcast_count = 0;     // numel of the broadcast shape
    int64_t self_count = 0;          // numel of self (the row's self input)
    int64_t gradient_count = 0;      // numel of the row's incoming gradient (IncomingGradientInput), or 0
    unsigned given_inputs = ~0u;     // bit k set: the row's input k is given (clear: an absent optional one)
    int64_t first_dim = 1;           // the broadcast shape's first dim (1 for a 0-d shape)
};

// The reduction value of a call (parameter 0), or 0 for a row without one.
int64_t ReductionOf(const RowCall& call);
// A gradient's mean scale: 1/N by the row's MeanDivisor for reduction 1, 1/(first dim) for a batch mean, else 1.
double GradientScale(const RowCall& call);
// The row's float64 model of one element, from the present inputs' values in the row's order.
ReferenceValue RowElementReference(const RowCall& call, const double* inputs);
// The dtype a call of the row computes in: out's where the row computes in out's dtype, else the inputs' promoted.
aclDataType ComputeType(const aclnn_cpu::OperatorDescription& row, const std::vector<aclDataType>& input_types,
                        aclDataType out_type);

// An operator along a dim: the reference of every element of `shape` (row-major) from the present inputs' values
// there (row-major, already rounded to the dtype the row computes in where it casts them first).
std::vector<ReferenceValue> AlongDimReferences(const RowCall& call, const std::vector<std::vector<double>>& values,
                                               const std::vector<int64_t>& shape);

// CANN's promotion of the present inputs' types (one type stays; FLOAT with any gives FLOAT; FLOAT16 with
// BFLOAT16 gives FLOAT).
aclDataType PromoteAll(const std::vector<aclDataType>& types);

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
// extra_error: what the terms' own errors may add beyond that where they cancel (ReducedLossReference).
const char* CheckReducedLoss(double exact_sum, int64_t n, bool mean, aclDataType promote, aclDataType out_type,
                             double got, double* expected_out, double extra_error = 0);

// The reference of a mean or sum: the exact sum of the terms' float64 values, and the error the fp32 terms may
// carry into it beyond CheckReducedLoss's ulps of the sum -- each term's absolute slack, and where terms of
// both signs cancel, 8 fp32 ulp of the magnitude that cancelled (none when every term has one sign).
class ReducedLossReference {
public:
    void Add(const ReferenceValue& term, double value) {
        sum_.Add(value);
        magnitude_.Add(std::fabs(value));
        slack_ += term.absolute_slack;
        nan_acceptable_ = nan_acceptable_ || term.nan_acceptable;
        nonfinite_acceptable_ = nonfinite_acceptable_ || term.nonfinite_acceptable;
    }
    void Add(const ReferenceValue& term) { Add(term, term.value); }
    // A sum over the first dim adds each term rounded to the promote type (CANN rounds the none result, then
    // sums it). The kernel's fp32 term may differ from the float64 one by CheckElement's 8 fp32 ulp; where that
    // span holds a rounding midpoint of the promote type, the kernel's term may round the other way, so such a
    // term adds its promote-type ulp to the slack.
    void AddRounded(const ReferenceValue& term, aclDataType promote);
    double Total() const { return sum_.Total(); }
    double ExtraError() const {
        const double cancelled = magnitude_.Total() - std::fabs(sum_.Total());
        return slack_ + (std::isfinite(cancelled) && cancelled > 0 ? 8 * std::ldexp(cancelled, -23) : 0.0);
    }
    // A term that may be NaN or infinite in the kernel's fp32 and not in float64 (or the other way) makes the
    // sum so too.
    const char* Check(int64_t n, bool mean, aclDataType promote, aclDataType out_type, double got,
                      double* expected_out) const {
        const char* problem = CheckReducedLoss(Total(), n, mean, promote, out_type, got, expected_out, ExtraError());
        if (problem[0] == '\0') return problem;
        if (nan_acceptable_ && (std::isnan(got) || std::isnan(*expected_out))) return "";
        if (nonfinite_acceptable_ && (!std::isfinite(got) || !std::isfinite(*expected_out))) return "";
        return problem;
    }

private:
    AccurateSummer sum_, magnitude_;
    double slack_ = 0;
    bool nan_acceptable_ = false, nonfinite_acceptable_ = false;
};

}  // namespace test_support
