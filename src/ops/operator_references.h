// The tests' float64 models of the operators, one function per row of the operator table: each element's
// value from its inputs' values, in float64 with fp32's range where the kernel's steps would leave it. They
// share no code with the library's kernels (which never call them); the operator table names each row's model
// so that every test layer -- the numeric tests, the fuzz harness, the stress program -- checks every row the
// same way (tests/support/reference.h has the tolerances).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace aclnn_cpu::references {

// One element of a reference.
struct ReferenceElement {
    double value = 0;                   // the formula in float64
    bool nan_acceptable = false;        // either NaN or the value is right (an input at a threshold's edge)
    bool nonfinite_acceptable = false;  // any non-finite result is right (0 * inf at fp32's subnormal edge)
    double absolute_slack = 0;          // subnormal intermediates: their spacing carried to the result
    double ulps = 8;                    // FLOAT results within this many ulp of the value (FLOAT16, BFLOAT16: 1)
};

// What a reference knows about its call besides the element's inputs.
struct ReferenceCall {
    const double* parameters;            // the row's parameters in order
    double scale = 1;                    // 1, or a gradient's mean 1/N (N by the row's MeanDivisor)
    bool single_element_gradient = false;  // the incoming gradient (the row's, by its role) has one element
    unsigned given_inputs = ~0u;           // bit k set: the row's input k is given (clear: an absent optional one)
    bool Given(int k) const { return (given_inputs >> k) & 1u; }
};

// inputs: the element's input values in the operator's order (absent optional inputs left out).
using ElementReference = ReferenceElement (*)(const double* inputs, const ReferenceCall& call);

// An operator along a dim: the n values of a row of each input (in the operator's order) to the row's n results,
// each with the error the kernel's fp32 steps may add (absolute_slack) besides the final rounding.
using RowReference = void (*)(const double* const* inputs, int64_t n, ReferenceElement* out);

// v with fp32's range and fp32's subnormal spacing, float64's precision otherwise: a step overflows to
// infinity, and below the normal range keeps only fp32's subnormal bits, as it does in the kernel (so exp(-200)
// is 0 there, and 0 * inf gives NaN exactly when the fp32 formula does).
inline double WithFloatRange(double v) {
    if (!std::isfinite(v)) return v;
    const double rounded = static_cast<double>(static_cast<float>(v));
    if (std::isinf(rounded) || std::fabs(v) < 0x1p-126) return rounded;
    return v;
}

inline double RoundToFloat(double v) { return static_cast<double>(static_cast<float>(v)); }

constexpr double kExpOverflowThreshold = 88.72283935546875;  // largest t with expf(t) finite is just below

// aclnnSoftMarginLossBackward: cof * g * (-y * e) / (1 + e), e = exp(-x*y), step by step from the fp32-rounded
// product x*y (every implementation rounds it: exp turns its half-ulp into |p| * 2^-24 relative, which the NPU
// shows too; docs/compatibility.md). inputs: gradOutput, self, target.
inline ReferenceElement SoftMarginLossGrad(const double* in, const ReferenceCall& call) {
    const double scale = call.scale;
    const double g = in[0], x = in[1], y = in[2];
    const double t = -RoundToFloat(x * y);
    const double e = WithFloatRange(std::exp(t));
    const double num = WithFloatRange(-y * e);
    const double den = WithFloatRange(e + 1.0);
    const double q = WithFloatRange(num / den);
    const double gs = WithFloatRange(g * scale);
    ReferenceElement result;
    result.value = WithFloatRange(q * gs);
    result.nan_acceptable = std::fabs(t - kExpOverflowThreshold) < 0.1;
    // Below fp32's normal range an intermediate keeps only its subnormal bits, and one spacing there is a large
    // relative error, scaled up by gradOutput: that accuracy of the fp32 formula is granted.
    if (e < 0x1p-126 || std::fabs(num) < 0x1p-126 || std::fabs(q) < 0x1p-126) {
        const double q_slack = (std::fabs(y) + 1.0) * 0x1p-147;  // two subnormal spacings of e, num and q
        if (std::isinf(gs)) {
            result.nonfinite_acceptable = std::fabs(q) <= q_slack;  // 0 * inf (NaN) or +-inf
        } else {
            result.absolute_slack = q_slack * std::fabs(gs);
        }
    }
    return result;
}

// aclnnSoftMarginLoss: max(0, -t) + log(1 + exp(-|t|)), t = x*y rounded to fp32 (as for the backward), the rest
// in float64 (log1p for the logarithm). Where exp(-|t|) is below fp32's normal range the kernel keeps only its
// subnormal bits: two subnormal spacings are granted. inputs: self, target.
inline ReferenceElement SoftMarginLoss(const double* in, const ReferenceCall&) {
    const double t = RoundToFloat(in[0] * in[1]);
    ReferenceElement result;
    if (std::isnan(t)) {
        result.value = t;
        return result;
    }
    const double e = std::exp(-std::fabs(t));
    result.value = std::max(0.0, -t) + std::log1p(e);
    if (e < 0x1p-126) result.absolute_slack = 0x1p-148;
    return result;
}

// aclnnMseLoss, aclnnMseLossOut: (x - y)^2. inputs: self, target.
inline ReferenceElement MseLoss(const double* in, const ReferenceCall&) {
    const double d = in[0] - in[1];
    ReferenceElement result;
    result.value = d * d;
    return result;
}

// aclnnMseLossBackward: (x - y) * (2 * scale) * g, scale = 1/numel(self) for mean. inputs: gradOutput, self,
// target.
inline ReferenceElement MseLossGrad(const double* in, const ReferenceCall& call) {
    const double scaled = WithFloatRange(WithFloatRange(in[1] - in[2]) * 2.0 * call.scale);
    ReferenceElement result;
    result.value = scaled * in[0];
    // A scaled difference below fp32's normal range keeps only its subnormal bits (then times gradOutput).
    if (scaled != 0 && std::fabs(scaled) < 0x1p-126) result.absolute_slack = 0x1p-148 * std::fabs(in[0]);
    return result;
}

// aclnnL1Loss: |x - y|. inputs: self, target.
inline ReferenceElement L1Loss(const double* in, const ReferenceCall&) {
    ReferenceElement result;
    result.value = std::fabs(in[0] - in[1]);
    return result;
}

// aclnnL1LossBackward: sign(x - y) * (g * scale), the sign 0 where x == y and where either is NaN (CANN's
// kernel compares, so a NaN compares false both ways). inputs: gradOutput, self, target.
inline ReferenceElement L1LossGrad(const double* in, const ReferenceCall& call) {
    const double scale = call.scale;
    const double x = in[1], y = in[2];
    const double sign = x < y ? -1.0 : (x > y ? 1.0 : 0.0);
    const double scaled = WithFloatRange(in[0] * scale);
    ReferenceElement result;
    result.value = sign * scaled;
    if (scaled != 0 && std::fabs(scaled) < 0x1p-126) result.absolute_slack = 0x1p-148;  // subnormal g * norm
    return result;
}

// aclnnSmoothL1Loss: 0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (d = x - y); beta == 0 is |d|. CANN's
// kernel multiplies by 1/beta, which it takes as 0 for beta below 1e-6: the quadratic part is then 0.
// parameters: reduction, beta. inputs: self, target.
inline ReferenceElement SmoothL1Loss(const double* in, const ReferenceCall& call) {
    const double beta = static_cast<double>(static_cast<float>(call.parameters[1]));
    const double d = WithFloatRange(in[0] - in[1]);  // the kernel's fp32 difference: beyond its range, +-inf
    const double a = std::fabs(d);
    ReferenceElement result;
    if (a < beta) {
        const double half_square = WithFloatRange(0.5 * d * d);
        result.value = beta < 1e-6 ? 0.0 : half_square / beta;
        // A half square below fp32's normal range keeps only its subnormal bits (then times 1/beta).
        if (beta >= 1e-6 && half_square != 0 && half_square < 0x1p-126) result.absolute_slack = 0x1p-148 / beta;
    } else {
        result.value = a - 0.5 * beta;
    }
    return result;
}

// aclnnSmoothL1LossBackward: ((x - y) / beta) * g * scale inside |x - y| < beta, sign(x - y) * g * scale outside,
// as CANN's kernel composes it: P (1 past +beta) + N (-1 past -beta) + S ((x - y) / beta inside). Its 1/beta is NaN
// for beta below 1e-6, and its comparisons are strict where gradOut has several elements and include the edges
// where it has one: so at |x - y| == beta the first gives the inside formula (beta * (1/beta),
// which rounds to 1 or just below), and x == y with beta == 0 gives NaN for the first, 0 for the second.
// parameters: reduction, beta. inputs: gradOut, self, target.
inline ReferenceElement SmoothL1LossGrad(const double* in, const ReferenceCall& call) {
    const double beta = static_cast<double>(static_cast<float>(call.parameters[1]));
    const bool edges = call.single_element_gradient;
    const double scale = call.scale;
    const double g = in[0], x = WithFloatRange(in[1] - in[2]);  // fp32's difference: beyond its range, +-inf
    const double inverse = beta < 1e-6 ? NAN : 1.0 / beta;
    const double positive = (edges ? x >= beta : x > beta) ? 1.0 : 0.0;
    const double negative = (edges ? x <= -beta : x < -beta) ? -1.0 : 0.0;
    const double inside = (edges ? std::fabs(x) >= beta : std::fabs(x) > beta) ? 0.0 : WithFloatRange(x * inverse);
    ReferenceElement result;
    result.value = WithFloatRange(((positive + negative) + inside) * g) * scale;
    // A slope below fp32's normal range keeps only its subnormal bits (then times gradOut and the mean's scale).
    if (inside != 0 && std::fabs(inside) < 0x1p-126) result.absolute_slack = 0x1p-148 * std::fabs(g) * scale;
    return result;
}

// Whether a float64 intermediate lies so near fp32's overflow threshold that fp32's own rounding of the steps
// before it decides between a finite value and infinity (and then between a number and NaN downstream).
inline bool NearFloatOverflow(double v) {
    const double threshold = 0x1.ffffffp127;  // FLT_MAX plus half its ulp: fp32 rounds from here on to infinity
    return std::fabs(std::fabs(v) - threshold) <= threshold * 0x1p-20;
}

// The logits losses' DAG in fp32 steps, for inputs where the kernels keep it (a non-finite x, y or posWeight;
// a result past fp32's range): w * ((1 - y) x - lw * log sigmoid(x)), lw = (pw - 1) y + 1, log sigmoid(x) =
// min(x, 0) - log1p(exp(-|x|)).
inline ReferenceElement BinaryCrossEntropyWithLogitsInDagOrder(double x, double y, double w, double pw) {
    const double softplus = std::log1p(std::exp(-std::fabs(x)));
    const double log_sigmoid = WithFloatRange(std::min(x, 0.0) - softplus);
    // An absent posWeight is 1, as CANN's op_api passes it: (1 - 1) * y + 1 is 1, but NaN for an infinite y.
    const double log_weight = WithFloatRange(WithFloatRange(WithFloatRange(pw - 1.0) * y) + 1.0);
    const double weighted_log = WithFloatRange(log_sigmoid * log_weight);
    const double linear = WithFloatRange(WithFloatRange(1.0 - y) * x);
    ReferenceElement result;
    result.value = WithFloatRange(WithFloatRange(linear - weighted_log) * w);
    result.absolute_slack = (std::fabs(linear) + std::fabs(weighted_log)) * 0x1p-21 * std::fabs(w);
    result.nan_acceptable = true;  // an infinite weight or x times a loss that is 0 in one form
    return result;
}

// aclnnBinaryCrossEntropyWithLogits: the exact value of the DAG's formula, w ((1 - y) x + lw softplus(-x)),
// written w ((1 - y) softplus(x) + pw y softplus(-x)) (equal in exact arithmetic; two non-negative terms for y
// in [0, 1] and pw >= 0), in long double; the kernel is within 2 ulp of it (ulps = 2). Outside that domain the
// terms may cancel, and their fp32 roundings are granted. pw = posWeight where given (else 1), w = weight where
// given (else 1). parameters: reduction. inputs: self, target[, weight][, posWeight].
inline ReferenceElement BinaryCrossEntropyWithLogits(const double* in, const ReferenceCall& call) {
    const double x = in[0], y = in[1];
    int next = 2;
    const double w = call.Given(2) ? in[next++] : 1.0;
    const double pw = call.Given(3) ? in[next] : 1.0;
    if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(pw))
        return BinaryCrossEntropyWithLogitsInDagOrder(x, y, w, pw);
    const long double lx = x, ly = y, lw = w, lp = pw;
    const long double tail = std::log1p(std::exp(-std::fabs(lx)));
    const long double softplus_minus = tail + std::max(-lx, 0.0L), softplus_plus = tail + std::max(lx, 0.0L);
    const long double first = (1 - ly) * softplus_plus, second = lp * ly * softplus_minus;
    ReferenceElement result;
    result.value = static_cast<double>(lw * (first + second));
    result.ulps = 2;
    if (first < 0 || second < 0)
        result.absolute_slack = static_cast<double>((std::fabs(first) + std::fabs(second)) * std::fabs(lw)) * 0x1p-21;
    if (std::fabs(result.value) < 0x1p-126) result.absolute_slack += 0x1p-148;  // a subnormal softplus term
    if (std::fabs(result.value) >= 0x1.ffffffp127) return BinaryCrossEntropyWithLogitsInDagOrder(x, y, w, pw);
    return result;
}

// The gradient's DAG in fp32 steps, for inputs where the kernel keeps it (a non-finite input or result):
// g * w * ((p + 1 - y) sigmoid(x) - p) * scale, p = pw * y.
inline ReferenceElement BinaryCrossEntropyWithLogitsGradInDagOrder(double g, double x, double y, double w, double pw,
                                                                   double scale) {
    const double p = WithFloatRange(pw * y);
    const double sigmoid = 1.0 / (1.0 + std::exp(-x));
    const double coefficient = WithFloatRange(WithFloatRange(p + 1.0) - y);
    const double product = WithFloatRange(coefficient * sigmoid);
    const double slope = WithFloatRange(product - p);
    ReferenceElement result;
    result.value = WithFloatRange(WithFloatRange(WithFloatRange(slope * g) * w) * scale);
    result.absolute_slack = (std::fabs(coefficient) + std::fabs(p)) * 0x1p-21 * std::fabs(g * w * scale);
    result.nan_acceptable = true;
    result.nonfinite_acceptable = !std::isfinite(g) || !std::isfinite(w) || !std::isfinite(g * w * scale);
    return result;
}

// aclnnBinaryCrossEntropyWithLogitsBackward: the exact value of g * w * ((p + 1 - y) sigmoid(x) - p) * scale,
// written g * w * scale * ((1 - y) sigmoid(x) - p sigmoid(-x)), p = pw * y where posWeight is given (else y),
// w = weight where given (else 1), scale 1/numel(self) for mean; in long double; the kernel is within 2 ulp of
// it (ulps = 2) wherever the inputs and the result are finite. parameters: reduction. inputs: gradOutput, self,
// target[, weight][, posWeight].
inline ReferenceElement BinaryCrossEntropyWithLogitsGrad(const double* in, const ReferenceCall& call) {
    const double g = in[0], x = in[1], y = in[2];
    int next = 3;
    const double w = call.Given(3) ? in[next++] : 1.0;
    const double pw = call.Given(4) ? in[next] : 1.0;
    if (!std::isfinite(g) || !std::isfinite(x) || !std::isfinite(y) || !std::isfinite(w) || !std::isfinite(pw))
        return BinaryCrossEntropyWithLogitsGradInDagOrder(g, x, y, w, pw, call.scale);
    const long double lx = x, ly = y;
    const long double sigmoid_plus = 1 / (1 + std::exp(-lx)), sigmoid_minus = 1 / (1 + std::exp(lx));
    const long double slope = (1 - ly) * sigmoid_plus - static_cast<long double>(pw) * ly * sigmoid_minus;
    ReferenceElement result;
    result.value = static_cast<double>(static_cast<long double>(g) * w * call.scale * slope);
    result.ulps = 2;
    if (std::fabs(result.value) >= 0x1.ffffffp127)  // past fp32's range: the kernel's DAG order decides
        return BinaryCrossEntropyWithLogitsGradInDagOrder(g, x, y, w, pw, call.scale);
    return result;
}

// aclnnKlDivBackward: -(t * g) * scale, t = target, or exp(target) with logTarget; self does not enter. scale
// is 1, 1/N for mean or 1/(first dim) for batchmean. Each fp32 step's range as the kernel's; a product or exp
// below fp32's normal range keeps only its subnormal spacing. parameters: reduction, logTarget. inputs:
// gradOutput, self, target.
inline ReferenceElement KlDivGrad(const double* in, const ReferenceCall& call) {
    const double g = in[0], y = in[2];
    const bool log_target = call.parameters[1] != 0.0;
    const double t = log_target ? WithFloatRange(std::exp(y)) : y;
    const double product = WithFloatRange(t * g);
    ReferenceElement result;
    result.value = WithFloatRange(-product * call.scale);
    if (product != 0 && std::fabs(product) < 0x1p-126) result.absolute_slack += 0x1p-149 * call.scale;
    if (log_target && t < 0x1p-126) result.absolute_slack += 0x1p-149 * std::fabs(g) * call.scale;
    if (NearFloatOverflow(t * g) || (log_target && NearFloatOverflow(std::exp(y)))) {
        result.nan_acceptable = true;
        result.nonfinite_acceptable = true;
    }
    // exp(target) at fp32's edge of overflow, times a zero gradient: NaN (inf * 0) or 0.
    if (log_target && g == 0 && NearFloatOverflow(std::exp(y))) result.nan_acceptable = true;
    return result;
}

// max(log(v), -100): log(0) = -inf gives -100, a negative v NaN.
inline double ClampedLog(double v) {
    if (std::isnan(v) || v < 0) return NAN;
    return v == 0 ? -100.0 : std::max(std::log(v), -100.0);
}

// aclnnBinaryCrossEntropy: -w (y max(log x, -100) + (1 - y) max(log(1 - x), -100)), 1 - x rounded to fp32 as
// the kernel forms it (so log(1 - x) is 0 for x below fp32's half ulp of 1, not -x). The kernel's log is within
// 1.485 ulp of the exact one (kernels/vector_log-inl.h, checked over every fp32 input) and its product with y
// rounds once more; the terms may cancel where y lies outside [0, 1]: 4 half ulps of each term are granted.
// parameters: reduction. inputs: self, target[, weight].
inline ReferenceElement BinaryCrossEntropy(const double* in, const ReferenceCall& call) {
    const double x = in[0], y = in[1];
    const double w = call.Given(2) ? in[2] : 1.0;
    const double positive = WithFloatRange(ClampedLog(x) * y);
    const double negative = WithFloatRange(ClampedLog(RoundToFloat(1.0 - x)) * WithFloatRange(1.0 - y));
    const double loss = WithFloatRange(-(positive + negative));
    ReferenceElement result;
    result.value = WithFloatRange(loss * w);
    result.absolute_slack = (std::fabs(positive) + std::fabs(negative)) * std::fabs(w) * 0x1p-22;
    if (NearFloatOverflow(positive) || NearFloatOverflow(negative) || NearFloatOverflow(loss) ||
        NearFloatOverflow(loss * w) || std::isinf(w) || std::isinf(y)) {
        result.nan_acceptable = true;
        result.nonfinite_acceptable = true;
    }
    return result;
}

// aclnnBinaryCrossEntropyBackward: g (x - y) / max((1 - x) x, 1e-12f) * w * scale, w = weight where given (else
// 1), scale 1/numel(self) for mean. parameters: reduction. inputs: gradOutput, self, target[, weight].
inline ReferenceElement BinaryCrossEntropyGrad(const double* in, const ReferenceCall& call) {
    const double g = in[0], x = in[1], y = in[2];
    const double w = call.Given(3) ? in[3] : 1.0;
    const double epsilon = static_cast<double>(1e-12f);
    const double product = WithFloatRange(RoundToFloat(1.0 - x) * x);
    const double denominator = product < epsilon ? epsilon : product;
    const double numerator = WithFloatRange(g * WithFloatRange(x - y));
    const double quotient = WithFloatRange(numerator / denominator);
    ReferenceElement result;
    result.value = WithFloatRange(WithFloatRange(quotient * w) * call.scale);
    // The product near the clamp: the rounding of (1 - x) x may move it across 1e-12 either way.
    if (std::fabs(product - epsilon) <= epsilon * 0x1p-20)
        result.absolute_slack = std::fabs(numerator / epsilon * w * call.scale) * 0x1p-19;
    if (numerator != 0 && std::fabs(numerator) < 0x1p-126)
        result.absolute_slack += 0x1p-149 / denominator * std::fabs(w) * call.scale;
    if (NearFloatOverflow(numerator) || NearFloatOverflow(quotient) || NearFloatOverflow(quotient * w) ||
        NearFloatOverflow(g * (x - y)) || NearFloatOverflow(x - y) || NearFloatOverflow((1.0 - x) * x) ||
        std::isinf(w * call.scale) || std::isinf(g)) {
        result.nan_acceptable = true;
        result.nonfinite_acceptable = true;
    }
    return result;
}

// aclnnLogit: ln(z / (1 - z)) exactly, z the input clamped as CANN's kernel clamps it in fp32 where eps >= 0 (the
// upper end 1 - eps first, then eps; a NaN input stays NaN). parameters: eps. inputs: input.
inline ReferenceElement Logit(const double* in, const ReferenceCall& call) {
    const float eps = static_cast<float>(call.parameters[0]);
    double z = in[0];
    if (eps >= 0 && !std::isnan(z)) {
        const double upper = static_cast<double>(1.0f - eps);
        z = z <= upper ? z : upper;
        z = z >= eps ? z : static_cast<double>(eps);
    }
    ReferenceElement result;
    const long double q = static_cast<long double>(z) / (1.0L - static_cast<long double>(z));
    result.value = static_cast<double>(std::log(q));
    result.ulps = 1;
    return result;
}

// aclnnLogitGrad: dy / (x (1 - x)) exactly inside CANN's window, its fp32 [eps, 1 - eps] (eps >= 0; 0 outside)
// or [0, 1] (eps < 0 or NaN; NaN outside), both ends kept; a NaN x is outside. parameters: eps. inputs: x, dy.
inline ReferenceElement LogitGrad(const double* in, const ReferenceCall& call) {
    const float eps = static_cast<float>(call.parameters[0]);
    const float lower = eps >= 0 ? eps : 0.0f;
    const double x = in[0], dy = in[1];
    ReferenceElement result;
    result.ulps = 1;
    if (!(x >= lower && x <= static_cast<double>(1.0f - lower))) {
        result.value = eps >= 0 ? 0.0 : std::nan("");
        return result;
    }
    const long double lx = x;
    result.value = static_cast<double>(static_cast<long double>(dy) / (lx * (1.0L - lx)));
    return result;
}

// The softmax family, row by row, in long double: the formulas' exact values (the max taken out before exp, as
// the kernels do, changes nothing in exact arithmetic). NaN, +inf or only -inf in a row: NaN everywhere. The
// slack: u = 2^-24 (half an fp32 ulp) per fp32 step the kernels take -- x - max rounds (|x - max| u, which exp
// turns into a relative error), exp and log within 2 ulp, each product, quotient and difference rounds, and the
// row's sum is its exact value rounded once.
namespace softmax_rows {

constexpr long double kU = 0x1p-24L;
constexpr double kTiny = 0x1p-148;  // subnormal results: their spacing

// The exact sum of terms in float64 (Neumaier's compensated sum: far below an fp32 ulp of the result), and the
// most the kernels' sum may differ from it before its rounding to fp32: float64 lanes of n / 16 terms each, added
// in a tree, so (n / 16 + 4) float64 roundings of at most the terms' total magnitude each.
struct RowSum {
    double value = 0, compensation = 0, magnitude = 0;
    int64_t count = 0;
    void Add(double term) {
        const double sum = value + term;
        compensation += std::fabs(value) >= std::fabs(term) ? (value - sum) + term : (term - sum) + value;
        value = sum;
        magnitude += std::fabs(term);
        ++count;
    }
    double Total() const { return std::isfinite(value) ? value + compensation : value; }
    double KernelError() const { return static_cast<double>(count / 16 + 4) * 0x1p-53 * magnitude; }
};

inline long double Max(const double* x, int64_t n) {
    long double m = -HUGE_VALL;
    for (int64_t i = 0; i < n; ++i) m = std::isnan(x[i]) || x[i] > m ? x[i] : m;
    return m;
}

// The sum of exp(x - max), and the mean of |x - max| the probabilities weigh (the sum's relative error from the
// rounded differences, in units of u).
inline long double SumOfExp(const double* x, int64_t n, long double max, long double* weighted_distance) {
    long double sum = 0, weighted = 0;
    for (int64_t i = 0; i < n; ++i) {
        const long double d = static_cast<long double>(x[i]) - max;
        const long double e = std::exp(d);
        sum += e;
        weighted += e * std::fabs(d);
    }
    *weighted_distance = sum > 0 ? weighted / sum : 0;
    return sum;
}

}  // namespace softmax_rows

// aclnnSoftmax: exp(x - max) / sum. inputs: self.
inline void SoftmaxRow(const double* const* in, int64_t n, ReferenceElement* out) {
    long double h = 0;
    const long double max = softmax_rows::Max(in[0], n);
    const long double sum = softmax_rows::SumOfExp(in[0], n, max, &h);
    for (int64_t i = 0; i < n; ++i) {
        const long double d = static_cast<long double>(in[0][i]) - max;
        const long double p = std::exp(d) / sum;
        out[i].value = static_cast<double>(p);
        out[i].ulps = 1;
        out[i].absolute_slack =
            static_cast<double>(p * softmax_rows::kU * (std::fabs(d) + h + 12)) + softmax_rows::kTiny;
    }
}

// aclnnLogSoftmax: (x - max) - log(sum). inputs: self.
inline void LogSoftmaxRow(const double* const* in, int64_t n, ReferenceElement* out) {
    long double h = 0;
    const long double max = softmax_rows::Max(in[0], n);
    const long double log_sum = std::log(softmax_rows::SumOfExp(in[0], n, max, &h));
    for (int64_t i = 0; i < n; ++i) {
        const long double d = static_cast<long double>(in[0][i]) - max;
        out[i].value = static_cast<double>(d - log_sum);
        out[i].ulps = 1;
        out[i].absolute_slack = static_cast<double>(softmax_rows::kU * (std::fabs(d) + 4 * log_sum + h + 12));
    }
}

// aclnnSoftmaxBackward: y g - y sum(y g), each product and the sum with fp32's range (an overflow there is the
// kernel's). inputs: gradOutput g, output y.
inline void SoftmaxBackwardRow(const double* const* in, int64_t n, ReferenceElement* out) {
    softmax_rows::RowSum sum;
    for (int64_t i = 0; i < n; ++i) sum.Add(WithFloatRange(in[1][i] * in[0][i]));
    const double s = WithFloatRange(sum.Total());
    for (int64_t i = 0; i < n; ++i) {
        const double y = in[1][i];
        const double p = WithFloatRange(y * in[0][i]), q = WithFloatRange(y * s);
        out[i].value = p - q;
        out[i].ulps = 1;
        out[i].absolute_slack = static_cast<double>(4 * softmax_rows::kU *
                                                    (std::fabs(p) + std::fabs(y) * (std::fabs(s) + sum.magnitude))) +
                                softmax_rows::kTiny;
    }
}

// aclnnLogSoftmaxBackward: g - exp(y) sum(g), exp, the sum and the product with fp32's range. Where exp(y)
// overflows and the sum's error bound reaches 0, inf * 0 may give NaN: any non-finite result is right.
// inputs: gradOutput g, output y.
inline void LogSoftmaxBackwardRow(const double* const* in, int64_t n, ReferenceElement* out) {
    softmax_rows::RowSum sum;
    for (int64_t i = 0; i < n; ++i) sum.Add(in[0][i]);
    const double s = WithFloatRange(sum.Total());
    const double s_error = sum.KernelError();
    for (int64_t i = 0; i < n; ++i) {
        const double e = WithFloatRange(std::exp(in[1][i]));
        const double t = WithFloatRange(e * s);
        out[i].value = in[0][i] - t;
        out[i].ulps = 1;
        out[i].nonfinite_acceptable = std::isinf(e) && std::fabs(sum.Total()) <= s_error;
        const double fp32_steps = static_cast<double>(4 * softmax_rows::kU * (std::fabs(in[0][i]) + 2 * std::fabs(t)));
        const double sum_error = e * (s_error + static_cast<double>(softmax_rows::kU) * std::fabs(s));
        out[i].absolute_slack = fp32_steps + sum_error + softmax_rows::kTiny;
    }
}

}  // namespace aclnn_cpu::references
