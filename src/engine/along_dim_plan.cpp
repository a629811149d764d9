#include "engine/along_dim_plan.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <new>

#include "aclnn/opdev/op_errno.h"
#include "common/config.h"
#include "common/error_message.h"
#include "engine/for_each_row.h"
#include "engine/operand_address.h"
#include "engine/scalar_access.h"
#include "kernels/row_conversion.h"
#include "validation/dtype_support.h"

namespace aclnn_cpu::engine {
namespace {

using validation::DtypeSize;

// Elements per thread below which more threads cost more than they give.
constexpr int64_t kGrainElements = 32 * 1024;
// Up to this many elements a call runs on the caller's thread when its stream is idle.
constexpr int64_t kSmallElements = 65536;

}  // namespace

AlongDimPlan::AlongDimPlan(const AlongDimDescription& description, std::vector<PlanOperand> operands,
                           const std::vector<int64_t>& shape, int64_t dim)
    : description_(description), operands_(std::move(operands)), inputs_(static_cast<int>(operands_.size()) - 1) {
    const int walks = inputs_ + 2;
    for (int k = 0; k <= inputs_; ++k) types_[k] = operands_[k].tensor->data_type;
    types_[staging_walk()] = types_[out_walk()];
    // A 0-d tensor is a row of one.
    const std::vector<int64_t> dims = shape.empty() ? std::vector<int64_t>{1} : shape;
    const int rank = static_cast<int>(dims.size());
    const int axis = static_cast<int>(dim < 0 ? dim + rank : dim);
    numel_ = ElementCount(dims);
    row_length_ = dims[static_cast<size_t>(axis)];
    rows_ = row_length_ > 0 ? numel_ / row_length_ : 0;
    // Nothing to walk: an empty view's strides are any (validation bounds them only where elements exist).
    if (numel_ == 0) return;
    // Element strides per walk: the tensors' own, the staging buffer's row-major ones.
    std::vector<std::array<int64_t, kWalks>> strides(dims.size());
    int64_t dense = 1;
    for (int d = rank - 1; d >= 0; --d) {
        for (int k = 0; k <= inputs_; ++k) {
            const aclTensor& t = *operands_[k].tensor;
            strides[d][k] = t.strides.empty() ? 0 : t.strides[static_cast<size_t>(d)] * DtypeSize(types_[k]);
        }
        strides[d][staging_walk()] = dense * DtypeSize(types_[out_walk()]);
        dense *= dims[static_cast<size_t>(d)];
    }
    for (int k = 0; k < walks; ++k) row_strides_[k] = strides[static_cast<size_t>(axis)][k];
    // The other dims, size-1 ones dropped, merged where every walk steps evenly across them.
    for (int d = 0; d < rank; ++d) {
        if (d == axis || dims[static_cast<size_t>(d)] == 1) continue;
        const int64_t size = dims[static_cast<size_t>(d)];
        if (!outer_sizes_.empty()) {
            bool merges = true;
            for (int k = 0; k < walks; ++k)
                merges = merges && outer_strides_.back()[k] == strides[static_cast<size_t>(d)][k] * size;
            if (merges) {
                outer_sizes_.back() *= size;
                outer_strides_.back() = strides[static_cast<size_t>(d)];
                continue;
            }
        }
        outer_sizes_.push_back(size);
        outer_strides_.push_back(strides[static_cast<size_t>(d)]);
    }
}

int64_t AlongDimPlan::RowOffset(int k, int64_t row) const {
    int64_t offset = 0;
    for (size_t d = outer_sizes_.size(); d-- > 0;) {
        offset += row % outer_sizes_[d] * outer_strides_[d][k];
        row /= outer_sizes_[d];
    }
    return offset;
}

aclnnStatus AlongDimPlan::ResolveAddresses(const char* caller, Bases* bases) const {
    const bool strict = StrictMemoryChecks();
    bases->fill(nullptr);
    for (int k = 0; k <= inputs_; ++k) {
        const PlanOperand& operand = operands_[k];
        const aclnnStatus status = AdmitOperandAddress(caller, operand.name, operand.tensor, operand.extent,
                                                       numel_ > 0, strict, &(*bases)[k]);
        if (status != ACLNN_SUCCESS) return status;
    }
    return ACLNN_SUCCESS;
}

bool AlongDimPlan::OutNeedsStaging(const Bases& bases) const {
    const int out = out_walk();
    const validation::ViewExtent& out_extent = operands_[out].extent;
    const char* out_end = bases[out] + (out_extent.end_byte - out_extent.first_byte);
    for (int k = 0; k < inputs_; ++k) {
        const validation::ViewExtent& extent = operands_[k].extent;
        if (!BytesIntersect(bases[k], bases[k] + (extent.end_byte - extent.first_byte), bases[out], out_end)) continue;
        // The very same view is safe in place: a row is read by the thread that writes it, each element before
        // the element at its index is written.
        bool same_view = bases[k] == bases[out] && types_[k] == types_[out] && row_strides_[k] == row_strides_[out];
        for (const auto& s : outer_strides_) same_view = same_view && s[k] == s[out];
        if (!same_view) return true;
    }
    return false;
}

aclnnStatus AlongDimPlan::CheckAddressesAndSizeWorkspace(const char* caller) {
    Bases bases{};
    const aclnnStatus status = ResolveAddresses(caller, &bases);
    if (status != ACLNN_SUCCESS) return status;
    workspace_size_ = 0;
    if (numel_ > 0 && OutNeedsStaging(bases)) workspace_size_ = (StagingBytes() + 63) / 64 * 64;
    return ACLNN_SUCCESS;
}

uint64_t AlongDimPlan::StagingBytes() const {
    return static_cast<uint64_t>(numel_) * static_cast<uint64_t>(DtypeSize(types_[out_walk()]));
}

bool AlongDimPlan::IsSmall() const { return numel_ <= kSmallElements; }

AlongDimPlan::RowAccess AlongDimPlan::Access(int k) const {
    const int32_t compute = description_.compute_type, type = types_[k];
    const bool sixteen_bits = type == ACL_FLOAT16 || type == ACL_BF16;
    if (compute != ACL_FLOAT && compute != ACL_FLOAT16 && compute != ACL_BF16) return RowAccess::kScalar;
    if (row_strides_[k] != DtypeSize(type) && row_length_ > 1) return RowAccess::kScalar;
    if (k >= inputs_) {
        // The results are rounded once: to out's dtype, which the compute type is or which is FLOAT itself.
        if (type == ACL_FLOAT) return compute == ACL_FLOAT ? RowAccess::kInPlace : RowAccess::kScalar;
        return sixteen_bits && (compute == ACL_FLOAT || compute == type) ? RowAccess::kVector : RowAccess::kScalar;
    }
    // The inputs' cast: to FLOAT or to their own dtype changes no value.
    const int32_t cast = description_.input_cast_type;
    if (cast >= 0 && cast != ACL_FLOAT && cast != type) return RowAccess::kScalar;
    if (type == ACL_FLOAT) return RowAccess::kInPlace;
    return sixteen_bits ? RowAccess::kVector : RowAccess::kScalar;
}

bool AlongDimPlan::ComputeVectorRows(const Bases& bases, int into, int64_t begin, int64_t end) const {
    const int64_t n = row_length_;
    RowAccess access[kWalks] = {};
    for (int k = 0; k < inputs_; ++k) access[k] = Access(k);
    access[into] = Access(into);
    // A buffer per operand converted by vector (inputs widened into it, results narrowed from it).
    int converted = 0;
    for (int k = 0; k < inputs_; ++k) converted += access[k] == RowAccess::kVector;
    converted += access[into] == RowAccess::kVector;
    std::unique_ptr<float[]> scratch;
    if (converted > 0) {
        scratch.reset(new (std::nothrow) float[static_cast<size_t>(n * converted)]);
        if (!scratch) return false;
    }
    for (int64_t row = begin; row < end; ++row) {
        const float* in[kMaxAlongDimInputs] = {};
        float* next_buffer = scratch.get();
        for (int k = 0; k < inputs_; ++k) {
            const char* from = bases[k] + RowOffset(k, row);
            if (access[k] == RowAccess::kInPlace) {
                in[k] = reinterpret_cast<const float*>(from);
                continue;
            }
            kernels::WidenRow(reinterpret_cast<const uint16_t*>(from), types_[k] == ACL_BF16, n, next_buffer);
            in[k] = next_buffer;
            next_buffer += n;
        }
        char* to = bases[into] + RowOffset(into, row);
        if (access[into] == RowAccess::kInPlace) {
            description_.float_row(in, n, reinterpret_cast<float*>(to));
            continue;
        }
        description_.float_row(in, n, next_buffer);
        kernels::NarrowRow(next_buffer, types_[into] == ACL_BF16, n, reinterpret_cast<uint16_t*>(to));
    }
    return true;
}

bool AlongDimPlan::ComputeRows(const Bases& bases, int into, int64_t begin, int64_t end) const {
    const int64_t n = row_length_;
    bool vector_rows = true;
    for (int k = 0; k < inputs_; ++k) vector_rows = vector_rows && Access(k) != RowAccess::kScalar;
    if (vector_rows && Access(into) != RowAccess::kScalar) return ComputeVectorRows(bases, into, begin, end);
    const bool in_double = description_.compute_type == ACL_DOUBLE;
    const size_t element = in_double ? sizeof(double) : sizeof(float);
    std::unique_ptr<char[]> scratch(new (std::nothrow) char[static_cast<size_t>(n) * element * (inputs_ + 1)]);
    if (!scratch) return false;
    const int32_t cast = description_.input_cast_type;
    for (int64_t row = begin; row < end; ++row) {
        for (int k = 0; k < inputs_; ++k) {
            const char* from = bases[k] + RowOffset(k, row);
            char* to = scratch.get() + static_cast<size_t>(k * n) * element;
            for (int64_t i = 0; i < n; ++i) {
                double v = LoadValue(types_[k], from + i * row_strides_[k]);
                if (cast >= 0) v = RoundTo(cast, v);
                if (in_double) reinterpret_cast<double*>(to)[i] = v;
                else reinterpret_cast<float*>(to)[i] = static_cast<float>(v);
            }
        }
        char* results = scratch.get() + static_cast<size_t>(inputs_ * n) * element;
        if (in_double) {
            const double* in[kMaxAlongDimInputs] = {};
            for (int k = 0; k < inputs_; ++k) in[k] = reinterpret_cast<const double*>(scratch.get()) + k * n;
            description_.double_row(in, n, reinterpret_cast<double*>(results));
        } else {
            const float* in[kMaxAlongDimInputs] = {};
            for (int k = 0; k < inputs_; ++k) in[k] = reinterpret_cast<const float*>(scratch.get()) + k * n;
            description_.float_row(in, n, reinterpret_cast<float*>(results));
        }
        char* to = bases[into] + RowOffset(into, row);
        for (int64_t i = 0; i < n; ++i) {
            const double r = in_double ? reinterpret_cast<const double*>(results)[i]
                                       : reinterpret_cast<const float*>(results)[i];
            StoreValue(types_[into], to + i * row_strides_[into], RoundTo(description_.compute_type, r));
        }
    }
    return true;
}

void AlongDimPlan::CopyRows(const Bases& bases, int64_t begin, int64_t end) const {
    const int out = out_walk(), staging = staging_walk();
    const int64_t size = DtypeSize(types_[out]);
    for (int64_t row = begin; row < end; ++row) {
        const char* from = bases[staging] + RowOffset(staging, row);
        char* to = bases[out] + RowOffset(out, row);
        for (int64_t i = 0; i < row_length_; ++i)
            std::memcpy(to + i * row_strides_[out], from + i * row_strides_[staging], static_cast<size_t>(size));
    }
}

template <class SliceFn>
bool AlongDimPlan::ForRowSlices(int threads, SliceFn&& fn) const {
    std::atomic<bool> failed{false};
    const int64_t grain = std::max<int64_t>(1, kGrainElements / std::max<int64_t>(1, row_length_));
    ParallelSlicesAligned(rows_, threads, grain, 1, [&](int64_t begin, int64_t end) {
        if (!fn(begin, end)) failed = true;
    });
    return !failed;
}

aclnnStatus AlongDimPlan::Bind(void* workspace, uint64_t workspace_size, rt::Task* task) const {
    Bases bases{};
    const aclnnStatus status = ResolveAddresses(description_.phase2_name, &bases);
    if (status != ACLNN_SUCCESS) return status;
    const int threads = ConfiguredThreadCount();
    const auto plan = shared_from_this();
    if (numel_ == 0) {
        *task = [] { return ACL_SUCCESS; };  // nothing to compute; the stream's order stays observable
        return ACLNN_SUCCESS;
    }
    const bool staging = OutNeedsStaging(bases);
    const uint64_t staging_bytes = StagingBytes();
    // Rebinding may create an overlap phase 1 did not see; then the task allocates its own staging buffer.
    char* staging_buffer = staging && workspace_size >= staging_bytes ? static_cast<char*>(workspace) : nullptr;
    *task = [plan, bases, staging, staging_buffer, staging_bytes, threads]() mutable -> aclError {
        std::unique_ptr<char[]> owned;
        if (staging && staging_buffer == nullptr) {
            owned.reset(new (std::nothrow) char[staging_bytes]);
            staging_buffer = owned.get();
        }
        bases[plan->staging_walk()] = staging_buffer;
        const int into = staging ? plan->staging_walk() : plan->out_walk();
        bool done = !staging || staging_buffer != nullptr;
        done = done && plan->ForRowSlices(threads, [&](int64_t begin, int64_t end) {
            return plan->ComputeRows(bases, into, begin, end);
        });
        if (done && staging) {
            plan->ForRowSlices(threads, [&](int64_t begin, int64_t end) {
                plan->CopyRows(bases, begin, end);
                return true;
            });
        }
        if (done) return ACL_SUCCESS;
        SetErrorMessage(aclnn_cpu::kAclnnInnerError, "%s: cannot allocate the buffers of rows of %lld elements.",
                        plan->description_.phase2_name, static_cast<long long>(plan->row_length_));
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    };
    return ACLNN_SUCCESS;
}

}  // namespace aclnn_cpu::engine
