#include "ops/nll_loss/nll_loss_plan.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "common/config.h"
#include "common/error_message.h"
#include "engine/for_each_row.h"
#include "engine/operand_address.h"
#include "engine/plan_operands.h"
#include "engine/scalar_access.h"
#include "validation/dtype_support.h"

namespace aclnn_cpu::ops::nll_loss {
namespace {

using engine::LoadIndex;
using engine::LoadValue;
using engine::RoundTo;
using engine::StoreValue;
using validation::DtypeSize;

// Samples per block: a block's sums are one float64 partial, the partials added in block order.
constexpr int64_t kBlockSamples = 4096;
// Up to this many elements of self a call runs on the caller's thread when its stream is idle.
constexpr int64_t kSmallElements = 65536;

float Fp32(double v) { return static_cast<float>(v); }

}  // namespace

NllPlan::NllPlan(const NllDescription& description, std::array<engine::PlanOperand, kOperands> operands)
    : description_(description), operands_(operands) {
    const std::vector<int64_t>& dims = operands_[kSelf].tensor->view_dims;
    self_elements_ = engine::ElementCount(dims);
    if (dims.size() <= 1) {
        classes_ = dims.empty() ? 1 : dims[0];
        samples_ = 1;
        return;
    }
    classes_ = dims[1];
    for (size_t d = 2; d < dims.size(); ++d) per_batch_ *= dims[d];
    samples_ = dims[0] * per_batch_;
}

int64_t NllPlan::ScoreOffset(int k, int64_t p, int64_t c) const {
    const aclTensor& t = *operands_[k].tensor;
    const int64_t size = DtypeSize(t.data_type);
    if (t.view_dims.size() <= 1) return t.view_dims.empty() ? 0 : c * t.strides[0] * size;
    int64_t offset = (p / per_batch_) * t.strides[0] + c * t.strides[1];
    int64_t rest = p % per_batch_;
    for (size_t d = t.view_dims.size(); d-- > 2;) {
        offset += rest % t.view_dims[d] * t.strides[d];
        rest /= t.view_dims[d];
    }
    return offset * size;
}

int64_t NllPlan::LinearOffset(int k, int64_t i) const { return engine::ElementByteOffset(*operands_[k].tensor, i); }

aclnnStatus NllPlan::ResolveAddresses(const char* caller, Bases* bases) const {
    return engine::AdmitPlanOperands(caller, operands_, bases);
}

aclnnStatus NllPlan::CheckAddresses(const char* caller) const {
    Bases bases{};
    return ResolveAddresses(caller, &bases);
}

bool NllPlan::IsSmall() const { return self_elements_ <= kSmallElements; }

int64_t NllPlan::TargetAt(const Bases& bases, int64_t sample) const {
    const int64_t t = LoadIndex(operands_[kTarget].tensor->data_type, bases[kTarget] + LinearOffset(kTarget, sample));
    return description_.target_as_int32 ? static_cast<int32_t>(static_cast<uint32_t>(t)) : t;
}

int64_t NllPlan::FirstBadTarget(const Bases& bases, int64_t* value) const {
    if (self_elements_ == 0 || description_.empty) return -1;
    for (int64_t p = 0; p < samples_; ++p) {
        const int64_t t = TargetAt(bases, p);
        if (!Ignored(t) && (t < 0 || t >= classes_)) {
            *value = t;
            return p;
        }
    }
    return -1;
}

aclError NllPlan::RefuseTarget(const char* caller, int64_t sample, int64_t value) const {
    static_assert(ACLNN_ERR_PARAM_INVALID == 161002, "the task's failure is the status CANN's checks give");
    // The sample's index in target's shape.
    const std::vector<int64_t>& dims = operands_[kTarget].tensor->view_dims;
    std::string index;
    int64_t rest = sample;
    for (size_t d = dims.size(); d-- > 0;) {
        index = std::to_string(rest % dims[d]) + (index.empty() ? "" : ", ") + index;
        rest /= dims[d];
    }
    SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                    "%s: Target %lld at [%s] of target is out of bounds: a target is a class index in [0, %lld) or "
                    "ignoreIndex %lld (CANN's kernel reads outside self's row for it).",
                    caller, static_cast<long long>(value), index.c_str(), static_cast<long long>(classes_),
                    static_cast<long long>(description_.ignore_index));
    return ACLNN_ERR_PARAM_INVALID;
}

bool NllPlan::OutputsOverlapInputs(const Bases& bases) const {
    for (int o : {kOut, kTotalWeightOut}) {
        if (operands_[o].tensor == nullptr) continue;
        const validation::ViewExtent& oe = operands_[o].extent;
        for (int k : {kSelf, kTarget, kWeight, kGradOutput, kTotalWeight}) {
            if (operands_[k].tensor == nullptr) continue;
            const validation::ViewExtent& ie = operands_[k].extent;
            if (engine::BytesIntersect(bases[k], bases[k] + (ie.end_byte - ie.first_byte), bases[o],
                                       bases[o] + (oe.end_byte - oe.first_byte)))
                return true;
        }
    }
    return false;
}

aclError NllPlan::Forward(const Bases& bases, int threads) const {
    const NllDescription& d = description_;
    const int32_t self_type = operands_[kSelf].tensor->data_type;
    const int32_t weight_type = operands_[kWeight].tensor->data_type;
    const int32_t out_type = operands_[kOut].tensor->data_type;
    const aclTensor* total_weight_out = operands_[kTotalWeightOut].tensor;
    const bool reduced = d.reduction != 0;
    auto write_totals = [&](double loss, double total_weight) {
        StoreValue(out_type, bases[kOut], loss);
        if (reduced) StoreValue(total_weight_out->data_type, bases[kTotalWeightOut], total_weight);
    };
    if (self_elements_ == 0 || d.empty) {
        // CANN's empty-self fills: a mean of nothing is NaN, a sum 0; none writes nothing.
        if (!reduced) return ACL_SUCCESS;
        const double fill = d.reduction == 1 ? std::numeric_limits<double>::quiet_NaN() : 0.0;
        const int64_t out_elements = operands_[kOut].extent.numel;
        for (int64_t i = 0; i < out_elements; ++i) StoreValue(out_type, bases[kOut] + LinearOffset(kOut, i), fill);
        StoreValue(total_weight_out->data_type, bases[kTotalWeightOut], 0.0);
        return ACL_SUCCESS;
    }
    // Sample p's loss -(w * x) (exact in float64: a product of two fp32 values) and weight; 0 and 0 if ignored.
    auto sample = [&](int64_t p, double* loss, double* weight) {
        const int64_t t = TargetAt(bases, p);
        if (Ignored(t) || t < 0 || t >= classes_) {  // out of range only if target changed since the check
            *loss = 0;
            *weight = 0;
            return;
        }
        *weight = LoadValue(weight_type, bases[kWeight] + LinearOffset(kWeight, t));
        *loss = -(*weight * LoadValue(self_type, bases[kSelf] + ScoreOffset(kSelf, p, t)));
    };
    if (d.one_sample_kernel) {
        double loss, weight;
        sample(0, &loss, &weight);
        const int64_t t = TargetAt(bases, 0);
        double y = RoundTo(d.kernel_type, Fp32(loss));  // an ignored target: 0, the mean's too
        if (d.reduction == 1 && !Ignored(t))
            y = weight == 0 ? std::numeric_limits<double>::quiet_NaN()
                            : -LoadValue(self_type, bases[kSelf] + ScoreOffset(kSelf, 0, t));
        write_totals(y, RoundTo(d.kernel_type, weight));
        return ACL_SUCCESS;
    }
    // none: each sample's loss rounded to fp32 (CANN's product), then to the kernel's dtype, then out's; written
    // after every read where out overlaps an input.
    const bool staged = !reduced && OutputsOverlapInputs(bases);
    std::unique_ptr<double[]> staging;
    if (staged) {
        staging.reset(new (std::nothrow) double[static_cast<size_t>(samples_)]);
        if (!staging) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    const int64_t blocks = (samples_ + kBlockSamples - 1) / kBlockSamples;
    std::unique_ptr<double[]> partial(new (std::nothrow) double[static_cast<size_t>(2 * blocks)]);
    if (!partial) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    engine::ParallelSlicesAligned(blocks, threads, 1, 1, [&](int64_t first, int64_t last) {
        for (int64_t b = first; b < last; ++b) {
            double loss_sum = 0, weight_sum = 0;
            for (int64_t p = b * kBlockSamples; p < std::min(samples_, (b + 1) * kBlockSamples); ++p) {
                double loss, weight;
                sample(p, &loss, &weight);
                if (!reduced) {
                    const double y = RoundTo(d.kernel_type, Fp32(loss));
                    if (staged) staging[static_cast<size_t>(p)] = y;
                    else StoreValue(out_type, bases[kOut] + LinearOffset(kOut, p), y);
                }
                loss_sum += loss;
                weight_sum += weight;
            }
            partial[static_cast<size_t>(2 * b)] = loss_sum;
            partial[static_cast<size_t>(2 * b + 1)] = weight_sum;
        }
    });
    if (staged)
        for (int64_t p = 0; p < samples_; ++p)
            StoreValue(out_type, bases[kOut] + LinearOffset(kOut, p), staging[static_cast<size_t>(p)]);
    if (!reduced) return ACL_SUCCESS;
    double loss_sum = 0, weight_sum = 0;
    for (int64_t b = 0; b < blocks; ++b) {
        loss_sum += partial[static_cast<size_t>(2 * b)];
        weight_sum += partial[static_cast<size_t>(2 * b + 1)];
    }
    // The kernel's fp32 sums, then its fp32 mean (0 / 0 where every sample is ignored: NaN).
    const float sum = Fp32(loss_sum), total_weight = Fp32(weight_sum);
    const float result = d.reduction == 1 ? Fp32(static_cast<double>(sum) / total_weight) : sum;
    write_totals(RoundTo(d.kernel_type, result), RoundTo(d.kernel_type, total_weight));
    return ACL_SUCCESS;
}

void NllPlan::ZeroFill(char* out, int threads) const {
    const aclTensor& t = *operands_[kOut].tensor;
    const int64_t size = DtypeSize(t.data_type);
    // Contiguous: one span of bytes (every dtype's zero is all zero bits).
    bool dense = true;
    int64_t expected = 1;
    for (size_t d = t.view_dims.size(); d-- > 0;) {
        dense = dense && (t.view_dims[d] == 1 || t.strides[d] == expected);
        expected *= t.view_dims[d];
    }
    if (dense) {
        engine::ParallelSlices(self_elements_, threads, 1 << 16, [&](int64_t begin, int64_t end) {
            std::memset(out + begin * size, 0, static_cast<size_t>((end - begin) * size));
        });
        return;
    }
    engine::ParallelSlicesAligned(samples_, threads, 1, 1, [&](int64_t begin, int64_t end) {
        for (int64_t p = begin; p < end; ++p)
            for (int64_t c = 0; c < classes_; ++c) std::memset(out + ScoreOffset(kOut, p, c), 0, size);
    });
}

aclError NllPlan::Backward(const Bases& bases, int threads) const {
    const NllDescription& d = description_;
    if (self_elements_ == 0) return ACL_SUCCESS;
    const int32_t grad_type = operands_[kGradOutput].tensor->data_type;
    const int32_t weight_type = operands_[kWeight].tensor->data_type;
    const int32_t out_type = operands_[kOut].tensor->data_type;
    const bool none = d.reduction == 0;
    // The kernel's fp32 scale: gradOutput's one value, divided by the total weight for a mean.
    float scale = 0;
    if (!none) {
        scale = Fp32(LoadValue(grad_type, bases[kGradOutput]));
        if (d.reduction == 1)
            scale = Fp32(static_cast<double>(scale) /
                         LoadValue(operands_[kTotalWeight].tensor->data_type, bases[kTotalWeight]));
    }
    // Sample p's class (-1: ignored) and gradient -(scale * w), rounded to fp32, then the kernel's dtype.
    auto sample = [&](int64_t p, int64_t* target, double* value) {
        const int64_t t = TargetAt(bases, p);
        *target = Ignored(t) || t < 0 || t >= classes_ ? -1 : t;
        if (*target < 0) return;
        const double g = none ? LoadValue(grad_type, bases[kGradOutput] + LinearOffset(kGradOutput, p)) : scale;
        const double w = LoadValue(weight_type, bases[kWeight] + LinearOffset(kWeight, t));
        *value = -RoundTo(d.kernel_type, Fp32(g * w));
    };
    if (OutputsOverlapInputs(bases)) {
        // Every read before the first write.
        std::unique_ptr<int64_t[]> targets(new (std::nothrow) int64_t[static_cast<size_t>(samples_)]);
        std::unique_ptr<double[]> values(new (std::nothrow) double[static_cast<size_t>(samples_)]);
        if (!targets || !values) return ACL_ERROR_RT_MEMORY_ALLOCATION;
        for (int64_t p = 0; p < samples_; ++p) sample(p, &targets[static_cast<size_t>(p)], &values[static_cast<size_t>(p)]);
        ZeroFill(bases[kOut], threads);
        for (int64_t p = 0; p < samples_; ++p)
            if (targets[static_cast<size_t>(p)] >= 0)
                StoreValue(out_type, bases[kOut] + ScoreOffset(kOut, p, targets[static_cast<size_t>(p)]),
                           values[static_cast<size_t>(p)]);
        return ACL_SUCCESS;
    }
    ZeroFill(bases[kOut], threads);
    engine::ParallelSlicesAligned(samples_, threads, kBlockSamples, 1, [&](int64_t begin, int64_t end) {
        for (int64_t p = begin; p < end; ++p) {
            int64_t t;
            double value = 0;
            sample(p, &t, &value);
            if (t >= 0) StoreValue(out_type, bases[kOut] + ScoreOffset(kOut, p, t), value);
        }
    });
    return ACL_SUCCESS;
}

aclnnStatus NllPlan::Bind(void*, uint64_t, rt::Task* task) const {
    Bases bases{};
    const char* caller = description_.phase2_name;
    aclnnStatus status = ResolveAddresses(caller, &bases);
    if (status != ACLNN_SUCCESS) return status;
    const int threads = ConfiguredThreadCount();
    const auto plan = shared_from_this();
    *task = [plan, bases, threads]() -> aclError {
        // The targets are read when the kernel runs, as on the NPU: work queued before it (an asynchronous copy)
        // may write them. A bad one fails the task before anything is written; the stream's synchronisation
        // returns 161002 with the message.
        int64_t target = 0;
        const int64_t sample = plan->FirstBadTarget(bases, &target);
        if (sample >= 0) return plan->RefuseTarget(plan->description_.phase2_name, sample, target);
        const aclError status = plan->description_.direction == Direction::kForward ? plan->Forward(bases, threads)
                                                                                     : plan->Backward(bases, threads);
        if (status == ACL_ERROR_RT_MEMORY_ALLOCATION)
            SetErrorMessage(aclnn_cpu::kAclnnInnerError, "%s: cannot allocate the buffers of %lld samples.",
                            plan->description_.phase2_name, static_cast<long long>(plan->samples_));
        return status;
    };
    return ACLNN_SUCCESS;
}

}  // namespace aclnn_cpu::ops::nll_loss
