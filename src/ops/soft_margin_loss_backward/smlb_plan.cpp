#include "ops/soft_margin_loss_backward/smlb_plan.h"

#include <memory>
#include <new>

#include "aclnn/opdev/op_errno.h"
#include "common/config.h"
#include "common/error_message.h"
#include "engine/for_each_row.h"
#include "kernels/smlb_simd.h"
#include "runtime/runtime_internal.h"

namespace aclnn_cpu::ops::smlb {
namespace {

using kernels::ElementType;

constexpr const char* kTensorNames[4] = {"gradOutput", "self", "target", "out"};
// Elements per thread below which more threads cost more than they give.
constexpr int64_t kGrainElements = 32 * 1024;
// Output size from which stores bypass the caches.
constexpr int64_t kStreamingBytes = int64_t{16} << 20;

ElementType ToElementType(int32_t type) {
    switch (type) {
        case ACL_FLOAT16: return ElementType::kFloat16;
        case ACL_BF16: return ElementType::kBFloat16;
        default: return ElementType::kFloat32;
    }
}

// CANN's promotion within {FLOAT, FLOAT16, BFLOAT16}: equal types stay, any FLOAT gives FLOAT, and FLOAT16
// with BFLOAT16 gives FLOAT.
ElementType Promote(ElementType a, ElementType b) { return a == b ? a : ElementType::kFloat32; }

// Strides of tensor over the broadcast shape: right-aligned, 0 where the tensor is broadcast.
std::vector<int64_t> BroadcastStrides(const aclTensor& tensor, const std::vector<int64_t>& shape) {
    std::vector<int64_t> strides(shape.size(), 0);
    const size_t lead = shape.size() - tensor.view_dims.size();
    for (size_t d = 0; d < tensor.view_dims.size(); ++d)
        if (tensor.view_dims[d] != 1) strides[lead + d] = tensor.strides[d];
    return strides;
}

bool BytesIntersect(const char* a_begin, const char* a_end, const char* b_begin, const char* b_end) {
    return a_begin < b_end && b_begin < a_end;
}

}  // namespace

SmlbPlan::SmlbPlan(const Arguments& args, const ValidatedShapes& shapes)
    : tensors_{args.grad_output, args.self, args.target, args.out} {
    std::array<std::vector<int64_t>, engine::kMaxOperands> strides;
    std::array<int64_t, engine::kMaxOperands> sizes;
    for (int k = 0; k < 4; ++k) {
        extents_[k] = shapes.extents[k];
        types_.operand[k] = ToElementType(tensors_[k]->data_type);
        sizes[k] = kernels::ElementSize(types_.operand[k]);
        strides[k] = BroadcastStrides(*tensors_[k], shapes.broadcast_shape);
    }
    types_.promote = Promote(types_.operand[kernels::kGradOutput],
                             Promote(types_.operand[kernels::kSelf], types_.operand[kernels::kTarget]));
    shape_ = engine::BuildIterationShape(shapes.broadcast_shape, strides, sizes, kernels::kOut);
    // N is the element count of the broadcast shape (= out's), converted to fp32 before the reciprocal as on
    // the NPU, so it is rounded for N > 2^24.
    if (args.reduction == 1 && shape_.numel > 0) cof_ = 1.0f / static_cast<float>(shape_.numel);
}

aclnnStatus SmlbPlan::ResolveAddresses(const char* caller, engine::OperandPointers* bases) const {
    const bool strict = StrictMemoryChecks();
    for (int k = 0; k < 4; ++k) {
        const aclTensor* tensor = tensors_[k];
        if (!IsLiveTensor(tensor)) {
            SetErrorMessage("%s: %s was destroyed before the operator ran; tensors must live until phase 2.", caller,
                            kTensorNames[k]);
            return ACLNN_ERR_PARAM_INVALID;
        }
        const ViewExtent& extent = extents_[k];
        char* data = static_cast<char*>(tensor->data);
        (*bases)[k] = data;
        if (extent.numel == 0 || shape_.numel == 0) continue;  // addresses nothing
        if (data == nullptr) {
            SetErrorMessage("%s: %s has %lld elements but its data address is null.", caller, kTensorNames[k],
                            static_cast<long long>(extent.numel));
            return ACLNN_ERR_PARAM_INVALID;
        }
        const uintptr_t first = reinterpret_cast<uintptr_t>(data) + static_cast<uintptr_t>(extent.first_byte);
        const uint64_t bytes = static_cast<uint64_t>(extent.end_byte - extent.first_byte);
        if (first < reinterpret_cast<uintptr_t>(data) ||
            (strict && !rt::InsideDeviceAllocation(reinterpret_cast<const void*>(first), bytes))) {
            SetErrorMessage("%s: %s addresses bytes [%p, +%llu) (data %p, offset %lld elements), which are not "
                            "inside one live aclrtMalloc block. Allocate it with aclrtMalloc, or set "
                            "ACLNN_CPU_STRICT_MEMORY=0 to pass host buffers.", caller, kTensorNames[k],
                            reinterpret_cast<void*>(first), static_cast<unsigned long long>(bytes),
                            static_cast<void*>(data), static_cast<long long>(tensor->offset));
            return ACLNN_ERR_PARAM_INVALID;
        }
        (*bases)[k] = data + extent.first_byte;
    }
    return ACLNN_SUCCESS;
}

bool SmlbPlan::OutNeedsStaging(const engine::OperandPointers& bases) const {
    const int out = kernels::kOut;
    const char* out_begin = bases[out];
    const char* out_end = out_begin + (extents_[out].end_byte - extents_[out].first_byte);
    for (int k = 0; k < 3; ++k) {
        const char* begin = bases[k];
        const char* end = begin + (extents_[k].end_byte - extents_[k].first_byte);
        if (!BytesIntersect(begin, end, out_begin, out_end)) continue;
        // The very same view (same first address, dtype and walk) is safe in place: every element is read
        // before it is written, by the same thread.
        const bool same_view = begin == out_begin && types_.operand[k] == types_.operand[out] &&
                               shape_.byte_strides[k] == shape_.byte_strides[out];
        if (!same_view) return true;
    }
    return false;
}

aclnnStatus SmlbPlan::CheckAddressesAndSizeWorkspace(const char* caller) {
    engine::OperandPointers bases{};
    const aclnnStatus status = ResolveAddresses(caller, &bases);
    if (status != ACLNN_SUCCESS) return status;
    workspace_size_ = 0;
    if (shape_.numel > 0 && OutNeedsStaging(bases)) {
        const uint64_t bytes = static_cast<uint64_t>(shape_.numel) * kernels::ElementSize(types_.operand[kernels::kOut]);
        workspace_size_ = (bytes + 63) / 64 * 64;
    }
    return ACLNN_SUCCESS;
}

void SmlbPlan::Compute(const engine::IterationShape& shape, const engine::OperandPointers& bases, int threads) const {
    kernels::SmlbSimdConfig config;
    config.types = types_;
    config.cof = cof_;
    // Outputs far larger than the caches are written with non-temporal stores: they will not be read back
    // soon, and streaming saves the read-for-ownership of every output line.
    config.stream_stores = shape.numel * kernels::ElementSize(types_.operand[kernels::kOut]) >= kStreamingBytes;
    engine::ParallelSlices(shape.numel, threads, kGrainElements, [&](int64_t begin, int64_t end) {
        engine::ForEachTile(shape, bases, begin, end,
                            [&](const engine::Tile& tile) { kernels::SmlbTileSimd(config, tile); });
        if (config.stream_stores) kernels::FlushStreamingStores();
    });
}

void SmlbPlan::Run(const engine::OperandPointers& bases, char* staging, int threads) const {
    if (staging == nullptr) {
        Compute(shape_, bases, threads);
        return;
    }
    // out overlaps an input: compute everything into the staging buffer first, then copy it into out's view,
    // so the result equals reading all inputs before writing any output.
    const int64_t out_size = kernels::ElementSize(types_.operand[kernels::kOut]);
    engine::IterationShape staged = shape_;
    staged.byte_strides[kernels::kOut] = engine::DenseByteStrides(shape_, out_size);
    engine::OperandPointers staged_bases = bases;
    staged_bases[kernels::kOut] = staging;
    Compute(staged, staged_bases, threads);

    engine::IterationShape copy = shape_;
    copy.byte_strides[0] = staged.byte_strides[kernels::kOut];
    const engine::OperandPointers copy_bases = {staging, nullptr, nullptr, bases[kernels::kOut]};
    engine::ParallelSlices(copy.numel, threads, kGrainElements, [&](int64_t begin, int64_t end) {
        engine::ForEachRow(copy, copy_bases, begin, end, [&](const engine::OperandPointers& row, int64_t n) {
            kernels::CopyRow(row[kernels::kOut], copy.inner_stride(kernels::kOut), row[0], copy.inner_stride(0),
                             out_size, n);
        });
    });
}

// Up to this many elements (about 25 us of work on one core) a call costs less than handing it to the
// stream's worker thread and waiting for it, so an idle stream runs it on the caller's thread.
constexpr int64_t kSmallElements = 65536;

bool SmlbPlan::IsSmall() const { return shape_.numel <= kSmallElements; }

aclnnStatus SmlbPlan::Bind(void* workspace, uint64_t workspace_size, rt::Task* task) const {
    engine::OperandPointers bases{};
    const aclnnStatus status = ResolveAddresses(kPhase2Name, &bases);
    if (status != ACLNN_SUCCESS) return status;
    if (shape_.numel == 0) {
        *task = [] { return ACL_SUCCESS; };  // nothing to compute, but keep the stream's order observable
        return ACLNN_SUCCESS;
    }
    const int threads = ConfiguredThreadCount();
    const uint64_t staging_bytes =
        static_cast<uint64_t>(shape_.numel) * kernels::ElementSize(types_.operand[kernels::kOut]);
    const bool staging = OutNeedsStaging(bases);
    // Rebinding may create an overlap phase 1 did not see; then the task allocates its own staging buffer.
    char* staging_buffer = staging && workspace_size >= staging_bytes ? static_cast<char*>(workspace) : nullptr;
    *task = [plan = shared_from_this(), bases, staging, staging_buffer, staging_bytes, threads]() -> aclError {
        std::unique_ptr<char[]> owned;
        char* buffer = staging_buffer;
        if (staging && buffer == nullptr) {
            owned.reset(new (std::nothrow) char[staging_bytes]);
            if (!owned) {
                SetErrorMessage("%s: cannot allocate %llu bytes to stage an out that overlaps an input.", kPhase2Name,
                                static_cast<unsigned long long>(staging_bytes));
                return ACL_ERROR_RT_MEMORY_ALLOCATION;
            }
            buffer = owned.get();
        }
        plan->Run(bases, buffer, threads);
        return ACL_SUCCESS;
    };
    return ACLNN_SUCCESS;
}

}  // namespace aclnn_cpu::ops::smlb
