// The SIMD arithmetic of the binary cross-entropy losses on logits: CANN's arch35 DAGs (ops-nn
// loss/sigmoid_cross_entropy_with_logits_v2, loss/sigmoid_cross_entropy_with_logits_grad_v2) as functors for
// the engine's tile loops, one instance per combination of the optional inputs, compiled once per SIMD target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/binary_cross_entropy_with_logits/bce_with_logits_kernels.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "kernels/vector_exp-inl.h"
#include "kernels/vector_nan-inl.h"
#include "kernels/vector_softplus-inl.h"
#include "ops/binary_cross_entropy_with_logits/bce_with_logits_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::binary_cross_entropy_with_logits::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The loss, in the DAG's order: ls = min(x, 0) - log(1 + exp(-|x|)) (log sigmoid(x)); with posWeight,
// ls = ls * ((pw - 1) * y + 1); then (1 - y) * x - ls, times weight. The logarithm term is log1p(exp(-|x|)) in
// one piece (kernels/vector_softplus-inl.h), as aclnnSoftMarginLoss computes it: the same formula, but where
// exp(-|x|) is below fp32's half ulp of 1 the term keeps its value rather than rounding to 0
// (docs/compatibility.md). Inputs after self and target: weight if kWeight, then posWeight if kPosWeight.
template <bool kWeight, bool kPosWeight>
struct BinaryCrossEntropyWithLogits {
    static constexpr int kInputs = 2 + kWeight + kPosWeight;
    static constexpr int kScaledInput = -1;

    explicit BinaryCrossEntropyWithLogits(const kernels::FunctorParameters&) {}

    template <class D>
    static HWY_INLINE hn::Vec<D> LogSigmoid(D d, hn::Vec<D> x) {
        const auto softplus = kernels::HWY_NAMESPACE::SoftplusOfMinusMagnitude(d, hn::Abs(x));
        return hn::Sub(kernels::HWY_NAMESPACE::MinPassingNaN(d, hn::Zero(d), x), softplus);
    }
    template <class D>
    static HWY_INLINE hn::Vec<D> Unweighted(D d, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> log_sigmoid) {
        const auto one = hn::Set(d, 1.0f);
        return hn::Sub(hn::Mul(hn::Sub(one, y), x), log_sigmoid);
    }
    template <class D>
    static HWY_INLINE hn::Vec<D> PosWeighted(D d, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> pos_weight) {
        const auto one = hn::Set(d, 1.0f);
        const auto log_weight = hn::Add(hn::Mul(hn::Sub(pos_weight, one), y), one);
        return Unweighted(d, x, y, hn::Mul(LogSigmoid(d, x), log_weight));
    }

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y) const {
        return Unweighted(d, x, y, LogSigmoid(d, x));
    }
    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> optional) const {
        if constexpr (kWeight) return hn::Mul(Unweighted(d, x, y, LogSigmoid(d, x)), optional);
        return PosWeighted(d, x, y, optional);
    }
    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> weight, hn::Vec<D> pos) const {
        return hn::Mul(PosWeighted(d, x, y, pos), weight);
    }
};

// The gradient, in the DAG's order: s = 1 / (exp(-x) + 1); p = pw * y; ((p + 1) - y) * s - p, times gradOutput,
// times weight, times the mean's coefficient (1 for none and sum: exact). CANN's op_api passes ones for an
// absent weight or posWeight, and 1 * y = y and v * 1 = v exactly, so leaving them out gives the same bits.
// exp is the project's VectorExp: NaN stays NaN; exp(-x) = +inf (x below about -88.7) makes s = 0.
template <bool kWeight, bool kPosWeight>
struct BinaryCrossEntropyWithLogitsGrad {
    static constexpr int kInputs = 3 + kWeight + kPosWeight;
    static constexpr int kScaledInput = -1;

    explicit BinaryCrossEntropyWithLogitsGrad(const kernels::FunctorParameters& parameters)
        : mean_coefficient(parameters.values[0]) {}

    template <class D>
    HWY_INLINE hn::Vec<D> Gradient(D d, hn::Vec<D> g, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> weighted_y) const {
        const auto one = hn::Set(d, 1.0f);
        const auto sigmoid = hn::Div(one, hn::Add(kernels::HWY_NAMESPACE::VectorExp(d, hn::Neg(x)), one));
        const auto slope = hn::Sub(hn::Mul(hn::Sub(hn::Add(weighted_y, one), y), sigmoid), weighted_y);
        return hn::Mul(slope, g);
    }

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> g, hn::Vec<D> x, hn::Vec<D> y) const {
        return hn::Mul(Gradient(d, g, x, y, y), hn::Set(d, mean_coefficient));
    }
    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> g, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> optional) const {
        const auto coefficient = hn::Set(d, mean_coefficient);
        if constexpr (kWeight) return hn::Mul(hn::Mul(Gradient(d, g, x, y, y), optional), coefficient);
        return hn::Mul(Gradient(d, g, x, y, hn::Mul(optional, y)), coefficient);
    }
    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> g, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> weight,
                                     hn::Vec<D> pos) const {
        return hn::Mul(hn::Mul(Gradient(d, g, x, y, hn::Mul(pos, y)), weight), hn::Set(d, mean_coefficient));
    }

    float mean_coefficient;
};

template <class Functor>
kernels::TileKernel Choose(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseTileKernel<Functor>(config, fusable);
}
using Loss00 = BinaryCrossEntropyWithLogits<false, false>;
using Loss10 = BinaryCrossEntropyWithLogits<true, false>;
using Loss01 = BinaryCrossEntropyWithLogits<false, true>;
using Loss11 = BinaryCrossEntropyWithLogits<true, true>;
using Grad00 = BinaryCrossEntropyWithLogitsGrad<false, false>;
using Grad10 = BinaryCrossEntropyWithLogitsGrad<true, false>;
using Grad01 = BinaryCrossEntropyWithLogitsGrad<false, true>;
using Grad11 = BinaryCrossEntropyWithLogitsGrad<true, true>;
kernels::TileKernel ChooseLoss(const kernels::KernelConfig& c, bool f) { return Choose<Loss00>(c, f); }
kernels::TileKernel ChooseWeightedLoss(const kernels::KernelConfig& c, bool f) { return Choose<Loss10>(c, f); }
kernels::TileKernel ChoosePosWeightedLoss(const kernels::KernelConfig& c, bool f) { return Choose<Loss01>(c, f); }
kernels::TileKernel ChooseBothWeightedLoss(const kernels::KernelConfig& c, bool f) { return Choose<Loss11>(c, f); }
kernels::TileKernel ChooseGradient(const kernels::KernelConfig& c, bool f) { return Choose<Grad00>(c, f); }
kernels::TileKernel ChooseWeightedGradient(const kernels::KernelConfig& c, bool f) { return Choose<Grad10>(c, f); }
kernels::TileKernel ChoosePosWeightedGradient(const kernels::KernelConfig& c, bool f) { return Choose<Grad01>(c, f); }
kernels::TileKernel ChooseBothWeightedGradient(const kernels::KernelConfig& c, bool f) { return Choose<Grad11>(c, f); }

}  // namespace aclnn_cpu::ops::binary_cross_entropy_with_logits::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclnn_cpu::ops::binary_cross_entropy_with_logits {

HWY_EXPORT(ChooseLoss);
HWY_EXPORT(ChooseWeightedLoss);
HWY_EXPORT(ChoosePosWeightedLoss);
HWY_EXPORT(ChooseBothWeightedLoss);
HWY_EXPORT(ChooseGradient);
HWY_EXPORT(ChooseWeightedGradient);
HWY_EXPORT(ChoosePosWeightedGradient);
HWY_EXPORT(ChooseBothWeightedGradient);

namespace {
kernels::TileKernel Loss(const kernels::KernelConfig& c, bool f) { return HWY_DYNAMIC_DISPATCH(ChooseLoss)(c, f); }
kernels::TileKernel WeightedLoss(const kernels::KernelConfig& c, bool f) {
    return HWY_DYNAMIC_DISPATCH(ChooseWeightedLoss)(c, f);
}
kernels::TileKernel PosWeightedLoss(const kernels::KernelConfig& c, bool f) {
    return HWY_DYNAMIC_DISPATCH(ChoosePosWeightedLoss)(c, f);
}
kernels::TileKernel BothWeightedLoss(const kernels::KernelConfig& c, bool f) {
    return HWY_DYNAMIC_DISPATCH(ChooseBothWeightedLoss)(c, f);
}
kernels::TileKernel Gradient(const kernels::KernelConfig& c, bool f) {
    return HWY_DYNAMIC_DISPATCH(ChooseGradient)(c, f);
}
kernels::TileKernel WeightedGradient(const kernels::KernelConfig& c, bool f) {
    return HWY_DYNAMIC_DISPATCH(ChooseWeightedGradient)(c, f);
}
kernels::TileKernel PosWeightedGradient(const kernels::KernelConfig& c, bool f) {
    return HWY_DYNAMIC_DISPATCH(ChoosePosWeightedGradient)(c, f);
}
kernels::TileKernel BothWeightedGradient(const kernels::KernelConfig& c, bool f) {
    return HWY_DYNAMIC_DISPATCH(ChooseBothWeightedGradient)(c, f);
}
}  // namespace

kernels::TileKernelChooser LossKernelChooser(OptionalInputs given) {
    if (given.weight) return given.pos_weight ? &BothWeightedLoss : &WeightedLoss;
    return given.pos_weight ? &PosWeightedLoss : &Loss;
}

kernels::TileKernelChooser GradientKernelChooser(OptionalInputs given) {
    if (given.weight) return given.pos_weight ? &BothWeightedGradient : &WeightedGradient;
    return given.pos_weight ? &PosWeightedGradient : &Gradient;
}

}  // namespace aclnn_cpu::ops::binary_cross_entropy_with_logits
#endif  // HWY_ONCE
