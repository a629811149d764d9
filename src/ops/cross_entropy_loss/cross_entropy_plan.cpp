#include "ops/cross_entropy_loss/cross_entropy_plan.h"

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
#include "kernels/row_conversion.h"
#include "validation/dtype_support.h"

namespace aclnn_cpu::ops::cross_entropy {
namespace {

using engine::LoadIndex;
using engine::LoadValue;
using engine::RoundTo;
using engine::StoreValue;
using validation::DtypeSize;

// Elements per block of rows (at least one row): a block's sums are one float64 partial, the partials added in
// block order, so the block's size depends on the shape only.
constexpr int64_t kBlockElements = 65536;
// Up to this many elements a call runs on the caller's thread when its stream is idle.
constexpr int64_t kSmallElements = 65536;

float Fp32(double v) { return static_cast<float>(v); }

template <class T>
std::unique_ptr<T[]> Allocate(int64_t count) {
    return std::unique_ptr<T[]>(new (std::nothrow) T[static_cast<size_t>(std::max<int64_t>(count, 1))]);
}

}  // namespace

// A block's float64 sums: of the samples' w * logProb[t], of their label smoothing sums, of their weights, and of
// their losses -(w * logProb[t]) and -S as Ascend 950's kernels hold them (an ignored sample's +0).
struct CrossEntropyPlan::Sums {
    double picked = 0, smoothing = 0, weight = 0;
    double losses = 0, smoothing_losses = 0;
};

CrossEntropyPlan::CrossEntropyPlan(const CrossEntropyDescription& description,
                                   std::array<engine::PlanOperand, kOperands> operands)
    : description_(description), operands_(operands) {
    const std::vector<int64_t>& dims = operands_[kScores].tensor->view_dims;
    rows_ = dims.size() == 2 ? dims[0] : 0;
    classes_ = dims.size() == 2 ? dims[1] : 0;
}

int64_t CrossEntropyPlan::At(int k, int64_t n, int64_t c) const {
    const aclTensor& t = *operands_[k].tensor;
    return (n * t.strides[0] + c * t.strides[1]) * DtypeSize(t.data_type);
}

int64_t CrossEntropyPlan::At(int k, int64_t i) const { return engine::ElementByteOffset(*operands_[k].tensor, i); }

aclnnStatus CrossEntropyPlan::ResolveAddresses(const char* caller, Bases* bases) const {
    return engine::AdmitPlanOperands(caller, operands_, bases);
}

aclnnStatus CrossEntropyPlan::CheckAddresses(const char* caller) const {
    Bases bases{};
    return ResolveAddresses(caller, &bases);
}

bool CrossEntropyPlan::IsSmall() const { return rows_ * classes_ <= kSmallElements; }

int64_t CrossEntropyPlan::TargetAt(const Bases& bases, int64_t n) const {
    return LoadIndex(operands_[kTarget].tensor->data_type, bases[kTarget] + At(kTarget, n));
}

bool CrossEntropyPlan::Ignored(int64_t target) const {
    const CrossEntropyDescription& d = description_;
    if (d.direction == Direction::kForward) return target == d.ignore_index;
    // The gradient: Ascend 950's kernels mask only where ignoreIndex >= 0; Atlas A2/A3's compares the two rounded
    // to fp32.
    if (d.register_based) return d.ignore_index >= 0 && target == d.ignore_index;
    return static_cast<float>(target) == static_cast<float>(d.ignore_index);
}

int64_t CrossEntropyPlan::FirstBadTarget(const Bases& bases, int64_t* value) const {
    if (rows_ == 0 || classes_ == 0) return -1;
    for (int64_t n = 0; n < rows_; ++n) {
        const int64_t t = TargetAt(bases, n);
        if (!Ignored(t) && (t < 0 || t >= classes_)) {
            *value = t;
            return n;
        }
    }
    return -1;
}

aclError CrossEntropyPlan::RefuseTarget(int64_t sample, int64_t value) const {
    static_assert(ACLNN_ERR_PARAM_INVALID == 161002, "the task's failure is the status CANN's checks give");
    const CrossEntropyDescription& d = description_;
    const std::string ignored = Ignored(d.ignore_index)
                                    ? " or ignoreIndex " + std::to_string(d.ignore_index)
                                    : " (ignoreIndex " + std::to_string(d.ignore_index) +
                                          " ignores nothing in this SoC's gradient: it is negative)";
    SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                    "%s: Target %lld at [%lld] of target is out of bounds: a target is a class index in [0, %lld)%s "
                    "(CANN's kernel reads outside the row for it).",
                    d.phase2_name, static_cast<long long>(value), static_cast<long long>(sample),
                    static_cast<long long>(classes_), ignored.c_str());
    return ACLNN_ERR_PARAM_INVALID;
}

bool CrossEntropyPlan::OutputsOverlapInputs(const Bases& bases) const {
    for (int o : {kOut, kLogProbOut}) {
        if (operands_[o].tensor == nullptr) continue;
        const validation::ViewExtent& oe = operands_[o].extent;
        for (int k : {kScores, kTarget, kWeight, kGradLoss}) {
            if (operands_[k].tensor == nullptr) continue;
            const validation::ViewExtent& ie = operands_[k].extent;
            if (engine::BytesIntersect(bases[k], bases[k] + (ie.end_byte - ie.first_byte), bases[o],
                                       bases[o] + (oe.end_byte - oe.first_byte)))
                return true;
        }
    }
    // The forward's two outputs overlapping each other: every logProb is written before the first loss.
    const aclTensor* log_prob = operands_[kLogProbOut].tensor;
    if (log_prob == nullptr) return false;
    const validation::ViewExtent& le = operands_[kLogProbOut].extent;
    const validation::ViewExtent& oe = operands_[kOut].extent;
    return engine::BytesIntersect(bases[kLogProbOut], bases[kLogProbOut] + (le.end_byte - le.first_byte), bases[kOut],
                                  bases[kOut] + (oe.end_byte - oe.first_byte));
}

const float* CrossEntropyPlan::ReadRow(const Bases& bases, int k, int64_t n, float* buffer) const {
    if (const float* in_place = RowInPlace(bases, k, n)) return in_place;
    const aclTensor& t = *operands_[k].tensor;
    const bool dense = t.strides[1] == 1 || classes_ == 1;
    const char* row = bases[k] + At(k, n, 0);
    if ((t.data_type == ACL_FLOAT16 || t.data_type == ACL_BF16) && dense) {
        kernels::WidenRow(reinterpret_cast<const uint16_t*>(row), t.data_type == ACL_BF16, classes_, buffer);
        return buffer;
    }
    for (int64_t c = 0; c < classes_; ++c) buffer[c] = Fp32(LoadValue(t.data_type, bases[k] + At(k, n, c)));
    return buffer;
}

float* CrossEntropyPlan::RowInPlace(const Bases& bases, int k, int64_t n) const {
    const aclTensor* t = operands_[k].tensor;
    if (t == nullptr || t->data_type != ACL_FLOAT || (t->strides[1] != 1 && classes_ != 1)) return nullptr;
    return reinterpret_cast<float*>(bases[k] + At(k, n, 0));
}

void CrossEntropyPlan::WriteRow(const Bases& bases, int k, int64_t n, const float* values) const {
    if (float* in_place = RowInPlace(bases, k, n)) {
        std::memcpy(in_place, values, static_cast<size_t>(classes_) * sizeof(float));
        return;
    }
    const aclTensor& t = *operands_[k].tensor;
    const bool dense = t.strides[1] == 1 || classes_ == 1;
    char* row = bases[k] + At(k, n, 0);
    if ((t.data_type == ACL_FLOAT16 || t.data_type == ACL_BF16) && dense) {
        kernels::NarrowRow(values, t.data_type == ACL_BF16, classes_, reinterpret_cast<uint16_t*>(row));
        return;
    }
    for (int64_t c = 0; c < classes_; ++c) StoreValue(t.data_type, bases[k] + At(k, n, c), values[c]);
}

bool CrossEntropyPlan::LoadWeights(const Bases& bases, std::unique_ptr<float[]>* values) const {
    if (operands_[kWeight].tensor == nullptr) return true;
    *values = Allocate<float>(classes_);
    if (!*values) return false;
    for (int64_t c = 0; c < classes_; ++c)
        (*values)[static_cast<size_t>(c)] = Fp32(LoadValue(ACL_FLOAT, bases[kWeight] + At(kWeight, c)));
    return true;
}

aclError CrossEntropyPlan::Forward(const Bases& bases, int threads) const {
    const CrossEntropyDescription& d = description_;
    const int32_t out_type = operands_[kOut].tensor->data_type;
    const bool reduced = d.reduction != 0;
    if (rows_ == 0) {
        // CANN's empty kernel: a mean of nothing is NaN, a sum 0; none writes nothing.
        if (reduced)
            StoreValue(out_type, bases[kOut],
                       d.reduction == 1 ? std::numeric_limits<double>::quiet_NaN() : 0.0);
        return ACL_SUCCESS;
    }
    const int64_t C = classes_;
    std::unique_ptr<float[]> weight_values;
    if (!LoadWeights(bases, &weight_values)) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    const float* weight = weight_values.get();  // null without a weight
    const bool smoothing = d.label_smoothing > 0;
    const float keep = 1.0f - d.label_smoothing;                          // CANN's 1 - ls
    const float spread = d.label_smoothing / static_cast<float>(C);      // and ls / C, in fp32
    // Where an output overlaps an input, every result is computed before the first is written.
    const bool staged = OutputsOverlapInputs(bases);
    std::unique_ptr<float[]> staged_log_prob, staged_loss;
    if (staged) {
        staged_log_prob = Allocate<float>(rows_ * C);
        staged_loss = Allocate<float>(rows_);
        if (!staged_log_prob || !staged_loss) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    const int64_t block_rows = std::max<int64_t>(1, kBlockElements / C);
    const int64_t blocks = (rows_ + block_rows - 1) / block_rows;
    std::unique_ptr<Sums[]> partial(new (std::nothrow) Sums[static_cast<size_t>(blocks)]);
    if (!partial) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    std::atomic<bool> allocated{true};
    engine::ParallelSlicesAligned(blocks, threads, 1, 1, [&](int64_t first, int64_t last) {
        std::unique_ptr<float[]> x_buffer = Allocate<float>(C), lp_buffer = Allocate<float>(C);
        if (!x_buffer || !lp_buffer) {
            allocated = false;
            return;
        }
        for (int64_t b = first; b < last; ++b) {
            Sums sums;
            for (int64_t n = b * block_rows; n < std::min(rows_, (b + 1) * block_rows); ++n) {
                const float* x = ReadRow(bases, kScores, n, x_buffer.get());
                float* const in_place = staged ? nullptr : RowInPlace(bases, kLogProbOut, n);
                float* lp = staged ? staged_log_prob.get() + n * C : in_place != nullptr ? in_place : lp_buffer.get();
                d.kernels.log_prob(x, C, d.register_based, lp);
                if (!staged && in_place == nullptr) WriteRow(bases, kLogProbOut, n, lp);
                const int64_t t = TargetAt(bases, n);
                // An ignored sample: w * logProb 0, no smoothing, weight 0 (out of range only if target changed
                // since the check).
                const bool counted = !Ignored(t) && t >= 0 && t < C;
                float picked = 0, smooth = 0, w = 0;
                if (counted) {
                    w = weight != nullptr ? weight[t] : 1.0f;
                    picked = w * lp[t];
                    if (smoothing) smooth = d.kernels.smoothing_sum(lp, weight, C);
                }
                // Atlas A2/A3 negate the products (an ignored sample's loss -0); Ascend 950 zeroes an ignored
                // sample's loss and smoothing term (+0).
                const float loss_term = counted || !d.register_based ? -picked : 0.0f;
                const float smooth_term = counted || !d.register_based ? -smooth : 0.0f;
                if (!reduced) {
                    const float loss = smoothing ? loss_term * keep + smooth_term * spread : loss_term;
                    if (staged) staged_loss[static_cast<size_t>(n)] = loss;
                    else StoreValue(out_type, bases[kOut] + At(kOut, n), loss);
                }
                sums.picked += picked;
                sums.smoothing += smooth;
                sums.weight += w;
                sums.losses += loss_term;
                sums.smoothing_losses += smooth_term;
            }
            partial[static_cast<size_t>(b)] = sums;
        }
    });
    if (!allocated) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    if (staged) {
        for (int64_t n = 0; n < rows_; ++n) WriteRow(bases, kLogProbOut, n, staged_log_prob.get() + n * C);
        if (!reduced)
            for (int64_t n = 0; n < rows_; ++n)
                StoreValue(out_type, bases[kOut] + At(kOut, n), staged_loss[static_cast<size_t>(n)]);
    }
    if (!reduced) return ACL_SUCCESS;
    Sums total;
    for (int64_t b = 0; b < blocks; ++b) {
        total.picked += partial[static_cast<size_t>(b)].picked;
        total.smoothing += partial[static_cast<size_t>(b)].smoothing;
        total.weight += partial[static_cast<size_t>(b)].weight;
        total.losses += partial[static_cast<size_t>(b)].losses;
        total.smoothing_losses += partial[static_cast<size_t>(b)].smoothing_losses;
    }
    // The kernel's fp32 sums (Atlas A2/A3 sum w * logProb[t] and negate; Ascend 950 sums the losses); the loss as
    // each SoC groups it (0 / 0 where every sample is ignored: NaN).
    const float losses = d.register_based ? Fp32(total.losses) : -Fp32(total.picked);
    const float smooth = d.register_based ? Fp32(total.smoothing_losses) : -Fp32(total.smoothing);
    const float weight_sum = Fp32(total.weight);
    float loss;
    if (!smoothing) {
        loss = d.reduction == 1 ? losses / weight_sum : losses;
    } else if (d.reduction == 2 || !d.register_based) {
        loss = losses * keep + smooth * spread;
        if (d.reduction == 1) loss = loss / weight_sum;
    } else {
        loss = (losses / weight_sum) * keep + (smooth / weight_sum) * spread;
    }
    StoreValue(out_type, bases[kOut], loss);
    return ACL_SUCCESS;
}

float CrossEntropyPlan::MeanDivisor(const Bases& bases, const float* weight) const {
    // The kernels' sum of mask * w[t] (an ignored sample's 0 * w[t]: NaN where that weight is not finite), or of
    // the masks.
    double sum = 0;
    for (int64_t n = 0; n < rows_; ++n) {
        const int64_t t = TargetAt(bases, n);
        const float mask = Ignored(t) ? 0.0f : 1.0f;
        sum += weight == nullptr ? mask : mask * (t >= 0 && t < classes_ ? weight[t] : 0.0f);
    }
    return Fp32(sum);
}

aclError CrossEntropyPlan::Backward(const Bases& bases, int threads) const {
    const CrossEntropyDescription& d = description_;
    if (rows_ == 0 || classes_ == 0) return ACL_SUCCESS;
    const int64_t C = classes_;
    const int32_t grad_type = operands_[kGradLoss].tensor->data_type;
    std::unique_ptr<float[]> weight_values;
    if (!LoadWeights(bases, &weight_values)) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    const float* weight = weight_values.get();  // null without a weight
    const bool none = d.reduction == 0;
    const float keep = 1.0f - d.label_smoothing;
    const float spread = d.label_smoothing / static_cast<float>(C);
    const bool smoothing = d.register_based && d.label_smoothing > 0;  // the older chips' kernel has no such term
    const float g = none ? 0.0f : Fp32(LoadValue(grad_type, bases[kGradLoss]));
    const float divisor = d.reduction == 1 ? MeanDivisor(bases, weight) : 1.0f;
    // Sample n's scale s (at its class, subtracted) and, on Ascend 950 with label smoothing, sm.
    auto scales = [&](int64_t n, int64_t t, float* s, float* sm) {
        const float mask = Ignored(t) ? 0.0f : 1.0f;
        const bool in_row = t >= 0 && t < C;
        const float gn = none ? Fp32(LoadValue(grad_type, bases[kGradLoss] + At(kGradLoss, n))) : g;
        if (d.register_based) {
            *s = (none ? gn * keep : (g * keep) / divisor) * mask;
            *sm = (none ? gn * spread : (g / divisor) * spread) * mask;
            if (weight != nullptr && in_row) *s = *s * weight[t];
            return;
        }
        // Atlas A2/A3: a target equal to a negative ignoreIndex weighs 0; the mask multiplies first.
        const float masked = none ? mask * (gn * keep) : d.reduction == 1 ? mask * ((g * keep) / divisor)
                                                                           : mask * (g * keep);
        const float tw = weight == nullptr ? 1.0f : (in_row && !(t < 0 && Ignored(t)) ? weight[t] : 0.0f);
        *s = weight == nullptr ? masked : tw * masked;
        *sm = 0;
    };
    const bool staged = OutputsOverlapInputs(bases);
    std::unique_ptr<float[]> staged_out;
    if (staged) {
        staged_out = Allocate<float>(rows_ * C);
        if (!staged_out) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    const int64_t block_rows = std::max<int64_t>(1, kBlockElements / C);
    const int64_t blocks = (rows_ + block_rows - 1) / block_rows;
    std::atomic<bool> allocated{true};
    engine::ParallelSlicesAligned(blocks, threads, 1, 1, [&](int64_t first, int64_t last) {
        std::unique_ptr<float[]> lp_buffer = Allocate<float>(C), out_buffer = Allocate<float>(C);
        if (!lp_buffer || !out_buffer) {
            allocated = false;
            return;
        }
        for (int64_t n = first * block_rows; n < std::min(rows_, last * block_rows); ++n) {
            const float* lp = ReadRow(bases, kScores, n, lp_buffer.get());
            float* const in_place = staged ? nullptr : RowInPlace(bases, kOut, n);
            float* out = staged ? staged_out.get() + n * C : in_place != nullptr ? in_place : out_buffer.get();
            const int64_t t = TargetAt(bases, n);
            float s = 0, sm = 0;
            scales(n, t, &s, &sm);
            d.kernels.scaled_exp(lp, C, s, out);
            if (t >= 0 && t < C) out[t] = out[t] - s;
            if (smoothing) {
                float k = sm * static_cast<float>(C);
                if (weight != nullptr) {
                    double sum = 0;  // the row's sum of w[c] * sm, each product rounded to fp32
                    for (int64_t c = 0; c < C; ++c) sum += weight[c] * sm;
                    k = Fp32(sum);
                }
                d.kernels.add_smoothing(lp, weight, C, k, sm, out);
            }
            if (!staged && in_place == nullptr) WriteRow(bases, kOut, n, out);
        }
    });
    if (!allocated) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    if (staged)
        for (int64_t n = 0; n < rows_; ++n) WriteRow(bases, kOut, n, staged_out.get() + n * C);
    return ACL_SUCCESS;
}

aclnnStatus CrossEntropyPlan::Bind(void*, uint64_t, rt::Task* task) const {
    Bases bases{};
    aclnnStatus status = ResolveAddresses(description_.phase2_name, &bases);
    if (status != ACLNN_SUCCESS) return status;
    const int threads = ConfiguredThreadCount();
    const auto plan = shared_from_this();
    *task = [plan, bases, threads]() -> aclError {
        // The targets are read when the kernel runs (work queued before it may write them); a bad one fails the
        // task before anything is written.
        int64_t target = 0;
        const int64_t sample = plan->FirstBadTarget(bases, &target);
        if (sample >= 0) return plan->RefuseTarget(sample, target);
        const aclError status = plan->description_.direction == Direction::kForward ? plan->Forward(bases, threads)
                                                                                     : plan->Backward(bases, threads);
        if (status == ACL_ERROR_RT_MEMORY_ALLOCATION)
            SetErrorMessage(aclnn_cpu::kAclnnInnerError, "%s: cannot allocate the buffers of %lld rows of %lld.",
                            plan->description_.phase2_name, static_cast<long long>(plan->rows_),
                            static_cast<long long>(plan->classes_));
        return status;
    };
    return ACLNN_SUCCESS;
}

}  // namespace aclnn_cpu::ops::cross_entropy
