#include "ratio_report.h"

#include <cstdio>

namespace bench {

void CollectingReporter::ReportRuns(const std::vector<Run>& runs) {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
        if (run.error_occurred) continue;
        auto found = run.counters.find("ratio");
        const double ratio = found == run.counters.end() ? 0.0 : static_cast<double>(found->second);
        // Plain runs are kept under their name; of the aggregates the median under the name, and the ratio's
        // min and max beside it.
        Measured& m = results_[run.run_name.function_name];
        if (run.run_type == Run::RT_Aggregate) {
            if (run.aggregate_name == "min") m.ratio_min = ratio;
            if (run.aggregate_name == "max") m.ratio_max = ratio;
            if (run.aggregate_name != "median") continue;
        }
        m.ratio = ratio;
        m.real_time_ns = run.GetAdjustedRealTime();  // nanoseconds: the default time unit
    }
}

void PrintRatioTable(const std::map<std::string, Measured>& results, const std::vector<int64_t>& large_sizes,
                     const std::vector<int>& thread_counts, const std::vector<Target>& family,
                     const std::vector<Target>& family_headroom) {
    std::vector<Target> targets = {
        {"f32_vs_loop3r1w", "f32 op / same-traffic loop (bytes/s)", ">= 0.90", 0.9},
        {"scalar_grad_vs_loop2r1w", "f32, 0-d gradOutput / 2-read loop (bytes/s)", ">= 0.90", 0.9},
        {"bf16_vs_f32", "bf16 op / f32 op (elements/s)", ">= 0.90", 0.9},
        {"f16_vs_f32", "f16 op / f32 op (elements/s)", ">= 0.90", 0.9},
        {"broadcast_target_vs_full", "[N/64,1] target / contiguous (elements/s)", ">= 0.90", 0.9},
        {"f32_vs_composite", "f32 op / PyTorch's composite, fresh temporaries (elements/s)", ">= 10", 10.0},
        {"f32_vs_composite_kept", "f32 op / the composite with kept, warm temporaries (elements/s)", "(info)", 0.0},
        {"f32_vs_scalar_reference", "f32 op / scalar reference kernel (elements/s)", "(info)", 0.0},
        {"transposed_self_vs_full", "transposed self / contiguous (elements/s)", ">= 0.50", 0.5},
        {"mixed_vs_f32", "mixed dtypes (bf16, f32, f16 -> f16) / f32 (elements/s)", ">= 0.85", 0.85},
        {"loss_none_vs_loop2r1w", "forward none, f32 / same-traffic loop (bytes/s)", ">= 0.90", 0.9},
        {"loss_mean_vs_sum2r", "forward mean, f32 / plain 2-read sum loop (bytes/s)", ">= 0.90", 0.9},
        {"loss_bf16_vs_f32", "forward none, bf16 / f32 (elements/s)", "(info)", 0.0},
        {"loss_f16_vs_f32", "forward none, f16 / f32 (elements/s)", "(info)", 0.0},
    };
    targets.insert(targets.end(), family.begin(), family.end());
    // The median ratio decides; the range over the repetitions shows how far this run's minutes moved it.
    auto ratio_text = [](const Measured& m) {
        char text[64];
        if (m.ratio_max > 0)
            std::snprintf(text, sizeof text, "%.2f (%.2f-%.2f)", m.ratio, m.ratio_min, m.ratio_max);
        else
            std::snprintf(text, sizeof text, "%.2f", m.ratio);
        return std::string(text);
    };
    std::printf("\n| comparison (paired runs) | size | threads | target | ratio: median (range) | met |\n");
    std::printf("|---|---|---|---|---|---|\n");
    for (int64_t n : large_sizes) {
        for (int threads : thread_counts) {
            for (const Target& t : targets) {
                const std::string name = std::string("pair/") + t.pair + "/n:" + std::to_string(n) +
                                         "/threads:" + std::to_string(threads);
                auto it = results.find(name);
                if (it == results.end()) continue;
                const double ratio = it->second.ratio;
                const char* met = t.goal == 0.0 ? "" : ratio >= t.goal ? "yes" : "**no**";
                std::printf("| %s | %lldM | %d | %s | %s | %s |\n", t.what.c_str(), static_cast<long long>(n >> 20),
                            threads, t.goal_text.c_str(), ratio_text(it->second).c_str(), met);
            }
        }
    }
    // Compute headroom: in cache (256K elements, one core; the class rows 1M) memory is not the limit, so this is the
    // arithmetic's rate against the plain loop's.
    std::vector<Target> headroom = {
        {"headroom_f32_vs_loop3r1w", "compute headroom: f32 op / 3r1w loop, in cache (bytes/s)", ">= 0.60", 0.6},
        {"headroom_loss_vs_loop2r1w", "compute headroom: forward none / 2r1w loop, in cache (bytes/s)", ">= 0.60",
         0.6},
    };
    headroom.insert(headroom.end(), family_headroom.begin(), family_headroom.end());
    for (const Target& t : headroom) {
        int64_t n = 0;
        auto it = results.end();
        for (const int64_t size : {int64_t{1} << 18, int64_t{1} << 20}) {
            it = results.find(std::string("pair/") + t.pair + "/n:" + std::to_string(size) + "/threads:1");
            n = size;
            if (it != results.end()) break;
        }
        if (it == results.end()) continue;
        const double ratio = it->second.ratio;
        std::printf("| %s | %lldK | 1 | %s | %s | %s |\n", t.what.c_str(), static_cast<long long>(n >> 10),
                    t.goal_text.c_str(),
                    ratio_text(it->second).c_str(),
                    t.goal == 0.0 ? "" : ratio >= t.goal ? "yes" : "**no**");
    }
    auto call = results.find("latency/call4");
    if (call != results.end()) {
        std::printf("| 4-element two-phase call + sync, median | 4 | 1 | < 5 us | %.2f us | %s |\n",
                    call->second.real_time_ns / 1000.0, call->second.real_time_ns < 5000.0 ? "yes" : "**no**");
    }
}

}  // namespace bench
