#include "engine/elementwise_plan.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>

#include "aclnn/opdev/op_errno.h"
#include "common/config.h"
#include "common/error_message.h"
#include "engine/for_each_row.h"
#include "engine/operand_address.h"
#include "kernels/simd_support.h"
#include "runtime/runtime_internal.h"

namespace aclnn_cpu::engine {
namespace {

using kernels::ElementType;
using kernels::OutputMode;

// Elements per thread below which more threads cost more than they give.
constexpr int64_t kGrainElements = 32 * 1024;
// Output size from which stores bypass the caches.
constexpr int64_t kStreamingBytes = int64_t{16} << 20;
// Up to this many elements (about 25 us of work on one core) a call costs less than handing it to the
// stream's worker thread and waiting for it, so an idle stream runs it on the caller's thread.
constexpr int64_t kSmallElements = 65536;
// A sum is made of float64 partial sums over chunks of this many consecutive elements (a multiple of
// kernels::kSumLanes), combined in a fixed tree: the same order for any thread count.
constexpr int64_t kSumChunk = 16384;

ElementType ToElementType(int32_t type) {
    switch (type) {
        case ACL_FLOAT16: return ElementType::kFloat16;
        case ACL_BF16: return ElementType::kBFloat16;
        case ACL_INT64: return ElementType::kInt64;
        case ACL_INT32: return ElementType::kInt32;
        case ACL_INT16: return ElementType::kInt16;
        case ACL_INT8: return ElementType::kInt8;
        case ACL_UINT8: return ElementType::kUInt8;
        case ACL_BOOL: return ElementType::kBool;
        default: return ElementType::kFloat32;
    }
}

// CANN's promotion within {FLOAT, FLOAT16, BFLOAT16}: equal types stay, any FLOAT gives FLOAT, and FLOAT16
// with BFLOAT16 gives FLOAT; a floating type wins over an integer one.
ElementType Promote(ElementType a, ElementType b) {
    if (kernels::IsInteger(a)) return b;
    if (kernels::IsInteger(b)) return a;
    return a == b ? a : ElementType::kFloat32;
}

// The value 1 in type's format, for an absent optional input read as ones.
const char* OneOfType(kernels::ElementType type) {
    static const float kFloat32One = 1.0f;
    static const uint16_t kFloat16One = 0x3c00, kBFloat16One = 0x3f80;
    switch (type) {
        case kernels::ElementType::kFloat16: return reinterpret_cast<const char*>(&kFloat16One);
        case kernels::ElementType::kBFloat16: return reinterpret_cast<const char*>(&kBFloat16One);
        default: return reinterpret_cast<const char*>(&kFloat32One);
    }
}

// Strides of tensor over the broadcast shape: right-aligned, 0 where the tensor is broadcast.
std::vector<int64_t> BroadcastStrides(const aclTensor& tensor, const std::vector<int64_t>& shape) {
    std::vector<int64_t> strides(shape.size(), 0);
    const size_t lead = shape.size() - tensor.view_dims.size();
    for (size_t d = 0; d < tensor.view_dims.size(); ++d)
        if (tensor.view_dims[d] != 1) strides[lead + d] = tensor.strides[d];
    return strides;
}

// Whether every tile can take the fused path: each input is contiguous (in its own dtype) or constant along
// rows, and out is contiguous along rows (a sum's dense order always is). Tiles of one iteration shape all have
// the same strides. The operator's chooser still sends what its fused instances do not cover (a sum of mixed
// dtypes) to the blocked path.
bool Fusable(const kernels::KernelConfig& config, const IterationShape& shape) {
    const int inputs = config.num_inputs;
    const int inner = shape.ndim - 1;
    if (!kernels::FusedInstancesRead(config)) return false;
    for (int k = 0; k < inputs; ++k) {
        const int64_t stride = shape.byte_strides[k][inner];
        if (stride != 0 && stride != kernels::ElementSize(config.types[k])) return false;
    }
    return config.output == OutputMode::kSum ||
           shape.byte_strides[inputs][inner] == kernels::ElementSize(config.out_type());
}

// Strides of a dense row-major tensor of shape. An empty shape visits nothing, and its partial products
// (e.g. [0, 625, 2^56]) may pass int64, so all its strides are 0.
std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& shape) {
    if (ElementCount(shape) == 0) return std::vector<int64_t>(shape.size(), 0);
    std::vector<int64_t> strides(shape.size(), 1);
    for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d) strides[d] = strides[d + 1] * shape[d + 1];
    return strides;
}

// Pairwise sum of values[0, count) in a fixed tree (halves, recursively).
double TreeSum(const double* values, int64_t count) {
    if (count == 1) return values[0];
    if (count == 0) return 0.0;
    const int64_t half = count / 2;
    return TreeSum(values, half) + TreeSum(values + half, count - half);
}

}  // namespace

int64_t ElementCount(const std::vector<int64_t>& shape) {
    // Validation bounds the product of a non-empty shape; an empty one may pass int64 before its 0.
    if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return 0;
    int64_t count = 1;
    for (int64_t size : shape) count *= size;
    return count;
}

ElementwisePlan::ElementwisePlan(const ElementwiseDescription& description, std::vector<PlanOperand> operands,
                                 const std::vector<int64_t>& validated_shape)
    : phase2_name_(description.phase2_name), operands_(std::move(operands)), mean_(description.mean),
      integer_block_(description.integer_block), sum_back_(description.sum_back),
      empty_sum_writes_zero_(description.empty_sum_writes_zero) {
    // A 0-d shape summed back is one row of one column.
    const std::vector<int64_t> validated_dims =
        sum_back_ && validated_shape.empty() ? std::vector<int64_t>{1} : validated_shape;
    config_.num_inputs = static_cast<int>(operands_.size()) - 1;
    config_.output = description.output;
    config_.input_scale = description.input_scale;
    config_.parameters = description.parameters;
    const int out = output_index();
    // Summing back, S is walked with its summed dims first, in S's order, then out's: the rows, then the columns.
    std::vector<size_t> order(validated_dims.size());
    for (size_t d = 0; d < order.size(); ++d) order[d] = d;
    std::vector<int64_t> columns_dims, out_column_strides;
    if (sum_back_) {
        const std::vector<int64_t>& out_dims = operands_[out].tensor->view_dims;
        const size_t lead = validated_dims.size() - std::min(out_dims.size(), validated_dims.size());
        std::vector<size_t> summed, kept;
        for (size_t d = 0; d < validated_dims.size(); ++d) {
            const bool in_out = d >= lead && !(out_dims[d - lead] == 1 && validated_dims[d] != 1);
            (in_out ? kept : summed).push_back(d);
            if (in_out) {
                columns_dims.push_back(validated_dims[d]);
                out_column_strides.push_back(operands_[out].tensor->strides[d - lead]);
            }
        }
        order = summed;
        order.insert(order.end(), kept.begin(), kept.end());
    }
    std::vector<int64_t> broadcast_shape(order.size());
    for (size_t d = 0; d < order.size(); ++d) broadcast_shape[d] = validated_dims[order[d]];
    std::array<std::vector<int64_t>, kMaxOperands> strides;
    std::array<int64_t, kMaxOperands> sizes{};
    for (size_t k = 0; k < operands_.size(); ++k) {
        const PlanOperand& operand = operands_[k];
        config_.types[k] = ToElementType(operand.ones_type >= 0 ? operand.ones_type : operand.tensor->data_type);
        sizes[k] = kernels::ElementSize(config_.types[k]);
        if (operand.ones_type >= 0) {
            strides[k] = std::vector<int64_t>(broadcast_shape.size(), 0);
        } else if (static_cast<int>(k) != out || !sum_back_) {
            const std::vector<int64_t> natural = BroadcastStrides(*operand.tensor, validated_dims);
            strides[k].resize(order.size());
            for (size_t d = 0; d < order.size(); ++d) strides[k][d] = natural[order[d]];
        }
    }
    if (sum_back_) {
        // The kernels store into a dense fp32 buffer in the walk's row-major order (row i, column j at
        // i * columns + j), and out is written from the columns' sums at the end.
        reduced_out_type_ = config_.types[out];
        columns_ = ElementCount(columns_dims);
        summed_rows_ = ElementCount(std::vector<int64_t>(broadcast_shape.begin(),
                                                         broadcast_shape.end() - static_cast<long>(columns_dims.size())));
        std::array<std::vector<int64_t>, kMaxOperands> column_strides;
        column_strides[0] = RowMajorStrides(columns_dims);
        column_strides[1] = out_column_strides;
        column_shape_ = BuildIterationShape(columns_dims, column_strides, {8, sizes[out]}, 0);
        config_.types[out] = ElementType::kFloat32;
    }
    if (config_.output == OutputMode::kSum || sum_back_) {
        // The sum visits S in its row-major order, whatever the inputs' layouts: a dense fp32 "output" orders
        // the iteration, and out itself is written once at the end.
        strides[out] = RowMajorStrides(broadcast_shape);
        sizes[out] = 4;
    }
    config_.promote = config_.types[0];
    for (int k = 1; k < config_.num_inputs; ++k) config_.promote = Promote(config_.promote, config_.types[k]);
    if (description.promote_type >= 0) config_.promote = ToElementType(description.promote_type);
    shape_ = BuildIterationShape(broadcast_shape, strides, sizes, out);
    config_.stream_stores = config_.output == OutputMode::kStore && !sum_back_ &&
                            shape_.numel * kernels::ElementSize(config_.out_type()) >= kStreamingBytes;
    if (integer_block_ != nullptr) return;  // no tile kernel
    kernel_ = description.choose_kernel(config_, Fusable(config_, shape_));
    if (sum_back_ && description.choose_column_sum_kernel != nullptr)
        column_sum_kernel_ = description.choose_column_sum_kernel(config_, Fusable(config_, shape_));
}

aclnnStatus ElementwisePlan::ResolveAddresses(const char* caller, OperandPointers* bases) const {
    const bool strict = StrictMemoryChecks();
    const bool summing = config_.output == OutputMode::kSum;
    bases->fill(nullptr);
    for (int k = 0; k <= output_index(); ++k) {
        const PlanOperand& operand = operands_[k];
        if (operand.ones_type >= 0) {
            (*bases)[k] = const_cast<char*>(OneOfType(config_.types[k]));  // read only
            continue;
        }
        // Addresses nothing: an empty view, or any operand of an empty elementwise result (a sum still writes
        // its 0-d out).
        const bool written_sum = (summing || (sum_back_ && empty_sum_writes_zero_)) && k == output_index();
        const bool addressed = shape_.numel > 0 || written_sum;
        const aclnnStatus status =
            AdmitOperandAddress(caller, operand.name, operand.tensor, operand.extent, addressed, strict, &(*bases)[k]);
        if (status != ACLNN_SUCCESS) return status;
    }
    if (summing) (*bases)[output_index()] = nullptr;  // the kernels sum; only the plan writes out
    return ACLNN_SUCCESS;
}

bool ElementwisePlan::OutNeedsStaging(const OperandPointers& bases) const {
    // A sum writes out after reading every input.
    if (config_.output != OutputMode::kStore || sum_back_) return false;
    const int out = output_index();
    const validation::ViewExtent& out_extent = operands_[out].extent;
    const char* out_begin = bases[out];
    const char* out_end = out_begin + (out_extent.end_byte - out_extent.first_byte);
    for (int k = 0; k < out; ++k) {
        const validation::ViewExtent& extent = operands_[k].extent;
        const char* begin = bases[k];
        const char* end = begin + (extent.end_byte - extent.first_byte);
        if (!BytesIntersect(begin, end, out_begin, out_end)) continue;
        // The very same view (same first address, dtype and walk) is safe in place: every element is read
        // before it is written, by the same thread.
        const bool same_view = begin == out_begin && config_.types[k] == config_.types[out] &&
                               shape_.byte_strides[k] == shape_.byte_strides[out];
        if (!same_view) return true;
    }
    return false;
}

aclnnStatus ElementwisePlan::CheckAddressesAndSizeWorkspace(const char* caller) {
    OperandPointers bases{};
    const aclnnStatus status = ResolveAddresses(caller, &bases);
    if (status != ACLNN_SUCCESS) return status;
    workspace_size_ = 0;
    if (shape_.numel > 0 && OutNeedsStaging(bases)) {
        const uint64_t bytes = static_cast<uint64_t>(shape_.numel) * kernels::ElementSize(config_.out_type());
        workspace_size_ = (bytes + 63) / 64 * 64;
    }
    return ACLNN_SUCCESS;
}

void ElementwisePlan::IntegerRow(const IterationShape& shape, const OperandPointers& row, int64_t n,
                                 uint64_t* sum) const {
    constexpr int64_t kIntegerBlock = 512;
    const int inputs = config_.num_inputs, out = output_index();
    const ElementType out_type = config_.out_type();
    int64_t buffers[kernels::kMaxInputs][kIntegerBlock];
    int64_t results[kIntegerBlock];
    const int64_t* in[kernels::kMaxInputs] = {};
    for (int64_t first = 0; first < n; first += kIntegerBlock) {
        const int64_t count = std::min(kIntegerBlock, n - first);
        for (int k = 0; k < inputs; ++k) {
            const int64_t stride = shape.inner_stride(k);
            const char* from = row[k] + first * stride;
            if (config_.types[k] == ElementType::kInt64 && stride == 8) {  // read in place
                in[k] = reinterpret_cast<const int64_t*>(from);
                continue;
            }
            for (int64_t i = 0; i < count; ++i) buffers[k][i] = kernels::LoadInteger(config_.types[k], from + i * stride);
            in[k] = buffers[k];
        }
        const int64_t out_stride = sum == nullptr ? shape.inner_stride(out) : 0;
        char* to = sum == nullptr ? row[out] + first * out_stride : nullptr;
        const bool direct = sum == nullptr && out_type == ElementType::kInt64 && out_stride == 8;
        int64_t* into = direct ? reinterpret_cast<int64_t*>(to) : results;
        integer_block_(in, count, into);
        if (sum != nullptr) {
            uint64_t block_sum = 0;  // a local: *sum may alias results as far as the compiler knows
            for (int64_t i = 0; i < count; ++i) block_sum += static_cast<uint64_t>(results[i]);
            *sum += block_sum;
        } else if (!direct) {
            for (int64_t i = 0; i < count; ++i) kernels::StoreInteger(out_type, to + i * out_stride, results[i]);
        }
    }
}

uint64_t ElementwisePlan::IntegerSum(const OperandPointers& bases, int threads) const {
    // Integer addition that wraps is associative: the slices' sums, added in any order, give the same bits.
    uint64_t total = 0;
    ParallelSlices(shape_.numel, threads, kGrainElements, [&](int64_t begin, int64_t end) {
        uint64_t slice_total = 0;
        ForEachRow(shape_, bases, begin, end,
                   [&](const OperandPointers& row, int64_t n) { IntegerRow(shape_, row, n, &slice_total); });
#pragma omp atomic
        total += slice_total;
    });
    return total;
}

void ElementwisePlan::Store(const IterationShape& shape, const OperandPointers& bases, int threads) const {
    if (integer_block_ != nullptr) {
        ParallelSlices(shape.numel, threads, kGrainElements, [&](int64_t begin, int64_t end) {
            ForEachRow(shape, bases, begin, end,
                       [&](const OperandPointers& row, int64_t n) { IntegerRow(shape, row, n, nullptr); });
        });
        return;
    }
    ParallelSlices(shape.numel, threads, kGrainElements, [&](int64_t begin, int64_t end) {
        ForEachTile(shape, bases, begin, end, [&](const Tile& tile) { kernel_(config_, tile, nullptr); });
        if (config_.stream_stores) kernels::FlushStreamingStores();
    });
}

void ElementwisePlan::StoreThroughStaging(const OperandPointers& bases, char* staging, int threads) const {
    // out overlaps an input: compute everything into the staging buffer first, then copy it into out's view,
    // so the result equals reading all inputs before writing any output.
    const int out = output_index();
    const int64_t out_size = kernels::ElementSize(config_.out_type());
    IterationShape staged = shape_;
    staged.byte_strides[out] = DenseByteStrides(shape_, out_size);
    OperandPointers staged_bases = bases;
    staged_bases[out] = staging;
    Store(staged, staged_bases, threads);

    IterationShape copy = shape_;
    copy.byte_strides[0] = staged.byte_strides[out];
    copy.byte_strides[1] = shape_.byte_strides[out];
    const OperandPointers copy_bases = {staging, bases[out], nullptr, nullptr};
    ParallelSlices(copy.numel, threads, kGrainElements, [&](int64_t begin, int64_t end) {
        ForEachRow(copy, copy_bases, begin, end, [&](const OperandPointers& row, int64_t n) {
            const int64_t from_stride = copy.inner_stride(0), to_stride = copy.inner_stride(1);
            if (from_stride == out_size && to_stride == out_size) {
                std::memcpy(row[1], row[0], static_cast<size_t>(n * out_size));
                return;
            }
            for (int64_t i = 0; i < n; ++i)
                std::memcpy(row[1] + i * to_stride, row[0] + i * from_stride, static_cast<size_t>(out_size));
        });
    });
}

int64_t ElementwisePlan::SumChunks() const { return (shape_.numel + kSumChunk - 1) / kSumChunk; }

float ElementwisePlan::Sum(const OperandPointers& bases, double* chunk_sums, int threads) const {
    const int64_t chunks = SumChunks();
    ParallelSlicesAligned(chunks, threads, kGrainElements / kSumChunk, 1, [&](int64_t begin, int64_t end) {
        for (int64_t chunk = begin; chunk < end; ++chunk) {
            kernels::SumAccumulator sums;
            const int64_t first = chunk * kSumChunk;
            const int64_t last = first + kSumChunk < shape_.numel ? first + kSumChunk : shape_.numel;
            ForEachTile(shape_, bases, first, last, [&](const Tile& tile) { kernel_(config_, tile, &sums); });
            chunk_sums[chunk] = TreeSum(sums.lanes, kernels::kSumLanes);
        }
    });
    // float64 partial sums of fp32 terms, rounded once to fp32; a mean then multiplies by 1/(float)N or divides
    // by (float)N in fp32, as the operator's CANN kernel does (N = 0 gives NaN, CANN's mean of nothing).
    float total = static_cast<float>(TreeSum(chunk_sums, chunks));
    // The reduce template's meanVar is 1/N in double, rounded to fp32 (ops-nn's atvoss reduce tiling).
    if (mean_ == MeanRule::kTimesReciprocal) total *= static_cast<float>(1.0 / static_cast<double>(shape_.numel));
    if (mean_ == MeanRule::kDividedByCount) total /= static_cast<float>(shape_.numel);
    return total;
}

int64_t ElementwisePlan::RowChunks() const {
    // Rows are cut into chunks only where the columns are few (their partial sums then stay within 2 MiB):
    // many columns give the threads blocks enough.
    constexpr int64_t kRowChunks = 16, kMostChunkedColumns = 16384;
    if (columns_ > kMostChunkedColumns || summed_rows_ <= 1) return 1;
    const int64_t chunk_rows = (summed_rows_ + kRowChunks - 1) / kRowChunks;
    return (summed_rows_ + chunk_rows - 1) / chunk_rows;
}

void ElementwisePlan::SumBack(const OperandPointers& bases, double* sums, int threads) const {
    // The work is cut into units of (a chunk of rows, a block of columns) that threads share; both cuts depend on
    // the shape alone. Within a unit the kernel computes `rows_per_pass` rows at a time into an L1 buffer (one
    // row when the columns fill a block, several when they are few), and each column adds its rows' values as
    // float64 in increasing row order into the chunk's partial sums; the partials are then added in chunk
    // order. The same bits for any thread count.
    constexpr int64_t kColumnBlock = 2048, kPassElements = 8192;
    const int64_t columns = columns_;
    if (columns == 0) return;  // an empty out
    const int64_t block_columns = std::min(columns, kColumnBlock);
    const int64_t rows_per_pass = block_columns == columns ? std::max<int64_t>(1, kPassElements / columns) : 1;
    const int64_t blocks = (columns + block_columns - 1) / block_columns;
    const int64_t row_chunks = RowChunks();
    // No rows (an empty S summed back where CANN's ReduceSum runs): every column's sum is 0.
    const int64_t chunk_rows = std::max<int64_t>(1, (summed_rows_ + row_chunks - 1) / row_chunks);
    const int64_t units = summed_rows_ > 0 ? blocks * row_chunks : 0;
    if (units == 0) std::fill(sums, sums + columns, 0.0);
    ParallelSlicesAligned(units, threads, std::max<int64_t>(1, kGrainElements / (block_columns * chunk_rows)), 1,
                          [&](int64_t first_unit, int64_t end_unit) {
        float values[kPassElements];
        for (int64_t unit = first_unit; unit < end_unit; ++unit) {
            const int64_t chunk = unit / blocks, block = unit % blocks;
            const int64_t j0 = block * block_columns, j1 = std::min(columns, j0 + block_columns);
            const int64_t row_end = std::min(summed_rows_, (chunk + 1) * chunk_rows);
            double* column_sums = sums + chunk * columns + j0;
            std::fill(column_sums, column_sums + (j1 - j0), 0.0);
            if (column_sum_kernel_ != nullptr) {
                // Straight into the sums: the unit's rows as one range of S where the block holds every column.
                const kernels::ColumnSums into{column_sums, j0, columns};
                auto add = [&](int64_t first, int64_t last) {
                    ForEachTile(shape_, bases, first, last,
                                [&](const Tile& tile) { column_sum_kernel_(config_, tile, into); });
                };
                if (j0 == 0 && j1 == columns) {
                    add(chunk * chunk_rows * columns, row_end * columns);
                } else {
                    for (int64_t row = chunk * chunk_rows; row < row_end; ++row) add(row * columns + j0, row * columns + j1);
                }
                continue;
            }
            for (int64_t row = chunk * chunk_rows; row < row_end; row += rows_per_pass) {
                const int64_t rows = std::min(rows_per_pass, row_end - row);
                // rows > 1 only when one block holds every column: then [row * columns, (row + rows) * columns)
                // is one linear range of S.
                const int64_t first = row * columns + j0;
                const int64_t last = rows > 1 ? (row + rows) * columns : row * columns + j1;
                OperandPointers at = bases;
                at[output_index()] = reinterpret_cast<char*>(values) - first * 4;
                ForEachTile(shape_, at, first, last, [&](const Tile& tile) { kernel_(config_, tile, nullptr); });
                kernels::AddRowsToColumnSums(values, rows, j1 - j0, column_sums);
            }
        }
    });
    for (int64_t chunk = 1; chunk < row_chunks; ++chunk)
        for (int64_t j = 0; j < columns; ++j) sums[j] += sums[chunk * columns + j];
    // Each sum rounded once to fp32; a mean then times the reduce template's 1/N0 (or over N0); then the promote
    // type and out's dtype.
    const OperandPointers copy_bases = {reinterpret_cast<char*>(sums), bases[output_index()], nullptr, nullptr,
                                        nullptr, nullptr};
    const float reciprocal = static_cast<float>(1.0 / static_cast<double>(summed_rows_));
    ForEachRow(column_shape_, copy_bases, 0, column_shape_.numel, [&](const OperandPointers& row, int64_t n) {
        const int64_t from_stride = column_shape_.inner_stride(0), to_stride = column_shape_.inner_stride(1);
        for (int64_t i = 0; i < n; ++i) {
            float value = static_cast<float>(*reinterpret_cast<const double*>(row[0] + i * from_stride));
            if (mean_ == MeanRule::kTimesReciprocal) value *= reciprocal;
            if (mean_ == MeanRule::kDividedByCount) value /= static_cast<float>(summed_rows_);
            kernels::StoreFromFloat(reduced_out_type_, row[1] + i * to_stride, kernels::RoundTo(config_.promote, value));
        }
    });
}

bool ElementwisePlan::IsSmall() const { return shape_.numel <= kSmallElements; }

aclnnStatus ElementwisePlan::Bind(void* workspace, uint64_t workspace_size, rt::Task* task) const {
    OperandPointers bases{};
    const aclnnStatus status = ResolveAddresses(phase2_name_, &bases);
    if (status != ACLNN_SUCCESS) return status;
    const int threads = ConfiguredThreadCount();
    const auto plan = shared_from_this();
    const int out = output_index();

    if (config_.output == OutputMode::kSum && integer_block_ != nullptr) {
        char* out_address = static_cast<char*>(operands_[out].tensor->data) + operands_[out].extent.first_byte;
        *task = [plan, bases, out_address, threads]() -> aclError {
            const uint64_t total = plan->IntegerSum(bases, threads);
            kernels::StoreInteger(plan->config_.out_type(), out_address, static_cast<int64_t>(total));
            return ACL_SUCCESS;
        };
        return ACLNN_SUCCESS;
    }
    if (config_.output == OutputMode::kSum) {
        char* out_address = static_cast<char*>(operands_[out].tensor->data) + operands_[out].extent.first_byte;
        const int64_t chunks = SumChunks();
        *task = [plan, bases, out_address, chunks, threads]() -> aclError {
            std::unique_ptr<double[]> chunk_sums(new (std::nothrow) double[chunks > 0 ? chunks : 1]);
            if (!chunk_sums) {
                SetErrorMessage(aclnn_cpu::kAclnnInnerError,
                                "%s: cannot allocate %lld partial sums.", plan->phase2_name_,
                                static_cast<long long>(chunks));
                return ACL_ERROR_RT_MEMORY_ALLOCATION;
            }
            const float total = plan->Sum(bases, chunk_sums.get(), threads);
            const ElementType out_type = plan->config_.out_type();
            kernels::StoreFromFloat(out_type, out_address, kernels::RoundTo(plan->config_.promote, total));
            return ACL_SUCCESS;
        };
        return ACLNN_SUCCESS;
    }

    if (shape_.numel == 0 && !(sum_back_ && empty_sum_writes_zero_)) {
        // Nothing to compute (an empty first dim leaves out as it was, as CANN's op_api returns early), but keep
        // the stream's order observable.
        *task = [] { return ACL_SUCCESS; };
        return ACLNN_SUCCESS;
    }
    if (sum_back_) {
        *task = [plan, bases, threads]() -> aclError {
            std::unique_ptr<double[]> sums(
                new (std::nothrow) double[static_cast<size_t>(plan->columns_ * plan->RowChunks())]);
            if (!sums) {
                SetErrorMessage(aclnn_cpu::kAclnnInnerError, "%s: cannot allocate %lld column sums.",
                                plan->phase2_name_, static_cast<long long>(plan->columns_));
                return ACL_ERROR_RT_MEMORY_ALLOCATION;
            }
            plan->SumBack(bases, sums.get(), threads);
            return ACL_SUCCESS;
        };
        return ACLNN_SUCCESS;
    }
    const uint64_t staging_bytes = static_cast<uint64_t>(shape_.numel) * kernels::ElementSize(config_.out_type());
    const bool staging = OutNeedsStaging(bases);
    // Rebinding may create an overlap phase 1 did not see; then the task allocates its own staging buffer.
    char* staging_buffer = staging && workspace_size >= staging_bytes ? static_cast<char*>(workspace) : nullptr;
    *task = [plan, bases, staging, staging_buffer, staging_bytes, threads]() -> aclError {
        if (!staging) {
            plan->Store(plan->shape_, bases, threads);
            return ACL_SUCCESS;
        }
        std::unique_ptr<char[]> owned;
        char* buffer = staging_buffer;
        if (buffer == nullptr) {
            owned.reset(new (std::nothrow) char[staging_bytes]);
            if (!owned) {
                SetErrorMessage(aclnn_cpu::kAclnnInnerError,
                                "%s: cannot allocate %llu bytes to stage an out that overlaps an input.",
                                plan->phase2_name_, static_cast<unsigned long long>(staging_bytes));
                return ACL_ERROR_RT_MEMORY_ALLOCATION;
            }
            buffer = owned.get();
        }
        plan->StoreThroughStaging(bases, buffer, threads);
        return ACL_SUCCESS;
    };
    return ACLNN_SUCCESS;
}

}  // namespace aclnn_cpu::engine
