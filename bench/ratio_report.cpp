#include "ratio_report.h"

#include <cstdio>

namespace bench {

void CollectingReporter::ReportRuns(const std::vector<Run>& runs) {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
        if (run.error_occurred) continue;
        // Plain runs are kept under their name; of the aggregates only the median is kept, under the name.
        if (run.run_type == Run::RT_Aggregate && run.aggregate_name != "median") continue;
        Measured m;
        auto counter = [&](const char* name) {
            auto it = run.counters.find(name);
            return it == run.counters.end() ? 0.0 : static_cast<double>(it->second);
        };
        m.bytes_per_second = counter("bytes_per_second");
        m.items_per_second = counter("items_per_second");
        m.real_time_ns = run.GetAdjustedRealTime();  // in the run's time unit, nanoseconds here
        results_[run.run_name.function_name] = m;
    }
}

namespace {

const Measured* Find(const std::map<std::string, Measured>& results, const std::string& name) {
    auto it = results.find(name);
    return it == results.end() ? nullptr : &it->second;
}

void Row(const char* what, const char* target, const Measured* a, const Measured* b, bool by_items, double goal) {
    if (a == nullptr || b == nullptr) return;
    const double num = by_items ? a->items_per_second : a->bytes_per_second;
    const double den = by_items ? b->items_per_second : b->bytes_per_second;
    const double ratio = den > 0 ? num / den : 0;
    std::printf("| %-58s | %-16s | %7.2f | %s |\n", what, target, ratio, ratio >= goal ? "yes" : "**no**");
}

}  // namespace

void PrintRatioTable(const std::map<std::string, Measured>& results, const std::vector<int64_t>& large_sizes,
                     const std::vector<int>& thread_counts) {
    std::printf("\n| comparison | target | ratio | met |\n|---|---|---|---|\n");
    for (int64_t n : large_sizes) {
        for (int threads : thread_counts) {
            char suffix[64];
            std::snprintf(suffix, sizeof suffix, "/n:%lld/threads:%d", static_cast<long long>(n), threads);
            auto get = [&](const char* base) { return Find(results, std::string(base) + suffix); };
            char what[160];
            auto label = [&](const char* text) {
                std::snprintf(what, sizeof what, "%s, %lldM, %d thr", text, static_cast<long long>(n >> 20), threads);
                return what;
            };
            Row(label("f32 op / same-traffic loop (bytes/s)"), ">= 0.90", get("op/f32/full"), get("loop/3r1w/f32"),
                false, 0.9);
            Row(label("f32 0-d grad op / 2r1w loop (bytes/s)"), ">= 0.90", get("op/f32/scalar_grad"),
                get("loop/2r1w/f32"), false, 0.9);
            Row(label("bf16 op / f32 op (elements/s)"), ">= 0.90", get("op/bf16/full"), get("op/f32/full"), true, 0.9);
            Row(label("f16 op / f32 op (elements/s)"), ">= 0.90", get("op/f16/full"), get("op/f32/full"), true, 0.9);
            Row(label("target [N/64,1] / contiguous (elements/s)"), ">= 0.90", get("op/f32/broadcast_target"),
                get("op/f32/full"), true, 0.9);
            Row(label("f32 op / composite multi-pass (elements/s)"), ">= 10", get("op/f32/full"),
                get("composite/f32"), true, 10.0);
            Row(label("f32 op / scalar reference kernel (elements/s)"), "(info)", get("op/f32/full"),
                get("scalar_reference/f32"), true, 0.0);
            Row(label("transposed self / contiguous (elements/s)"), "(info)", get("op/f32/transposed_self"),
                get("op/f32/full"), true, 0.0);
            Row(label("mixed dtypes / f32 (elements/s)"), "(info)", get("op/mixed/full"), get("op/f32/full"), true,
                0.0);
        }
    }
    if (const Measured* call = Find(results, "latency/call4")) {
        std::printf("| %-58s | %-16s | %5.2f us | %s |\n", "4-element two-phase call + sync, median", "< 5 us",
                    call->real_time_ns / 1000.0, call->real_time_ns < 5000.0 ? "yes" : "**no**");
    }
}

}  // namespace bench
