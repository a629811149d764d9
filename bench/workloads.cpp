#include "workloads.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "common/float_convert.h"
#include "comparison_kernels.h"

namespace bench {
namespace {

int64_t TypeSize(aclDataType type) {
    return type == ACL_INT64 ? 8 : type == ACL_FLOAT || type == ACL_INT32 ? 4 : 2;
}

// A device block of `bytes` bytes, freed on destruction.
class DeviceBlock {
public:
    explicit DeviceBlock(int64_t bytes) {
        if (aclrtMalloc(&data_, static_cast<size_t>(bytes), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) data_ = nullptr;
    }
    ~DeviceBlock() {
        if (data_ != nullptr) aclrtFree(data_);
    }
    DeviceBlock(const DeviceBlock&) = delete;
    DeviceBlock& operator=(const DeviceBlock&) = delete;
    void* data() const { return data_; }

private:
    void* data_ = nullptr;
};

// The interval an input's values are drawn from, by its domain in the operator table: probabilities in
// (0, 1) as a model predicts them (binary cross-entropy's logs take their fast form there, as on real data),
// weights in (0, 2]; everything else in [-4, 4] (the soft margin rows' figures have always used that). With
// `ends_only`, each value is one of the two ends, as likely one as the other: hard labels for a probability.
struct ValueInterval {
    float low = -4.0f, high = 4.0f;
    bool ends_only = false;
};

ValueInterval IntervalOf(aclnn_cpu::ValueDomain domain) {
    switch (domain) {
        case aclnn_cpu::ValueDomain::kProbability: return {0.0f, 1.0f};
        case aclnn_cpu::ValueDomain::kWeight: return {0.0f, 2.0f};
        default: return {};
    }
}

// A tensor in its own device block, filled with values drawn uniformly from an interval ([-4, 4] by default).
class BenchTensor {
public:
    BenchTensor(const std::vector<int64_t>& dims, std::vector<int64_t> strides, aclDataType type, uint32_t seed,
                ValueInterval interval = {}) {
        if (strides.empty()) {
            strides.assign(dims.size(), 1);
            for (int d = static_cast<int>(dims.size()) - 2; d >= 0; --d) strides[d] = strides[d + 1] * dims[d + 1];
        }
        int64_t span = 1;
        for (size_t d = 0; d < dims.size(); ++d) span += (dims[d] - 1) * strides[d];
        bytes_ = span * TypeSize(type);
        block_ = std::make_unique<DeviceBlock>(bytes_);
        char* data = static_cast<char*>(block_->data());
        if (data == nullptr) return;
        // Each tensor its own independent stream. minstd_rand seeded 1, 2, 3 is not: its state is seed * 48271^k
        // mod m, so the tensors' streams are multiples of one another, self * target piles up where the
        // softplus needs its far form, and the forward's figures measure that branch instead of typical data
        // (docs/performance.md, "Method").
        std::seed_seq seeds{seed};
        std::mt19937 rng(seeds);
        std::uniform_real_distribution<float> values(interval.low, interval.high);
        const float middle = (interval.low + interval.high) / 2;
        for (int64_t i = 0; i < span; ++i) {
            float v = values(rng);
            if (interval.ends_only) v = v < middle ? interval.low : interval.high;
            if (type == ACL_INT64) {
                const int64_t integer = static_cast<int64_t>(v * 1e6f);
                std::memcpy(data + 8 * i, &integer, 8);
            } else if (type == ACL_INT32) {
                const int32_t integer = static_cast<int32_t>(v * 1e3f);
                std::memcpy(data + 4 * i, &integer, 4);
            } else if (type == ACL_FLOAT) {
                std::memcpy(data + 4 * i, &v, 4);
            } else {
                const uint16_t bits = type == ACL_FLOAT16 ? aclnn_cpu::FloatToHalf(v) : aclnn_cpu::FloatToBf16(v);
                std::memcpy(data + 2 * i, &bits, 2);
            }
        }
        tensor_ = aclCreateTensor(dims.data(), dims.size(), type, strides.data(), 0, ACL_FORMAT_ND, dims.data(),
                                  dims.size(), data);
    }
    ~BenchTensor() { aclDestroyTensor(tensor_); }
    aclTensor* tensor() const { return tensor_; }
    void* data() const { return block_->data(); }
    int64_t bytes() const { return bytes_; }

private:
    std::unique_ptr<DeviceBlock> block_;
    aclTensor* tensor_ = nullptr;
    int64_t bytes_ = 0;
};

struct OperandSpec {
    std::vector<int64_t> dims;
    std::vector<int64_t> strides;  // empty: contiguous
    aclDataType type;
};

// An operator's workload: its tensors (inputs, then out), its repeatable executor and a stream. The operand
// buffers are lent to a paired comparison loop.
class ExecutorWorkload : public Workload {
public:
    ~ExecutorWorkload() override {
        if (executor_ != nullptr) aclDestroyAclOpExecutor(executor_);
        if (stream_ != nullptr) aclrtDestroyStream(stream_);
    }
    std::vector<void*> Buffers(int64_t min_bytes) const override {
        std::vector<void*> buffers;
        for (const auto& tensor : tensors_) {
            if (tensor->bytes() >= min_bytes && tensor->data() != nullptr) buffers.push_back(tensor->data());
        }
        return buffers;
    }

protected:
    // After phase 1: makes the executor repeatable and the stream, or records why set-up failed.
    void FinishSetUp(aclnnStatus phase1_status) {
        if (phase1_status != 0 || aclSetAclOpExecutorRepeatable(executor_) != 0) {
            const char* message = aclGetRecentErrMsg();
            error_ = message != nullptr ? message : "set-up failed";
            executor_ = nullptr;
            return;
        }
        aclrtCreateStream(&stream_);
    }

    std::vector<std::unique_ptr<BenchTensor>> tensors_;  // the inputs, then out
    aclOpExecutor* executor_ = nullptr;
    aclrtStream stream_ = nullptr;
};

// A layout variant of a table row (the soft margin rows': bench_operators.cpp's op/ and loss/ rows), each tensor
// placed by its role: every input of n elements ("full", and the forward's "loss_none" / "loss_mean"), a 0-d
// incoming gradient ("scalar_grad"), [n/64, 64] with the target [n/64, 1] ("broadcast_target"), [s, s] with self
// stored transposed ("transposed_self"), or inputs of bf16, f32, f16 in order with an f16 out ("mixed").
class OperatorWorkload : public ExecutorWorkload {
public:
    OperatorWorkload(const aclnn_cpu::OperatorDescription& row, const std::string& variant, aclDataType type, int64_t n,
                     int threads)
        : row_(row), threads_(threads) {
        const std::vector<int64_t> flat = {n};
        const int64_t side = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(n))));
        const std::vector<int64_t> shape = variant == "broadcast_target" ? std::vector<int64_t>{n / 64, 64}
                                           : variant == "transposed_self" ? std::vector<int64_t>{side, side}
                                                                          : flat;
        const aclDataType mixed_types[] = {ACL_BF16, ACL_FLOAT, ACL_FLOAT16};
        const bool reduced = variant == "loss_mean";
        for (int k = 0; k <= row.input_count; ++k) {
            OperandSpec spec{shape, {}, variant == "mixed" ? ACL_FLOAT16 : type};
            if (k < row.input_count) {
                const aclnn_cpu::InputRole role = aclnn_cpu::RoleOf(row, k);
                if (variant == "mixed") spec.type = mixed_types[k % 3];
                if (variant == "scalar_grad" && role == aclnn_cpu::InputRole::kIncomingGradient) spec.dims = {};
                if (variant == "broadcast_target" && role == aclnn_cpu::InputRole::kTarget) spec.dims = {n / 64, 1};
                if (variant == "transposed_self" && role == aclnn_cpu::InputRole::kSelf) spec.strides = {1, side};
            } else if (reduced) {
                spec.dims = {};
            }
            tensors_.push_back(std::make_unique<BenchTensor>(spec.dims, spec.strides, spec.type,
                                                             static_cast<uint32_t>(k + 1)));
            bytes_ += tensors_.back()->bytes();  // each input read once, out written once
        }
        items_ = n;
        // The row's defaults, and a mean (none for loss_none).
        double parameters[aclnn_cpu::kMaxOperatorParameters] = {};
        for (int p = 0; p < row.parameter_count; ++p) parameters[p] = row.parameters[p].default_value;
        aclnn_cpu::SetReductionValue(row, parameters, variant == "loss_none" ? 0 : 1);
        std::vector<const aclTensor*> inputs;
        for (int k = 0; k < row.input_count; ++k) inputs.push_back(tensors_[static_cast<size_t>(k)]->tensor());
        uint64_t workspace_size = 0;
        FinishSetUp(row.Phase1(inputs.data(), parameters, tensors_.back()->tensor(), &workspace_size,
                                           &executor_));
    }
    void Run() override {
        setenv("ACLNN_CPU_NUM_THREADS", std::to_string(threads_).c_str(), 1);
        row_.run(nullptr, 0, executor_, stream_);
        aclrtSynchronizeStream(stream_);
    }

private:
    const aclnn_cpu::OperatorDescription& row_;
    int threads_;
};

// A table row's call with a workspace: its executor run on `threads` threads.
class RowCallWorkload : public ExecutorWorkload {
public:
    void Run() override {
        setenv("ACLNN_CPU_NUM_THREADS", std::to_string(threads_).c_str(), 1);
        row_.run(workspace_ != nullptr ? workspace_->data() : nullptr, workspace_size_, executor_, stream_);
        aclrtSynchronizeStream(stream_);
    }

protected:
    RowCallWorkload(const aclnn_cpu::OperatorDescription& row, int threads) : row_(row), threads_(threads) {}
    // After phase 1: the executor made repeatable, and the workspace it asked for.
    void FinishCallSetUp(aclnnStatus phase1_status, uint64_t workspace_size) {
        FinishSetUp(phase1_status);
        if (workspace_size > 0) workspace_ = std::make_unique<DeviceBlock>(static_cast<int64_t>(workspace_size));
        workspace_size_ = workspace_size;
    }

private:
    const aclnn_cpu::OperatorDescription& row_;
    int threads_;
    std::unique_ptr<DeviceBlock> workspace_;
    uint64_t workspace_size_ = 0;
};

class TableOperatorWorkload : public RowCallWorkload {
public:
    TableOperatorWorkload(const aclnn_cpu::OperatorDescription& row, int64_t reduction, int64_t n, int threads,
                          const TableForm& form)
        : RowCallWorkload(row, threads) {
        const bool optional_given = form.optional_given, hard_labels = form.hard_labels;
        const bool summed_back = form.summed_back;
        const bool reduced = aclnn_cpu::ReducesTo(row, reduction);
        const bool over_first_dim = reduced && row.result == aclnn_cpu::ResultRule::kLossOverFirstDim;
        const std::vector<int64_t> input_dims = over_first_dim || summed_back ? std::vector<int64_t>{n / 1024, 1024}
                                                                              : std::vector<int64_t>{n};
        const std::vector<int64_t> out_dims = over_first_dim ? std::vector<int64_t>{1024}
                                              : summed_back  ? std::vector<int64_t>{1, 1024}
                                              : reduced      ? std::vector<int64_t>{}
                                                             : input_dims;
        std::vector<const aclTensor*> inputs;
        for (int k = 0; k <= row.input_count; ++k) {
            if (k < row.input_count && row.inputs[k].optional && !optional_given) {
                inputs.push_back(nullptr);  // absent: no buffer, no traffic
                continue;
            }
            ValueInterval interval = k < row.input_count ? IntervalOf(row.inputs[k].domain) : ValueInterval{};
            interval.ends_only = hard_labels && k < row.input_count && aclnn_cpu::IsProbabilityLabel(row, k);
            const bool self_summed_back = summed_back && k == row.self_input;
            aclDataType type = form.integers == IntegerInputs::kAllInt64 ? ACL_INT64 : ACL_FLOAT;
            if (form.integers == IntegerInputs::kInt32Target && k < row.input_count &&
                aclnn_cpu::RoleOf(row, k) == aclnn_cpu::InputRole::kTarget)
                type = ACL_INT32;
            tensors_.push_back(std::make_unique<BenchTensor>(k < row.input_count && !self_summed_back ? input_dims
                                                                                                     : out_dims,
                                                             std::vector<int64_t>{}, type,
                                                             static_cast<uint32_t>(k + 1), interval));
            // Each input the kernel reads, read once; out written once.
            if (k == row.input_count || row.inputs[k].values_read) bytes_ += tensors_.back()->bytes();
            if (k < row.input_count) inputs.push_back(tensors_.back()->tensor());
        }
        items_ = n;
        double parameters[aclnn_cpu::kMaxOperatorParameters] = {};
        for (int p = 0; p < row.parameter_count; ++p) parameters[p] = row.parameters[p].default_value;
        aclnn_cpu::SetReductionValue(row, parameters, reduction);
        uint64_t workspace_size = 0;
        const aclnnStatus status =
            row.Phase1(inputs.data(), parameters, tensors_.back()->tensor(), &workspace_size, &executor_);
        FinishCallSetUp(status, workspace_size);
    }
};

// A row along a dim (the softmax family) or by class rows (the fused cross-entropy) on [rows, classes] of one dtype,
// through the row's own phase functions with its defaults and a mean: every input of self's shape except the
// class-index targets ([rows], in range), the one-element ones ([1]) and, for a class-rows loss's mean, the incoming
// gradient (0-d); optional and unread inputs absent. Credited with the bytes of its tensors of rows x classes
// elements (the targets and sums are a few bytes per row, which the plain loop it is paired with does not move).
class ClassRowWorkload : public RowCallWorkload {
public:
    ClassRowWorkload(const aclnn_cpu::OperatorDescription& row, aclDataType type, int64_t rows, int64_t classes,
                     int threads)
        : RowCallWorkload(row, threads) {
        const std::vector<int64_t> self_dims = {rows, classes}, per_sample = {rows}, one = {1}, none = {};
        const bool along_dim = row.iteration == aclnn_cpu::Iteration::kAlongDim;
        std::vector<const aclTensor*> inputs;
        for (int k = 0; k < row.input_count; ++k) {
            const aclnn_cpu::InputDescription& input = row.inputs[k];
            if (input.optional || !input.values_read) {
                inputs.push_back(nullptr);
                continue;
            }
            const bool classes_index = input.domain == aclnn_cpu::ValueDomain::kClassIndex;
            const std::vector<int64_t>& dims = along_dim || k == row.self_input  ? self_dims
                                               : classes_index                   ? per_sample
                                               : input.shape == aclnn_cpu::InputShape::kOneElement ? one
                                                                                                   : none;
            Add(dims, classes_index ? ACL_INT64 : type, static_cast<uint32_t>(k + 1), rows * classes);
            if (classes_index) FillClassIndices(classes);
            inputs.push_back(tensors_.back()->tensor());
        }
        aclTensor* outs[aclnn_cpu::kMaxOperatorOutputs] = {};
        const bool reduced = !along_dim && !aclnn_cpu::IsGradient(row);  // a loss: its mean is 0-d
        Add(reduced ? none : self_dims, type, 100, rows * classes);
        outs[0] = tensors_.back()->tensor();
        for (int k = 1; k < row.output_count; ++k) {
            Add(row.more_outs[k - 1].shape == aclnn_cpu::OutputShape::kSelf ? self_dims : one, type,
                static_cast<uint32_t>(100 + k), rows * classes);
            outs[k] = tensors_.back()->tensor();
        }
        items_ = rows * classes;
        double parameters[aclnn_cpu::kMaxOperatorParameters] = {};
        for (int p = 0; p < row.parameter_count; ++p) parameters[p] = row.parameters[p].default_value;
        aclnn_cpu::SetReductionValue(row, parameters, 1);
        uint64_t workspace_size = 0;
        FinishCallSetUp(row.get_workspace_size(inputs.data(), parameters, outs, &workspace_size, &executor_),
                        workspace_size);
    }

private:
    // A tensor of `dims`; its bytes count where it holds `whole` elements.
    void Add(const std::vector<int64_t>& dims, aclDataType type, uint32_t seed, int64_t whole) {
        int64_t count = 1;
        for (int64_t d : dims) count *= d;
        tensors_.push_back(std::make_unique<BenchTensor>(dims, std::vector<int64_t>{}, type, seed));
        if (count == whole) bytes_ += tensors_.back()->bytes();
    }
    // The last tensor's int64 values replaced by classes drawn uniformly from [0, classes).
    void FillClassIndices(int64_t classes) {
        auto* data = static_cast<int64_t*>(tensors_.back()->data());
        if (data == nullptr) return;
        std::mt19937_64 rng(7);
        for (int64_t i = 0; i < tensors_.back()->bytes() / 8; ++i) data[i] = static_cast<int64_t>(rng() % classes);
    }

};

// Arrays for the comparison kernels: `reads` inputs and `writes` outputs of n elements. Borrowed from the
// partner's buffers where there is a partner (its first `reads` for the inputs, its last `writes` for the
// outputs; a partner that lends too few is a set-up error, not a silent fallback to separate memory), else
// allocated and filled with a normal value (1.0 in fp16, a small normal in fp32).
class Arrays : public Workload {
protected:
    Arrays(int reads, int writes, int64_t n, int element_size, const Workload* partner) : n_(n) {
        const int count = reads + writes;
        if (partner != nullptr) {
            const std::vector<void*> lent = partner->Buffers(n * element_size);
            if (static_cast<int>(lent.size()) < count) {
                error_ = "the paired operator lends " + std::to_string(lent.size()) + " buffers of " +
                         std::to_string(n) + " elements; the comparison loop needs " + std::to_string(count);
                return;
            }
            pointers_.assign(lent.begin(), lent.begin() + reads);
            pointers_.insert(pointers_.end(), lent.end() - writes, lent.end());
            return;
        }
        for (int i = 0; i < count; ++i) {
            blocks_.push_back(std::make_unique<DeviceBlock>(n * element_size));
            std::memset(blocks_.back()->data(), 0x3c, static_cast<size_t>(n * element_size));
            pointers_.push_back(blocks_.back()->data());
        }
    }
    template <typename T>
    T* at(int i) const {
        return static_cast<T*>(pointers_[i]);
    }
    int64_t n_;

private:
    std::vector<std::unique_ptr<DeviceBlock>> blocks_;
    std::vector<void*> pointers_;
};

// The plain reduction with a loss's traffic: the sum of products of 2 to 4 arrays, vectorised and threaded.
class PlainSum : public Arrays {
public:
    PlainSum(int reads, int64_t n, int threads, const Workload* partner)
        : Arrays(reads, 0, n, 4, partner), reads_(reads), threads_(threads) {
        bytes_ = n * 4 * reads;
        items_ = n;
        if (reads < 2 || reads > 4) error_ = "no plain sum reads " + std::to_string(reads) + " arrays (2 to 4)";
    }
    void Run() override {
        if (reads_ == 4) {
            benchmark_sink_ = PlainSum4Read(at<float>(0), at<float>(1), at<float>(2), at<float>(3), n_, threads_);
        } else if (reads_ == 3) {
            benchmark_sink_ = PlainSum3Read(at<float>(0), at<float>(1), at<float>(2), n_, threads_);
        } else {
            benchmark_sink_ = PlainSum2Read(at<float>(0), at<float>(1), n_, threads_);
        }
    }

private:
    int reads_, threads_;
    volatile float benchmark_sink_ = 0;
};

// The 2-read sum over the first dim into 1024 float64 column sums.
class PlainColumnSum : public Arrays {
public:
    PlainColumnSum(int64_t n, int threads, const Workload* partner) : Arrays(2, 0, n, 4, partner), threads_(threads) {
        bytes_ = n * 8;
        items_ = n;
    }
    void Run() override { benchmark_sink_ = PlainColumnSum2Read(at<float>(0), at<float>(1), n_, 1024, threads_); }

private:
    int threads_;
    volatile double benchmark_sink_ = 0;
};

// The 2-read sum of int64 elements.
class PlainIntegerSum : public Arrays {
public:
    PlainIntegerSum(int64_t n, int threads, const Workload* partner) : Arrays(2, 0, n, 8, partner), threads_(threads) {
        bytes_ = n * 16;
        items_ = n;
    }
    void Run() override { benchmark_sink_ = PlainSum2Read64(at<int64_t>(0), at<int64_t>(1), n_, threads_); }

private:
    int threads_;
    volatile int64_t benchmark_sink_ = 0;
};

class PlainLoop : public Arrays {
public:
    PlainLoop(int reads, int element_size, int64_t n, int threads, const Workload* partner)
        : Arrays(reads, 1, n, element_size, partner), reads_(reads), element_size_(element_size), threads_(threads) {
        bytes_ = n * element_size * (reads + 1);
        items_ = n;
        // A loop that moved fewer bytes than it is credited with would flatter every ratio against it.
        const int most_reads = element_size == 4 ? 5 : element_size == 8 ? 2 : 3;
        const int fewest_reads = element_size == 8 ? 2 : 1;
        if (reads < fewest_reads || reads > most_reads) {
            error_ = "no plain loop reads " + std::to_string(reads) + " arrays of " + std::to_string(element_size) +
                     "-byte elements (" + std::to_string(fewest_reads) + " to " + std::to_string(most_reads) + ")";
        }
    }
    void Run() override {
        if (element_size_ == 8) {
            PlainLoop2Read1Write64(at<int64_t>(0), at<int64_t>(1), at<int64_t>(2), n_, threads_);
        } else if (element_size_ == 4) {
            switch (reads_) {
                case 5:
                    PlainLoop5Read1Write(at<float>(0), at<float>(1), at<float>(2), at<float>(3), at<float>(4),
                                         at<float>(5), n_, threads_);
                    break;
                case 4:
                    PlainLoop4Read1Write(at<float>(0), at<float>(1), at<float>(2), at<float>(3), at<float>(4), n_,
                                         threads_);
                    break;
                case 3:
                    PlainLoop3Read1Write(at<float>(0), at<float>(1), at<float>(2), at<float>(3), n_, threads_);
                    break;
                case 1: PlainLoop1Read1Write(at<float>(0), at<float>(1), n_, threads_); break;
                default:
                    PlainLoop2Read1Write(at<float>(0), at<float>(1), at<float>(2), n_, threads_);
            }
        } else if (reads_ == 1) {
            PlainLoop1Read1Write16(at<uint16_t>(0), at<uint16_t>(1), n_, threads_);
        } else if (reads_ == 3) {
            PlainLoop3Read1Write16(at<uint16_t>(0), at<uint16_t>(1), at<uint16_t>(2), at<uint16_t>(3), n_, threads_);
        } else {
            PlainLoop2Read1Write16(at<uint16_t>(0), at<uint16_t>(1), at<uint16_t>(2), n_, threads_);
        }
    }

private:
    int reads_, element_size_, threads_;
};

// One temporary as PyTorch's CPU allocator gives it: posix_memalign with 64-byte alignment, freed when the
// tensor dies. There is no caching on the CPU, so a 64 MiB temporary is a fresh mmap whose pages fault in
// on first touch.
struct FreshBuffer {
    explicit FreshBuffer(int64_t n) {
        if (posix_memalign(&data, 64, static_cast<size_t>(n) * sizeof(float)) != 0) data = nullptr;
    }
    ~FreshBuffer() { release(); }
    FreshBuffer(const FreshBuffer&) = delete;
    FreshBuffer& operator=(const FreshBuffer&) = delete;
    void release() {
        std::free(data);
        data = nullptr;
    }
    float* get() const { return static_cast<float*>(data); }
    void* data = nullptr;
};

class Composite : public Arrays {
public:
    // fresh: allocate the temporaries on every run, as PyTorch does; otherwise allocate them once and keep
    // them warm (a lower bound on the framework's cost).
    Composite(int64_t n, int threads, bool fresh) : Arrays(3, 1, n, 4, nullptr), threads_(threads), fresh_(fresh) {
        if (!fresh_) {
            kept_ = std::make_unique<DeviceBlock>(3 * n * 4);
            if (kept_->data() == nullptr) {
                error_ = "cannot allocate the composite's temporaries";
                return;
            }
            std::memset(kept_->data(), 0, static_cast<size_t>(3 * n * 4));  // fault the pages in before timing
        }
        bytes_ = n * 16;  // the operator's own traffic, so the rates compare the same work
        items_ = n;
    }
    void Run() override {
        const float* x = at<float>(0);
        const float* y = at<float>(1);
        const float* g = at<float>(2);
        float* out = at<float>(3);
        if (!fresh_) {
            float* t = static_cast<float*>(kept_->data());
            EagerComposite(x, y, g, 0.5f, out, n_, threads_, {t, t + n_, t + 2 * n_, nullptr});
            return;
        }
        FreshBuffer minus_y(n_), product(n_), z(n_);
        if (minus_y.get() == nullptr || product.get() == nullptr || z.get() == nullptr) std::abort();
        EagerComposite(x, y, g, 0.5f, out, n_, threads_,
                       {minus_y.get(), product.get(), z.get(), [&] {
                            minus_y.release();
                            product.release();
                        }});
    }

private:
    std::unique_ptr<DeviceBlock> kept_;
    int threads_;
    bool fresh_;
};

class ScalarReference : public Arrays {
public:
    ScalarReference(int64_t n, int threads) : Arrays(3, 1, n, 4, nullptr), threads_(threads) {
        bytes_ = n * 16;
        items_ = n;
    }
    void Run() override {
        ScalarReferencePath(at<float>(0), at<float>(1), at<float>(2), 0.5f, at<float>(3), n_, threads_);
    }

private:
    int threads_;
};

}  // namespace

const aclnn_cpu::OperatorDescription& ScenarioRow(bool loss) {
    using aclnn_cpu::ResultRule;
    for (const aclnn_cpu::OperatorDescription& row : aclnn_cpu::kOperators) {
        if (row.result != (loss ? ResultRule::kLoss : ResultRule::kGradient) || row.input_count != (loss ? 2 : 3) ||
            row.inputs_share_dtype || row.out_dtype_input >= 0)
            continue;
        bool free = true;
        for (int k = 0; k < row.input_count; ++k) {
            const aclnn_cpu::InputDescription& input = row.inputs[k];
            free = free && input.shape == aclnn_cpu::InputShape::kBroadcast && input.values_read && !input.optional;
        }
        if (free) return row;
    }
    std::fprintf(stderr, "no row of the table takes the engine's %s scenarios\n", loss ? "loss" : "gradient");
    std::abort();
}

std::unique_ptr<Workload> MakeOperator(const std::string& variant, aclDataType type, int64_t n, int threads) {
    // The loss's variants are named loss_*; the others are the gradient's.
    const bool loss = variant.rfind("loss_", 0) == 0;
    return std::make_unique<OperatorWorkload>(ScenarioRow(loss), variant, type, n, threads);
}

std::unique_ptr<Workload> MakeTableOperator(const aclnn_cpu::OperatorDescription& row, int64_t reduction, int64_t n,
                                            int threads, const TableForm& form) {
    return std::make_unique<TableOperatorWorkload>(row, reduction, n, threads, form);
}

std::unique_ptr<Workload> MakeClassRowOperator(const aclnn_cpu::OperatorDescription& row, aclDataType type,
                                               int64_t rows, int64_t classes, int threads) {
    return std::make_unique<ClassRowWorkload>(row, type, rows, classes, threads);
}

std::unique_ptr<Workload> MakePlainLoop(int reads, int element_size, int64_t n, int threads,
                                        const Workload* partner) {
    return std::make_unique<PlainLoop>(reads, element_size, n, threads, partner);
}

std::unique_ptr<Workload> MakePlainSum(int64_t n, int threads, const Workload* partner, int reads) {
    return std::make_unique<PlainSum>(reads, n, threads, partner);
}

std::unique_ptr<Workload> MakePlainColumnSum(int64_t n, int threads, const Workload* partner) {
    return std::make_unique<PlainColumnSum>(n, threads, partner);
}

std::unique_ptr<Workload> MakePlainIntegerSum(int64_t n, int threads, const Workload* partner) {
    return std::make_unique<PlainIntegerSum>(n, threads, partner);
}

std::unique_ptr<Workload> MakeComposite(int64_t n, int threads, bool fresh_temporaries) {
    return std::make_unique<Composite>(n, threads, fresh_temporaries);
}

std::unique_ptr<Workload> MakeScalarReference(int64_t n, int threads) {
    return std::make_unique<ScalarReference>(n, threads);
}

}  // namespace bench
