// Benchmark of aclnnSoftMarginLossBackward against its yardsticks, in one run (SPEC section 5):
// the operator through the public API (a repeatable executor, phase 2 + stream sync per iteration) for
// fp32/fp16/bf16, full and 0-d gradOutput, a broadcast [N/64, 1] target, a transposed self and mixed dtypes,
// at 1K to 64M elements, on 1 thread and on all cores; the same-traffic plain loops, a composite multi-pass
// evaluation and the scalar reference kernel; and the latency of a whole 4-element call. Ends with the
// table of ratios the targets are stated in.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"
#include "common/float_convert.h"
#include "comparison_kernels.h"
#include "kernels/smlb_simd.h"
#include "ratio_report.h"

namespace {

int64_t TypeSize(aclDataType type) { return type == ACL_FLOAT ? 4 : 2; }

// A tensor in one aclrtMalloc block, filled with values in [-4, 4].
class BenchTensor {
public:
    BenchTensor(std::vector<int64_t> dims, std::vector<int64_t> strides, aclDataType type, uint64_t seed)
        : type_(type) {
        if (strides.empty()) {
            strides.assign(dims.size(), 1);
            for (int d = static_cast<int>(dims.size()) - 2; d >= 0; --d) strides[d] = strides[d + 1] * dims[d + 1];
        }
        int64_t span = 1;
        for (size_t d = 0; d < dims.size(); ++d) span += (dims[d] - 1) * strides[d];
        elements_ = span;
        bytes_ = span * TypeSize(type);
        if (aclrtMalloc(&data_, static_cast<size_t>(bytes_), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) std::abort();
        std::mt19937 rng(static_cast<uint32_t>(seed));
        std::uniform_real_distribution<float> values(-4.0f, 4.0f);
        for (int64_t i = 0; i < span; ++i) {
            const float v = values(rng);
            if (type == ACL_FLOAT) {
                static_cast<float*>(data_)[i] = v;
            } else {
                static_cast<uint16_t*>(data_)[i] =
                    type == ACL_FLOAT16 ? aclnn_cpu::FloatToHalf(v) : aclnn_cpu::FloatToBf16(v);
            }
        }
        tensor_ = aclCreateTensor(dims.data(), dims.size(), type, strides.data(), 0, ACL_FORMAT_ND, dims.data(),
                                  dims.size(), data_);
    }
    ~BenchTensor() {
        aclDestroyTensor(tensor_);
        aclrtFree(data_);
    }
    aclTensor* tensor() const { return tensor_; }
    int64_t bytes() const { return bytes_; }
    void* data() const { return data_; }

private:
    aclDataType type_;
    int64_t elements_ = 0;
    int64_t bytes_ = 0;
    void* data_ = nullptr;
    aclTensor* tensor_ = nullptr;
};

struct OperandSpec {
    std::vector<int64_t> dims;
    std::vector<int64_t> strides;  // empty: contiguous
    aclDataType type;
};

struct OpSpec {
    OperandSpec grad, self, target, out;
};

OpSpec MakeSpec(const std::string& variant, aclDataType type, int64_t n) {
    const std::vector<int64_t> flat = {n};
    if (variant == "full") return {{flat, {}, type}, {flat, {}, type}, {flat, {}, type}, {flat, {}, type}};
    if (variant == "scalar_grad") return {{{}, {}, type}, {flat, {}, type}, {flat, {}, type}, {flat, {}, type}};
    if (variant == "broadcast_target") {
        const std::vector<int64_t> rows = {n / 64, 64};
        return {{rows, {}, type}, {rows, {}, type}, {{n / 64, 1}, {}, type}, {rows, {}, type}};
    }
    if (variant == "transposed_self") {
        const int64_t side = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(n))));
        const std::vector<int64_t> square = {side, side};
        return {{square, {}, type}, {square, {1, side}, type}, {square, {}, type}, {square, {}, type}};
    }
    // mixed: every input a different dtype, out FLOAT16
    return {{flat, {}, ACL_BF16}, {flat, {}, ACL_FLOAT}, {flat, {}, ACL_FLOAT16}, {flat, {}, ACL_FLOAT16}};
}

void SetThreads(int threads) { setenv("ACLNN_CPU_NUM_THREADS", std::to_string(threads).c_str(), 1); }

void BM_Operator(benchmark::State& state, OpSpec spec, int threads, int64_t n) {
    SetThreads(threads);
    BenchTensor grad(spec.grad.dims, spec.grad.strides, spec.grad.type, 1);
    BenchTensor self(spec.self.dims, spec.self.strides, spec.self.type, 2);
    BenchTensor target(spec.target.dims, spec.target.strides, spec.target.type, 3);
    BenchTensor out(spec.out.dims, spec.out.strides, spec.out.type, 4);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    if (aclnnSoftMarginLossBackwardGetWorkspaceSize(grad.tensor(), self.tensor(), target.tensor(), 1, out.tensor(),
                                                    &workspace_size, &executor) != 0 ||
        aclSetAclOpExecutorRepeatable(executor) != 0) {
        state.SkipWithError(aclGetRecentErrMsg());
        return;
    }
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    for (auto _ : state) {
        aclnnSoftMarginLossBackward(nullptr, 0, executor, stream);
        aclrtSynchronizeStream(stream);
    }
    aclDestroyAclOpExecutor(executor);
    aclrtDestroyStream(stream);
    // Traffic: every input byte read once (a broadcast operand is read in full once), every output byte written.
    const int64_t bytes = grad.bytes() + self.bytes() + target.bytes() + out.bytes();
    state.SetBytesProcessed(state.iterations() * bytes);
    state.SetItemsProcessed(state.iterations() * n);
}

// Device-allocated arrays for the comparison kernels.
struct Arrays {
    Arrays(int64_t count, int64_t element_size) : n(count) {
        for (void*& p : data) {
            aclrtMalloc(&p, static_cast<size_t>(n * element_size), ACL_MEM_MALLOC_HUGE_FIRST);
            std::memset(p, 0x3c, static_cast<size_t>(n * element_size));  // 1.0 in fp16, a normal fp32
        }
    }
    ~Arrays() {
        for (void* p : data) aclrtFree(p);
    }
    template <typename T>
    T* at(int i) const { return static_cast<T*>(data[i]); }
    int64_t n;
    void* data[4] = {};
};

void BM_Loop(benchmark::State& state, int reads, int element_size, int threads, int64_t n) {
    Arrays a(n, element_size);
    for (auto _ : state) {
        if (element_size == 4) {
            if (reads == 3) bench::PlainLoop3Read1Write(a.at<float>(0), a.at<float>(1), a.at<float>(2), a.at<float>(3), n, threads);
            else bench::PlainLoop2Read1Write(a.at<float>(0), a.at<float>(1), a.at<float>(3), n, threads);
        } else {
            if (reads == 3) bench::PlainLoop3Read1Write16(a.at<uint16_t>(0), a.at<uint16_t>(1), a.at<uint16_t>(2), a.at<uint16_t>(3), n, threads);
            else bench::PlainLoop2Read1Write16(a.at<uint16_t>(0), a.at<uint16_t>(1), a.at<uint16_t>(3), n, threads);
        }
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(state.iterations() * n * element_size * (reads + 1));
    state.SetItemsProcessed(state.iterations() * n);
}

void BM_Composite(benchmark::State& state, int threads, int64_t n) {
    Arrays a(n, 4);
    std::vector<float> scratch(static_cast<size_t>(5 * n));
    for (auto _ : state) {
        bench::CompositeMultiPass(a.at<float>(0), a.at<float>(1), a.at<float>(2), 0.5f, a.at<float>(3), scratch.data(),
                                  n, threads);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(state.iterations() * n * 16);
    state.SetItemsProcessed(state.iterations() * n);
}

void BM_ScalarReference(benchmark::State& state, int threads, int64_t n) {
    Arrays a(n, 4);
    for (auto _ : state) {
        bench::ScalarReferencePath(a.at<float>(0), a.at<float>(1), a.at<float>(2), 0.5f, a.at<float>(3), n, threads);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(state.iterations() * n * 16);
    state.SetItemsProcessed(state.iterations() * n);
}

// The whole two-phase call on 4 elements plus a stream sync, as a program calling it once would pay.
void BM_Call4(benchmark::State& state) {
    SetThreads(1);
    BenchTensor grad({2, 2}, {}, ACL_FLOAT, 1), self({2, 2}, {}, ACL_FLOAT, 2), target({2, 2}, {}, ACL_FLOAT, 3),
        out({2, 2}, {}, ACL_FLOAT, 4);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    for (auto _ : state) {
        uint64_t workspace_size = 0;
        aclOpExecutor* executor = nullptr;
        aclnnSoftMarginLossBackwardGetWorkspaceSize(grad.tensor(), self.tensor(), target.tensor(), 1, out.tensor(),
                                                    &workspace_size, &executor);
        aclnnSoftMarginLossBackward(nullptr, workspace_size, executor, stream);
        aclrtSynchronizeStream(stream);
    }
    aclrtDestroyStream(stream);
    state.SetItemsProcessed(state.iterations() * 4);
}

std::string Name(const std::string& base, int64_t n, int threads) {
    return base + "/n:" + std::to_string(n) + "/threads:" + std::to_string(threads);
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    const int cores = static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
    std::vector<int> thread_counts = {1};
    if (cores > 1) thread_counts.push_back(cores);
    // ACLNN_BENCH_QUICK=1 keeps to the sizes the targets are stated at, for a shorter run.
    const bool quick = std::getenv("ACLNN_BENCH_QUICK") != nullptr;
    std::vector<int64_t> sizes = {int64_t{1} << 10, int64_t{1} << 16, int64_t{1} << 20, int64_t{1} << 24,
                                  int64_t{1} << 26};
    if (quick) sizes = {int64_t{1} << 24};
    const std::vector<int64_t> large = quick ? sizes : std::vector<int64_t>{int64_t{1} << 24, int64_t{1} << 26};

    struct Variant {
        const char* name;
        const char* type_name;
        aclDataType type;
        const char* variant;
    };
    const Variant variants[] = {
        {"op/f32/full", "f32", ACL_FLOAT, "full"},
        {"op/f32/scalar_grad", "f32", ACL_FLOAT, "scalar_grad"},
        {"op/f16/full", "f16", ACL_FLOAT16, "full"},
        {"op/bf16/full", "bf16", ACL_BF16, "full"},
        {"op/bf16/scalar_grad", "bf16", ACL_BF16, "scalar_grad"},
        {"op/f32/broadcast_target", "f32", ACL_FLOAT, "broadcast_target"},
        {"op/f32/transposed_self", "f32", ACL_FLOAT, "transposed_self"},
        {"op/mixed/full", "mixed", ACL_FLOAT, "mixed"},
    };
    // The machine's memory bandwidth drifts from second to second (other tenants), so the sizes the targets
    // are stated at are measured three times and compared by their medians.
    auto configure = [&](benchmark::internal::Benchmark* b, int64_t n) {
        b->UseRealTime()->MinTime(0.3);
        if (n >= (int64_t{1} << 24)) b->Repetitions(3)->ReportAggregatesOnly(true);
    };
    for (int64_t n : sizes) {
        for (int threads : thread_counts) {
            for (const Variant& v : variants) {
                configure(benchmark::RegisterBenchmark(Name(v.name, n, threads).c_str(), BM_Operator,
                                                       MakeSpec(v.variant, v.type, n), threads, n),
                          n);
            }
            for (int element_size : {4, 2}) {
                for (int reads : {3, 2}) {
                    const std::string base = std::string("loop/") + (reads == 3 ? "3r1w" : "2r1w") + "/" +
                                             (element_size == 4 ? "f32" : "16bit");
                    configure(benchmark::RegisterBenchmark(Name(base, n, threads).c_str(), BM_Loop, reads,
                                                           element_size, threads, n),
                              n);
                }
            }
            configure(benchmark::RegisterBenchmark(Name("composite/f32", n, threads).c_str(), BM_Composite, threads,
                                                   n),
                      n);
            configure(benchmark::RegisterBenchmark(Name("scalar_reference/f32", n, threads).c_str(),
                                                   BM_ScalarReference, threads, n),
                      n);
        }
    }
    benchmark::RegisterBenchmark("latency/call4", BM_Call4)->Repetitions(9)->ReportAggregatesOnly(true);

    std::printf("SIMD target: %s; cores: %d\n", aclnn_cpu::kernels::ActiveSimdTarget().c_str(), cores);
    bench::CollectingReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    bench::PrintRatioTable(reporter.results(), large, thread_counts);
    benchmark::Shutdown();
    return 0;
}
