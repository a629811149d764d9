// Benchmark of the operators against their yardsticks, in one run (docs/contract.md section 5, and
// docs/performance.md): the soft margin operators in detail, and every row of the operator table against the
// plain loop with its traffic (pair/family/...).
//
// Single benchmarks: the operator through the public API (fp32/fp16/bf16, full and 0-d gradOutput, a
// [N/64, 1] target, a transposed self, mixed dtypes) at 1K to 64M elements on 1 thread and on all cores, the
// same-traffic plain loops, PyTorch's composite evaluation (fresh or kept temporaries) and the scalar
// reference kernel; and the latency of a whole 4-element call.
//
// Paired benchmarks (pair/...): the two sides of each target's ratio run alternately within one benchmark,
// and the ratio is taken over the same seconds. This machine's memory bandwidth drifts by tens of percent
// from one second to the next, which makes ratios of separately timed benchmarks unreliable. A plain loop
// paired with an operator runs over the operator's own buffers: with separate allocations the ratio also
// depended on where each landed in physical memory, which differs from process to process
// (docs/performance.md, "Method"). Each pair is repeated (kPairRepetitions) and the ratio table gives the
// median with the range.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/simd_support.h"
#include "ratio_report.h"
#include "workloads.h"

namespace {

using Factory = std::function<std::unique_ptr<bench::Workload>()>;
// The second side of a pair, made knowing the first (a comparison loop borrows its buffers).
using PartnerFactory = std::function<std::unique_ptr<bench::Workload>(const bench::Workload& first)>;

// The forms a table row is measured in: its optional inputs all given, and none given ("bare_", the loop
// reading fewer) where it has some; a loss taking labels (binary cross-entropy's targets) in each form again
// with hard labels ("labels_": 0 or 1, the common training case, where binary cross-entropy's two logs become
// one) beside the soft ones.
struct FamilyForm {
    bool optional_given;
    bool hard_labels;
    bool summed_back;  // a gradient of self's shape summed back from a larger target ("summed_back_")
    bool fewest_reads;        // no optional input given, or none to give (the in-cache headroom's form)
    std::string prefix;       // of the pair's name, after family/<row>/
    std::string description;  // for the ratio table
    bench::IntegerInputs integers = bench::IntegerInputs::kNone;  // "int64_" / "int32_target_" forms

    bench::TableForm Table() const { return {optional_given, hard_labels, summed_back, integers}; }
};

// The rows measured on [rows, C] class rows (bench::MakeClassRowOperator): along a dim or by class rows.
bool ByRowsOfClasses(const aclnn_cpu::OperatorDescription& row) {
    return row.iteration == aclnn_cpu::Iteration::kAlongDim || row.iteration == aclnn_cpu::Iteration::kClassRows;
}

// A small vocabulary, a language model's and a large one; each row's f32 and bf16 calls.
constexpr int64_t kClassCounts[] = {1024, 32768, 262144};
constexpr aclDataType kClassRowTypes[] = {ACL_FLOAT, ACL_BF16};
// In cache: 1M elements (4 rows at the largest C), 4 MiB per f32 tensor: L3 holds a call's tensors and serves them
// faster than these rows compute, and a call is long enough that its start and end cost little (at 256K elements a
// call took longer per element than from memory).
constexpr int64_t kClassRowsInCache = int64_t{1} << 20;

const char* ClassRowTypeName(aclDataType type) { return type == ACL_FLOAT ? "f32" : "bf16"; }

// The name of a class-row pair after pair/, without its size and threads: class_rows/<row>/<dtype>/C:<C>/<what>.
std::string ClassRowPair(const aclnn_cpu::OperatorDescription& row, aclDataType type, int64_t classes,
                         const std::string& what) {
    return std::string("class_rows/") + row.name + "/" + ClassRowTypeName(type) + "/C:" + std::to_string(classes) +
           "/" + what;
}

std::vector<FamilyForm> FamilyForms(const aclnn_cpu::OperatorDescription& row) {
    std::vector<FamilyForm> forms;
    // The NLL losses read one score per row of self; the rows of classes have their own pairs (class_rows/).
    if (row.iteration == aclnn_cpu::Iteration::kClassIndex || ByRowsOfClasses(row)) return forms;
    const bool has_optional = aclnn_cpu::ReadInputCount(row, false) != aclnn_cpu::ReadInputCount(row);
    for (const bool optional_given : {true, false}) {
        if (!optional_given && !has_optional) continue;  // none to leave out
        for (const bool hard_labels : {false, true}) {
            if (hard_labels && (aclnn_cpu::IsGradient(row) || !aclnn_cpu::TakesProbabilityLabels(row))) continue;
            std::string description = optional_given ? "" : "no optional inputs";
            if (hard_labels) description += description.empty() ? "hard labels" : ", hard labels";
            forms.push_back({optional_given, hard_labels, false, !optional_given || !has_optional,
                             std::string(optional_given ? "" : "bare_") + (hard_labels ? "labels_" : ""),
                             description.empty() ? "" : " (" + description + ")"});
        }
    }
    // Against the sum loop of its reads: the values go into 1024 column sums rather than out.
    if (row.result == aclnn_cpu::ResultRule::kGradientOfSelf)
        forms.push_back(
            {true, false, true, false, "summed_back_", " (self [1, 1024] summed back from [n/1024, 1024])"});
    // An operator that computes integers (INT64 in its list): all INT64 against the int64 loops, and an INT32
    // target beside fp32 (read in the promote type) against the fp32 loops of the same bytes.
    if (row.dtypes->newer_chips.Contains(ACL_INT64)) {
        forms.push_back({true, false, false, false, "int64_", " (INT64 inputs and out)", bench::IntegerInputs::kAllInt64});
        forms.push_back({true, false, false, false, "int32_target_", " (INT32 target, f32 self)",
                         bench::IntegerInputs::kInt32Target});
    }
    return forms;
}

// How a gradient row runs in its pair: its mean where it has a reduction, else its one form.
std::string ElementwiseForm(const aclnn_cpu::OperatorDescription& row) {
    return aclnn_cpu::ReductionParameter(row) >= 0 ? "mean" : "elementwise";
}

// The in-cache headroom pair of a row's form without optional inputs, after pair/: headroom/<row>[/labels].
std::string HeadroomPair(const aclnn_cpu::OperatorDescription& row, const FamilyForm& form) {
    return std::string("headroom/") + row.name + (form.hard_labels ? "/labels" : "");
}

// Whether a form's mean is a sum over the first dim or summed back into columns (a float64 sum per column,
// loaded and stored with each value), whose in-cache rate the headroom also reports.
bool SumsColumns(const aclnn_cpu::OperatorDescription& row, const FamilyForm& form) {
    return form.summed_back || (form.fewest_reads && row.result == aclnn_cpu::ResultRule::kLossOverFirstDim);
}

// Its in-cache pair, after pair/: headroom/<row>/column_sums.
std::string ColumnSumHeadroomPair(const aclnn_cpu::OperatorDescription& row) {
    return std::string("headroom/") + row.name + "/column_sums";
}

void BM_Single(benchmark::State& state, const Factory& make) {
    auto workload = make();
    if (!workload->error().empty()) {
        state.SkipWithError(workload->error().c_str());
        return;
    }
    for (auto _ : state) workload->Run();
    state.SetBytesProcessed(state.iterations() * workload->bytes());
    state.SetItemsProcessed(state.iterations() * workload->items());
}

// Runs a and b alternately; reports each one's rates and ratio = rate(a) / rate(b), by elements or bytes.
void BM_Paired(benchmark::State& state, const Factory& make_a, const PartnerFactory& make_b, bool by_bytes) {
    auto a = make_a();
    auto b = make_b(*a);
    if (!a->error().empty() || !b->error().empty()) {
        state.SkipWithError((a->error() + b->error()).c_str());
        return;
    }
    using Clock = std::chrono::steady_clock;
    double seconds_a = 0, seconds_b = 0;
    for (auto _ : state) {
        const auto t0 = Clock::now();
        a->Run();
        const auto t1 = Clock::now();
        b->Run();
        const auto t2 = Clock::now();
        seconds_a += std::chrono::duration<double>(t1 - t0).count();
        seconds_b += std::chrono::duration<double>(t2 - t1).count();
    }
    const double runs = static_cast<double>(state.iterations());
    const double work_a = by_bytes ? static_cast<double>(a->bytes()) : static_cast<double>(a->items());
    const double work_b = by_bytes ? static_cast<double>(b->bytes()) : static_cast<double>(b->items());
    const double rate_a = work_a * runs / seconds_a, rate_b = work_b * runs / seconds_b;
    state.counters["rate_a"] = rate_a;
    state.counters["rate_b"] = rate_b;
    state.counters["ratio"] = rate_a / rate_b;
}

// Each pair runs kPairRepetitions times, each time with fresh workloads, and is reported by the median of its
// ratios with their range. One pair's ratio moved by up to a tenth between runs minutes apart on the Zen 5
// guest, with kernels a change did not touch, so one sample per row decided a target by the minute it ran in.
constexpr int kPairRepetitions = 3;

double SmallestOf(const std::vector<double>& values) { return *std::min_element(values.begin(), values.end()); }
double LargestOf(const std::vector<double>& values) { return *std::max_element(values.begin(), values.end()); }

void WithRepetitions(benchmark::internal::Benchmark* pair) {
    pair->Repetitions(kPairRepetitions)
        ->ReportAggregatesOnly(true)
        ->ComputeStatistics("min", SmallestOf)
        ->ComputeStatistics("max", LargestOf);
}

// The whole two-phase call of the scenarios' gradient row (mean) on 4 elements plus a stream sync, as a program
// calling it once would pay.
void BM_Call4(benchmark::State& state) {
    setenv("ACLNN_CPU_NUM_THREADS", "1", 1);
    const aclnn_cpu::OperatorDescription& row = bench::ScenarioRow(false);
    double parameters[aclnn_cpu::kMaxOperatorParameters] = {};
    for (int p = 0; p < row.parameter_count; ++p) parameters[p] = row.parameters[p].default_value;
    aclnn_cpu::SetReductionValue(row, parameters, 1);
    const int64_t dims[] = {2, 2};
    void* blocks[4];
    aclTensor* tensors[4];
    for (int k = 0; k < 4; ++k) {
        aclrtMalloc(&blocks[k], 16, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemset(blocks[k], 16, 0, 16);
        tensors[k] = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, blocks[k]);
    }
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    for (auto _ : state) {
        uint64_t workspace_size = 0;
        aclOpExecutor* executor = nullptr;
        row.Phase1(tensors, parameters, tensors[3], &workspace_size, &executor);
        row.run(nullptr, workspace_size, executor, stream);
        aclrtSynchronizeStream(stream);
    }
    aclrtDestroyStream(stream);
    for (int k = 0; k < 4; ++k) {
        aclDestroyTensor(tensors[k]);
        aclrtFree(blocks[k]);
    }
    state.SetItemsProcessed(state.iterations() * 4);
}

std::string Name(const std::string& base, int64_t n, int threads) {
    return base + "/n:" + std::to_string(n) + "/threads:" + std::to_string(threads);
}

// The CPU's model name from /proc/cpuinfo (Linux): x86 names it; Arm kernels give the implementer and part
// numbers, of which the server cores this project runs on are named here. "unknown" otherwise.
std::string CpuModel() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line, implementer, part;
    auto value = [](const std::string& text) {
        const size_t colon = text.find(':');
        return colon != std::string::npos && colon + 2 <= text.size() ? text.substr(colon + 2) : std::string();
    };
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) == 0) return value(line);
        if (implementer.empty() && line.rfind("CPU implementer", 0) == 0) implementer = value(line);
        if (part.empty() && line.rfind("CPU part", 0) == 0) part = value(line);
    }
    if (implementer.empty()) return "unknown";
    static const struct {
        const char* implementer;
        const char* part;
        const char* name;
    } kKnown[] = {{"0x48", "0xd01", "HiSilicon Kunpeng 920 (TaiShan v110)"}, {"0x41", "0xd0c", "Arm Neoverse N1"},
                  {"0x41", "0xd49", "Arm Neoverse N2"}, {"0x41", "0xd40", "Arm Neoverse V1"},
                  {"0x41", "0xd4f", "Arm Neoverse V2"}};
    for (const auto& known : kKnown) {
        if (implementer == known.implementer && part == known.part) return known.name;
    }
    return "Arm implementer " + implementer + ", part " + part;
}

// The core's clock while it runs (the turbo clock, which the kernels run at), measured as a chain of dependent
// instructions of known latency: integer multiplies on x86, 3 cycles each on every current x86 core (a chain
// of add-immediates would not do: recent Intel cores fold those in the renamer); adds on AArch64, 1 cycle each
// on the Neoverse and TaiShan cores. Under an emulator (qemu) the figure means nothing, like every timing.
std::string MeasuredClock() {
#if defined(__x86_64__) || defined(__aarch64__)
    constexpr int64_t kSteps = 100'000'000;
    uint64_t value = 1;
    const uint64_t one = 1;
    const auto start = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < kSteps; i += 4) {
#if defined(__x86_64__)
        asm volatile("imul %1, %0\n\timul %1, %0\n\timul %1, %0\n\timul %1, %0" : "+r"(value) : "r"(one));
#else
        asm volatile("add %0, %0, %1\n\tadd %0, %0, %1\n\t"
                     "add %0, %0, %1\n\tadd %0, %0, %1" : "+r"(value) : "r"(one));
#endif
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
#if defined(__x86_64__)
    constexpr double kCyclesPerStep = 3.0;
#else
    constexpr double kCyclesPerStep = 1.0;
#endif
    char text[32];
    std::snprintf(text, sizeof text, "%.2f GHz", kCyclesPerStep * static_cast<double>(kSteps) / seconds / 1e9);
    return text;
#else
    return "not measured on this architecture";
#endif
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    const int cores = static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
    std::vector<int> thread_counts = {1};
    if (cores > 1) thread_counts.push_back(cores);
    // ACLNN_BENCH_QUICK=1: only 16M and the paired targets, for a shorter run.
    const bool quick = std::getenv("ACLNN_BENCH_QUICK") != nullptr;
    const std::vector<int64_t> all_sizes = {int64_t{1} << 10, int64_t{1} << 16, int64_t{1} << 20, int64_t{1} << 24,
                                            int64_t{1} << 26};
    const std::vector<int64_t> large = quick ? std::vector<int64_t>{int64_t{1} << 24}
                                             : std::vector<int64_t>{int64_t{1} << 24, int64_t{1} << 26};

    struct Variant {
        const char* name;
        aclDataType type;
        const char* variant;
    };
    const Variant variants[] = {
        {"op/f32/full", ACL_FLOAT, "full"},
        {"op/f32/scalar_grad", ACL_FLOAT, "scalar_grad"},
        {"op/f16/full", ACL_FLOAT16, "full"},
        {"op/bf16/full", ACL_BF16, "full"},
        {"op/bf16/scalar_grad", ACL_BF16, "scalar_grad"},
        {"op/f32/broadcast_target", ACL_FLOAT, "broadcast_target"},
        {"op/f32/transposed_self", ACL_FLOAT, "transposed_self"},
        {"op/mixed/full", ACL_FLOAT, "mixed"},
        {"loss/f32/none", ACL_FLOAT, "loss_none"},
        {"loss/f32/mean", ACL_FLOAT, "loss_mean"},
        {"loss/bf16/none", ACL_BF16, "loss_none"},
    };
    auto single = [](const std::string& name, Factory make) {
        benchmark::RegisterBenchmark(name.c_str(), BM_Single, std::move(make))->UseRealTime()->MinTime(0.2);
    };
    if (!quick) {
        for (int64_t n : all_sizes) {
            for (int threads : thread_counts) {
                for (const Variant& v : variants) {
                    single(Name(v.name, n, threads), [=] { return bench::MakeOperator(v.variant, v.type, n, threads); });
                }
                for (int element_size : {4, 2}) {
                    for (int reads : {3, 2}) {
                        const std::string base = std::string("loop/") + (reads == 3 ? "3r1w" : "2r1w") + "/" +
                                                 (element_size == 4 ? "f32" : "16bit");
                        single(Name(base, n, threads),
                               [=] { return bench::MakePlainLoop(reads, element_size, n, threads); });
                    }
                }
                single(Name("loop/sum2r/f32", n, threads), [=] { return bench::MakePlainSum(n, threads); });
                single(Name("composite/f32", n, threads), [=] { return bench::MakeComposite(n, threads, true); });
                single(Name("composite_kept_temporaries/f32", n, threads),
                       [=] { return bench::MakeComposite(n, threads, false); });
                single(Name("scalar_reference/f32", n, threads),
                       [=] { return bench::MakeScalarReference(n, threads); });
            }
        }
    }
    // The targets, each measured as a pair.
    for (int64_t n : large) {
        for (int threads : thread_counts) {
            auto op = [=](const char* variant, aclDataType type) {
                return Factory([=] { return bench::MakeOperator(variant, type, n, threads); });
            };
            // A second side that does not need the first.
            auto alone = [](Factory make) { return PartnerFactory([=](const bench::Workload&) { return make(); }); };
            // A plain loop over the first side's own buffers.
            auto loop = [=](int reads) {
                return PartnerFactory(
                    [=](const bench::Workload& first) { return bench::MakePlainLoop(reads, 4, n, threads, &first); });
            };
            auto pair = [&](const std::string& name, Factory a, PartnerFactory b, bool by_bytes) {
                WithRepetitions(benchmark::RegisterBenchmark(Name("pair/" + name, n, threads).c_str(), BM_Paired,
                                                             std::move(a), std::move(b), by_bytes)
                                    ->UseRealTime()
                                    ->MinTime(1.0));
            };
            pair("f32_vs_loop3r1w", op("full", ACL_FLOAT), loop(3), true);
            pair("scalar_grad_vs_loop2r1w", op("scalar_grad", ACL_FLOAT), loop(2), true);
            pair("bf16_vs_f32", op("full", ACL_BF16), alone(op("full", ACL_FLOAT)), false);
            pair("f16_vs_f32", op("full", ACL_FLOAT16), alone(op("full", ACL_FLOAT)), false);
            pair("broadcast_target_vs_full", op("broadcast_target", ACL_FLOAT), alone(op("full", ACL_FLOAT)), false);
            pair("f32_vs_composite", op("full", ACL_FLOAT),
                 alone([=] { return bench::MakeComposite(n, threads, true); }), false);
            pair("f32_vs_composite_kept", op("full", ACL_FLOAT),
                 alone([=] { return bench::MakeComposite(n, threads, false); }), false);
            pair("transposed_self_vs_full", op("transposed_self", ACL_FLOAT), alone(op("full", ACL_FLOAT)), false);
            pair("mixed_vs_f32", op("mixed", ACL_FLOAT), alone(op("full", ACL_FLOAT)), false);
            pair("f32_vs_scalar_reference", op("full", ACL_FLOAT),
                 alone([=] { return bench::MakeScalarReference(n, threads); }), false);
            pair("loss_none_vs_loop2r1w", op("loss_none", ACL_FLOAT), loop(2), true);
            pair("loss_mean_vs_sum2r", op("loss_mean", ACL_FLOAT),
                 PartnerFactory([=](const bench::Workload& first) { return bench::MakePlainSum(n, threads, &first); }),
                 true);
            pair("loss_bf16_vs_f32", op("loss_none", ACL_BF16), alone(op("loss_none", ACL_FLOAT)), false);
            pair("loss_f16_vs_f32", op("loss_none", ACL_FLOAT16), alone(op("loss_none", ACL_FLOAT)), false);
            // Every operator of the table against the plain loop of its traffic: a gradient (mean, full
            // gradOutput) against the loop reading as many arrays; a loss under none likewise, under mean
            // against the sum reading as many.
            // Each in its forms (FamilyForms).
            for (const aclnn_cpu::OperatorDescription& row : aclnn_cpu::kOperators) {
                for (const FamilyForm& form : FamilyForms(row)) {
                    const int reads = aclnn_cpu::ReadInputCount(row, form.optional_given);
                    auto table_op = [=, &row](int64_t reduction) {
                        return Factory([=, &row] { return bench::MakeTableOperator(row, reduction, n, threads, form.Table()); });
                    };
                    const std::string base = std::string("family/") + row.name + "/" + form.prefix;
                    if (form.integers == bench::IntegerInputs::kAllInt64) {  // none and sum (CANN has no mean)
                        pair(base + "none_vs_loop", table_op(0), PartnerFactory([=](const bench::Workload& first) {
                                 return bench::MakePlainLoop(2, 8, n, threads, &first);
                             }),
                             true);
                        pair(base + "sum_vs_sum", table_op(2), PartnerFactory([=](const bench::Workload& first) {
                                 return bench::MakePlainIntegerSum(n, threads, &first);
                             }),
                             true);
                        continue;
                    }
                    if (SumsColumns(row, form)) {  // also against the loop of a column sum's traffic
                        pair(base + "mean_vs_column_sum", table_op(1),
                             PartnerFactory([=](const bench::Workload& first) {
                                 return bench::MakePlainColumnSum(n, threads, &first);
                             }),
                             true);
                    }
                    if (form.summed_back) {
                        pair(base + "mean_vs_sum", table_op(1), PartnerFactory([=](const bench::Workload& first) {
                                 return bench::MakePlainSum(n, threads, &first, reads);
                             }),
                             true);
                        continue;
                    }
                    if (aclnn_cpu::IsGradient(row)) {
                        pair(base + ElementwiseForm(row) + "_vs_loop", table_op(1), loop(reads), true);
                        continue;
                    }
                    pair(base + "none_vs_loop", table_op(0), loop(reads), true);
                    if (!aclnn_cpu::ReducesTo(row, 1)) continue;  // no reduction (an elementwise function)
                    pair(base + "mean_vs_sum", table_op(1), PartnerFactory([=](const bench::Workload& first) {
                             return bench::MakePlainSum(n, threads, &first, reads);
                         }),
                         true);
                }
            }
        }
    }
    // The class rows at 16M elements: against the plain loop over their own buffers (the rows' inputs of self's shape
    // read, logProb or out written), and against the same call in cache, the yardstick where a core's arithmetic is
    // slower than its memory.
    for (int threads : thread_counts) {
        const int64_t n = int64_t{1} << 24;
        for (const aclnn_cpu::OperatorDescription& row : aclnn_cpu::kOperators) {
            if (!ByRowsOfClasses(row)) continue;
            for (const aclDataType type : kClassRowTypes) {
                const int size = type == ACL_FLOAT ? 4 : 2;
                for (const int64_t classes : kClassCounts) {
                    auto call = [=, &row](int64_t elements, int call_threads) {
                        return Factory([=, &row] {
                            return bench::MakeClassRowOperator(row, type, elements / classes, classes, call_threads);
                        });
                    };
                    auto pair = [&](const std::string& what, Factory a, PartnerFactory b, bool by_bytes) {
                        WithRepetitions(benchmark::RegisterBenchmark(
                                            Name("pair/" + ClassRowPair(row, type, classes, what), n, threads).c_str(),
                                            BM_Paired, std::move(a), std::move(b), by_bytes)
                                            ->UseRealTime()
                                            ->MinTime(1.0));
                    };
                    // The plain loop over a call's buffers of `elements`: all but the last read, the last written.
                    auto loop_of_its_traffic = [=](int64_t elements, int loop_threads) {
                        return PartnerFactory([=](const bench::Workload& first) {
                            const int lent = static_cast<int>(first.Buffers(elements * size).size());
                            return bench::MakePlainLoop(lent - 1, size, elements, loop_threads, &first);
                        });
                    };
                    pair("vs_loop", call(n, threads), loop_of_its_traffic(n, threads), true);
                    const Factory in_cache = call(kClassRowsInCache, threads);
                    pair("vs_in_cache", call(n, threads),
                         PartnerFactory([=](const bench::Workload&) { return in_cache(); }), false);
                    if (threads != 1) continue;
                    // The in-cache headroom: the call against the plain loop of its traffic, both in cache.
                    WithRepetitions(
                        benchmark::RegisterBenchmark(
                            Name("pair/headroom/" + ClassRowPair(row, type, classes, "vs_loop"), kClassRowsInCache, 1)
                                .c_str(),
                            BM_Paired, in_cache, loop_of_its_traffic(kClassRowsInCache, 1), true)
                            ->UseRealTime()
                            ->MinTime(0.5));
                }
            }
        }
    }
    // Compute headroom: one core, in cache.
    {
        const int64_t n = int64_t{1} << 18;
        auto pair = [&](const std::string& name, const char* variant, int reads) {
            Factory a = [=] { return bench::MakeOperator(variant, ACL_FLOAT, n, 1); };
            PartnerFactory b = [=](const bench::Workload& first) { return bench::MakePlainLoop(reads, 4, n, 1, &first); };
            WithRepetitions(benchmark::RegisterBenchmark(Name("pair/" + name, n, 1).c_str(), BM_Paired, std::move(a),
                                                         std::move(b), true)
                                ->UseRealTime()
                                ->MinTime(0.5));
        };
        pair("headroom_f32_vs_loop3r1w", "full", 3);
        pair("headroom_loss_vs_loop2r1w", "loss_none", 2);
        // Every row of the table likewise, its optional inputs absent (the common call, and the soft margin
        // rows' traffic for the logits forms): a gradient's mean, a loss under none.
        for (const aclnn_cpu::OperatorDescription& row : aclnn_cpu::kOperators) {
            const int reads = aclnn_cpu::ReadInputCount(row, false);
            const int64_t reduction = aclnn_cpu::IsGradient(row) ? 1 : 0;
            for (const FamilyForm& form : FamilyForms(row)) {
                if (!form.fewest_reads) continue;
                Factory a = [=, &row] {
                    bench::TableForm table;
                    table.optional_given = false;
                    table.hard_labels = form.hard_labels;
                    return bench::MakeTableOperator(row, reduction, n, 1, table);
                };
                PartnerFactory b = [=](const bench::Workload& first) {
                    return bench::MakePlainLoop(reads, 4, n, 1, &first);
                };
                WithRepetitions(benchmark::RegisterBenchmark(Name("pair/" + HeadroomPair(row, form), n, 1).c_str(), BM_Paired,
                                                             std::move(a), std::move(b), true)
                                    ->UseRealTime()
                                    ->MinTime(0.5));
            }
            // The column sums' mean against the sum loop of its reads.
            for (const FamilyForm& form : FamilyForms(row)) {
                if (!SumsColumns(row, form)) continue;
                const int sum_reads = aclnn_cpu::ReadInputCount(row, form.optional_given);
                Factory a = [=, &row] { return bench::MakeTableOperator(row, 1, n, 1, form.Table()); };
                PartnerFactory b = [=](const bench::Workload& first) {
                    return bench::MakePlainSum(n, 1, &first, sum_reads);
                };
                WithRepetitions(benchmark::RegisterBenchmark(Name("pair/" + ColumnSumHeadroomPair(row), n, 1).c_str(),
                                                             BM_Paired, std::move(a), std::move(b), true)
                                    ->UseRealTime()
                                    ->MinTime(0.5));
            }
        }
    }
    benchmark::RegisterBenchmark("latency/call4", BM_Call4)->Repetitions(9)->ReportAggregatesOnly(true);

    std::printf("CPU: %s; measured clock: %s; SIMD target: %s; cores: %d\n", CpuModel().c_str(),
                MeasuredClock().c_str(), aclnn_cpu::kernels::ActiveSimdTarget().c_str(), cores);
    bench::CollectingReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    std::vector<bench::Target> family;
    for (const aclnn_cpu::OperatorDescription& row : aclnn_cpu::kOperators) {
        for (const FamilyForm& form : FamilyForms(row)) {
            const std::string base = std::string("family/") + row.name + "/" + form.prefix;
            const std::string reads = std::to_string(aclnn_cpu::ReadInputCount(row, form.optional_given)) + "-read";
            const std::string name = std::string(row.api_name) + form.description;
            if (SumsColumns(row, form)) {
                family.push_back({base + "mean_vs_column_sum",
                                  name + " mean, f32 / " + reads + " column-sum loop (bytes/s)", ">= 0.90", 0.9});
            }
            if (form.summed_back) {
                family.push_back(
                    {base + "mean_vs_sum", name + " mean, f32 / " + reads + " sum loop (bytes/s)", "(info)", 0.0});
                continue;
            }
            if (form.integers == bench::IntegerInputs::kAllInt64) {
                family.push_back({base + "none_vs_loop", name + " none / int64 " + reads + " 1-write loop (bytes/s)",
                                  ">= 0.90", 0.9});
                family.push_back({base + "sum_vs_sum", name + " sum / int64 " + reads + " sum loop (bytes/s)", ">= 0.90",
                                  0.9});
                continue;
            }
            if (aclnn_cpu::IsGradient(row)) {
                const std::string form_name = ElementwiseForm(row);
                family.push_back({base + form_name + "_vs_loop",
                                  name + " " + form_name + ", f32 / " + reads + " 1-write loop (bytes/s)", ">= 0.90",
                                  0.9});
                continue;
            }
            family.push_back(
                {base + "none_vs_loop", name + " none, f32 / " + reads + " 1-write loop (bytes/s)", ">= 0.90", 0.9});
            if (!aclnn_cpu::ReducesTo(row, 1)) continue;
            // A sum into columns is held to the loop of its own traffic (above); the plain sum loop is shown beside.
            const bool columns = SumsColumns(row, form);
            family.push_back({base + "mean_vs_sum", name + " mean, f32 / " + reads + " sum loop (bytes/s)",
                              columns ? "(info)" : ">= 0.90", columns ? 0.0 : 0.9});
        }
    }
    for (const aclnn_cpu::OperatorDescription& row : aclnn_cpu::kOperators) {
        if (!ByRowsOfClasses(row)) continue;
        for (const aclDataType type : kClassRowTypes) {
            for (const int64_t classes : kClassCounts) {
                const std::string what = std::string(row.api_name) + (aclnn_cpu::ReducesTo(row, 1) ? " mean" : "") +
                                         ", " + ClassRowTypeName(type) + ", C " + std::to_string(classes);
                family.push_back({ClassRowPair(row, type, classes, "vs_loop"),
                                  what + " / loop of its traffic (bytes/s)", ">= 0.90", 0.9});
                family.push_back({ClassRowPair(row, type, classes, "vs_in_cache"),
                                  what + " / the same call in cache (elements/s)", "(yardstick)", 0.0});
            }
        }
    }
    std::vector<bench::Target> family_headroom;
    for (const aclnn_cpu::OperatorDescription& row : aclnn_cpu::kOperators) {
        for (const FamilyForm& form : FamilyForms(row)) {
            if (!form.fewest_reads) continue;
            family_headroom.push_back({HeadroomPair(row, form),
                                       std::string("compute headroom: ") + row.api_name + form.description +
                                           " " + (aclnn_cpu::IsGradient(row) ? ElementwiseForm(row) : "none") +
                                           " / loop of its traffic, in cache (bytes/s)",
                                       "(info)", 0.0});
        }
        for (const FamilyForm& form : FamilyForms(row)) {
            if (!SumsColumns(row, form)) continue;
            family_headroom.push_back({ColumnSumHeadroomPair(row),
                                       std::string("compute headroom: ") + row.api_name + form.description +
                                           " mean / sum loop of its reads, in cache (bytes/s)",
                                       "(info)", 0.0});
        }
    }
    for (const aclnn_cpu::OperatorDescription& row : aclnn_cpu::kOperators) {
        if (!ByRowsOfClasses(row)) continue;
        for (const aclDataType type : kClassRowTypes)
            for (const int64_t classes : kClassCounts)
                family_headroom.push_back({"headroom/" + ClassRowPair(row, type, classes, "vs_loop"),
                                           std::string("compute headroom: ") + row.api_name + ", " +
                                               ClassRowTypeName(type) + ", C " +
                                               std::to_string(classes) + " / loop of its traffic, in cache (bytes/s)",
                                           "(info)", 0.0});
    }
    bench::PrintRatioTable(reporter.results(), large, thread_counts, family, family_headroom);
    benchmark::Shutdown();
    return 0;
}
