// Collects every benchmark's rates while Google Benchmark's console reporter prints them, then prints the
// table of ratios that the targets of docs/contract.md section 5 are stated in.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

namespace bench {

// What a benchmark measured, keyed by the name it was registered under.
struct Measured {
    double real_time_ns = 0;  // per iteration (the median, for benchmarks run with repetitions)
    double ratio = 0;         // paired benchmarks: rate of the first workload over the second's (the median)
    double ratio_min = 0;     // and the smallest and largest over the repetitions (0 when run once)
    double ratio_max = 0;
};

class CollectingReporter : public benchmark::ConsoleReporter {
public:
    // Plain tabular text: the output goes into files and the README.
    CollectingReporter() : ConsoleReporter(OO_Tabular) {}
    void ReportRuns(const std::vector<Run>& runs) override;
    const std::map<std::string, Measured>& results() const { return results_; }

private:
    std::map<std::string, Measured> results_;
};

// A row of the ratio table: the pair's name (pair/<pair>/n:.../threads:...), what it compares, the target.
struct Target {
    std::string pair;
    std::string what;
    std::string goal_text;
    double goal;  // 0: information only
};

// Prints the ratio table for the sizes and thread counts that were run: the soft margin operators' targets,
// then `family` (a pair per operator of the table and reduction), then the in-cache headroom: the soft margin
// operators', then `family_headroom` (a pair per operator).
void PrintRatioTable(const std::map<std::string, Measured>& results, const std::vector<int64_t>& large_sizes,
                     const std::vector<int>& thread_counts, const std::vector<Target>& family,
                     const std::vector<Target>& family_headroom);

}  // namespace bench
