// The SIMD arithmetic of aclnnKlDivBackward: CANN's arch35 DAG (ops-nn loss/kl_div_loss_grad, op_kernel/arch35/
// kl_div_loss_grad_dag.h) as a functor for the engine's tile loops, compiled once per SIMD target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/kl_div_backward/kl_div_backward_kernels.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "kernels/vector_exp-inl.h"
#include "ops/kl_div_backward/kl_div_backward_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::kl_div_backward::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// In the DAG's order: t = target (or exp(target)); (t * gradOutput) * -1, times cof (1 for none and sum: exact).
// No rule for a zero target: 0 * g gives -0 for g > 0, as CANN's kernel. exp is the project's VectorExp.
template <bool kLogTarget>
struct KlDivGrad {
    static constexpr int kInputs = 2;  // gradOutput, target (self gives the shape only, and is not read)
    static constexpr int kScaledInput = -1;

    using Parameters = kernels::ScaleParameters;
    explicit KlDivGrad(const Parameters& parameters) : coefficient(parameters.scale) {}

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> g, hn::Vec<D> target) const {
        const auto t = kLogTarget ? kernels::HWY_NAMESPACE::VectorExp(d, target) : target;
        return hn::Mul(hn::Neg(hn::Mul(t, g)), hn::Set(d, coefficient));
    }

    float coefficient;
};

kernels::TileKernel ChooseGradient(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseTileKernel<KlDivGrad<false>>(config, fusable);
}
kernels::TileKernel ChooseLogTargetGradient(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseTileKernel<KlDivGrad<true>>(config, fusable);
}
kernels::ColumnSumKernel ChooseGradientColumnSums(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseColumnSumKernel<KlDivGrad<false>>(config, fusable);
}
kernels::ColumnSumKernel ChooseLogTargetGradientColumnSums(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseColumnSumKernel<KlDivGrad<true>>(config, fusable);
}

}  // namespace aclnn_cpu::ops::kl_div_backward::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclnn_cpu::ops::kl_div_backward {

HWY_EXPORT(ChooseGradient);
HWY_EXPORT(ChooseLogTargetGradient);
HWY_EXPORT(ChooseGradientColumnSums);
HWY_EXPORT(ChooseLogTargetGradientColumnSums);

namespace {
kernels::TileKernel Gradient(const kernels::KernelConfig& c, bool f) {
    return HWY_DYNAMIC_DISPATCH(ChooseGradient)(c, f);
}
kernels::TileKernel LogTargetGradient(const kernels::KernelConfig& c, bool f) {
    return HWY_DYNAMIC_DISPATCH(ChooseLogTargetGradient)(c, f);
}
kernels::ColumnSumKernel GradientColumnSums(const kernels::KernelConfig& c, bool f) {
    return HWY_DYNAMIC_DISPATCH(ChooseGradientColumnSums)(c, f);
}
kernels::ColumnSumKernel LogTargetGradientColumnSums(const kernels::KernelConfig& c, bool f) {
    return HWY_DYNAMIC_DISPATCH(ChooseLogTargetGradientColumnSums)(c, f);
}
}  // namespace

kernels::TileKernelChooser GradientKernelChooser(bool log_target) {
    return log_target ? &LogTargetGradient : &Gradient;
}

kernels::ColumnSumKernelChooser GradientColumnSumKernelChooser(bool log_target) {
    return log_target ? &LogTargetGradientColumnSums : &GradientColumnSums;
}

}  // namespace aclnn_cpu::ops::kl_div_backward
#endif  // HWY_ONCE
