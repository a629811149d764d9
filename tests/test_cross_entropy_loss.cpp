// aclnnCrossEntropyLoss and aclnnCrossEntropyLossGrad: CANN's sample programs' values, each SoC's arithmetic
// (Atlas A2/A3's and Ascend 950's logProb, means, label smoothing and ignoreIndex) against a long-double
// reference, the hard cases, targets refused in the kernel (161002 at the sync, nothing written), empty batches,
// the same bits for any thread count and layout, and phase 1's checks in CANN's order with their statuses and
// messages (nothing written on a rejection).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_cpu/aclnn_cpu.h"
#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "support/device_tensor.h"
#include "support/reference.h"
#include "support/soc_scope.h"

namespace {

using test_support::DeviceTensor;
using test_support::TensorSpec;
using test_support::ViewValues;

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;

using Soc = test_support::SocScope;

constexpr const char* kAtlasA2 = "Ascend910B1";
constexpr const char* kAscend950 = nullptr;

std::unique_ptr<DeviceTensor> T(std::vector<int64_t> dims, const std::vector<double>& values,
                                aclDataType type = ACL_FLOAT) {
    return test_support::TensorOfValues(test_support::Dense(std::move(dims), type), values);
}

aclTensor* At(const std::unique_ptr<DeviceTensor>& t) { return t == nullptr ? nullptr : t->tensor(); }

// Phase 2 and the stream's sync of a phase 1's result: the first failing status.
aclnnStatus Finish(aclnnStatus status, uint64_t size, aclOpExecutor* executor,
                   aclnnStatus (*run)(void*, uint64_t, aclOpExecutor*, aclrtStream)) {
    if (status != ACLNN_SUCCESS) return status;
    void* workspace = nullptr;
    if (size > 0 && aclrtMalloc(&workspace, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return ACLNN_ERR_INNER;
    status = run(workspace, size, executor, nullptr);
    const aclError synced = aclrtSynchronizeStream(nullptr);
    if (workspace != nullptr) aclrtFree(workspace);
    return status != ACLNN_SUCCESS ? status : static_cast<aclnnStatus>(synced);
}

// A forward call's tensors; loss and logProb prefilled with 9.
struct Forward {
    std::unique_ptr<DeviceTensor> input, target, weight, loss, log_prob, zloss, lse;
    Forward(std::vector<int64_t> dims, const std::vector<double>& x, const std::vector<double>& targets,
            const std::vector<double>& w, const char* reduction, aclDataType type = ACL_FLOAT,
            aclDataType target_type = ACL_INT64) {
        const int64_t n = dims[0];
        input = T(dims, x, type);
        target = T({n}, targets, target_type);
        if (!w.empty()) weight = T({dims[1]}, w);
        const bool none = std::string(reduction) == "none";
        loss = none ? T({n}, std::vector<double>(static_cast<size_t>(n), 9), type) : T({1}, {9}, type);
        log_prob = T(dims, std::vector<double>(x.size(), 9), type);
        zloss = T({1}, {9}, type);
        lse = T({n}, std::vector<double>(static_cast<size_t>(n), 9), type);
    }
    aclnnStatus Phase1(const char* reduction, int64_t ignore_index, double smoothing, uint64_t* size,
                       aclOpExecutor** executor) const {
        return aclnnCrossEntropyLossGetWorkspaceSize(At(input), At(target), At(weight), const_cast<char*>(reduction),
                                                     ignore_index, smoothing, 0.0, false, At(loss), At(log_prob),
                                                     At(zloss), At(lse), size, executor);
    }
    aclnnStatus Run(const char* reduction, int64_t ignore_index = -100, double smoothing = 0) const {
        uint64_t size = 0;
        aclOpExecutor* executor = nullptr;
        const aclnnStatus status = Phase1(reduction, ignore_index, smoothing, &size, &executor);
        return Finish(status, size, executor, &aclnnCrossEntropyLoss);
    }
};

// A gradient call's tensors; out prefilled with 9.
struct Grad {
    std::unique_ptr<DeviceTensor> grad, log_prob, target, weight, out;
    Grad(std::vector<int64_t> dims, const std::vector<double>& g, const std::vector<double>& lp,
         const std::vector<double>& targets, const std::vector<double>& w, const char* reduction,
         aclDataType type = ACL_FLOAT) {
        const bool none = std::string(reduction) == "none";
        grad = none ? T({dims[0]}, g, type) : T({}, g, type);
        log_prob = T(dims, lp, type);
        target = T({dims[0]}, targets, ACL_INT64);
        if (!w.empty()) weight = T({dims[1]}, w);
        out = T(dims, std::vector<double>(lp.size(), 9), type);
    }
    aclnnStatus Phase1(const char* reduction, int64_t ignore_index, double smoothing, uint64_t* size,
                       aclOpExecutor** executor) const {
        return aclnnCrossEntropyLossGradGetWorkspaceSize(At(grad), At(log_prob), At(target), At(weight), nullptr,
                                                         nullptr, const_cast<char*>(reduction), ignore_index,
                                                         smoothing, 0.0, At(out), size, executor);
    }
    aclnnStatus Run(const char* reduction, int64_t ignore_index = -100, double smoothing = 0) const {
        uint64_t size = 0;
        aclOpExecutor* executor = nullptr;
        const aclnnStatus status = Phase1(reduction, ignore_index, smoothing, &size, &executor);
        return Finish(status, size, executor, &aclnnCrossEntropyLossGrad);
    }
};

// ---- the long-double reference ------------------------------------------------------------------------------------

struct Exact {
    std::vector<long double> log_prob;  // [N, C]
    std::vector<long double> losses;    // per sample (0 where ignored)
    long double loss_sum = 0, weight_sum = 0;
};

// CANN's formula: logProb = x - logsumexp(x); loss = (1 - ls) * -w[t] lp[t] + ls / C * -sum(w lp), 0 where ignored.
Exact Reference(int64_t n, int64_t c, const std::vector<double>& x, const std::vector<double>& targets,
                const std::vector<double>& w, double ls, bool (*ignored)(int64_t)) {
    Exact e;
    for (int64_t i = 0; i < n; ++i) {
        long double max = -INFINITY, sum = 0;
        for (int64_t j = 0; j < c; ++j) max = std::max<long double>(max, x[static_cast<size_t>(i * c + j)]);
        // exp in double (within a double ulp, far below the fp32 bounds checked; long double is software on aarch64)
        for (int64_t j = 0; j < c; ++j)
            sum += std::exp(static_cast<double>(x[static_cast<size_t>(i * c + j)] - static_cast<double>(max)));
        const long double shift = max + std::log(sum);
        long double smooth = 0;
        for (int64_t j = 0; j < c; ++j) {
            const long double lp = x[static_cast<size_t>(i * c + j)] - shift;
            e.log_prob.push_back(lp);
            smooth += (w.empty() ? 1.0L : w[static_cast<size_t>(j)]) * lp;
        }
        const int64_t t = static_cast<int64_t>(targets[static_cast<size_t>(i)]);
        if (ignored(t)) {
            e.losses.push_back(0);
            continue;
        }
        const long double wt = w.empty() ? 1.0L : w[static_cast<size_t>(t)];
        const long double loss = (1 - static_cast<long double>(static_cast<float>(ls))) * -wt *
                                     e.log_prob[static_cast<size_t>(i * c + t)] -
                                 static_cast<long double>(static_cast<float>(ls)) / c * smooth;
        e.losses.push_back(loss);
        e.loss_sum += loss;
        e.weight_sum += wt;
    }
    return e;
}

bool IgnoresMinus100(int64_t t) { return t == -100; }

double Ulp32(long double v) { return test_support::UlpOf(static_cast<double>(v), ACL_FLOAT); }

struct Problem {
    int64_t n, c;
    std::vector<double> x, targets, w, grads;
};

Problem Random(int64_t n, int64_t c, aclDataType type, bool some_ignored, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> logit(-8, 8), weight(0.25, 2), grad(-2, 2);
    Problem p{n, c, {}, {}, {}, {}};
    for (int64_t i = 0; i < n * c; ++i) p.x.push_back(test_support::RoundToType(logit(rng), type));
    for (int64_t i = 0; i < n; ++i) {
        const bool ignore = some_ignored && rng() % 8 == 0;
        p.targets.push_back(ignore ? -100.0 : static_cast<double>(rng() % static_cast<uint64_t>(c)));
        p.grads.push_back(test_support::RoundToType(grad(rng), type));
    }
    for (int64_t j = 0; j < c; ++j) p.w.push_back(static_cast<float>(weight(rng)));
    return p;
}

// ---- CANN's sample programs (ops-nn loss/cross_entropy_loss*/examples) ---------------------------------------------

TEST(Samples, CrossEntropyLossMean) {
    for (const char* soc : {kAtlasA2, kAscend950}) {
        const Soc scope(soc);
        const std::vector<double> x = {5, 0, 3, 3, 7, 9, 3, 5, 2, 4};
        Forward f({2, 5}, x, {0, 0}, {}, "mean");
        ASSERT_EQ(f.Run("mean"), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        const Exact e = Reference(2, 5, x, {0, 0}, {}, 0, IgnoresMinus100);
        const double loss = ViewValues(*f.loss)[0];
        EXPECT_NEAR(loss, 1.0937540647, 2 * Ulp32(1.09)) << "the sample's 1.093754";
        const std::vector<double> lp = ViewValues(*f.log_prob);
        for (size_t i = 0; i < lp.size(); ++i)
            EXPECT_LE(std::fabs(lp[i] - static_cast<double>(e.log_prob[i])), 2 * Ulp32(8)) << i;
        EXPECT_EQ(ViewValues(*f.zloss)[0], 9) << "zlossOut is never written";
        EXPECT_EQ(ViewValues(*f.lse)[0], 9) << "lseForZlossOut is never written";
    }
}

TEST(Samples, CrossEntropyLossGradMean) {
    for (const char* soc : {kAtlasA2, kAscend950}) {
        const Soc scope(soc);
        Grad g({2, 3}, {0.1}, std::vector<double>(6, -0.2), {0, 0}, {1, 1, 1}, "mean");
        ASSERT_EQ(g.Run("mean"), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        const std::vector<double> out = ViewValues(*g.out);
        const long double e = std::exp(-0.2L) * 0.05L;
        for (int i = 0; i < 6; ++i) {
            const long double exact = i % 3 == 0 ? e - 0.05L : e;  // -0.0091, 0.0409 as the sample prints them
            EXPECT_LE(std::fabs(out[static_cast<size_t>(i)] - static_cast<double>(exact)), 2 * Ulp32(0.05)) << i;
        }
    }
}

// ---- each SoC's arithmetic ------------------------------------------------------------------------------------------

struct Case {
    const char* soc;
    aclDataType type;
};
const Case kCases[] = {{kAtlasA2, ACL_FLOAT}, {kAtlasA2, ACL_FLOAT16}, {kAtlasA2, ACL_BF16},
                       {kAscend950, ACL_FLOAT}, {kAscend950, ACL_FLOAT16}, {kAscend950, ACL_BF16}};

std::string Label(const Case& c, const char* reduction, bool weighted, double ls) {
    return std::string(c.soc ? c.soc : "Ascend950") + " type " + std::to_string(c.type) + " " + reduction +
           (weighted ? " weighted" : "") + " ls " + std::to_string(ls);
}

// logProb within 2 fp32 ulp of the row's largest magnitude, then out's rounding; each loss within 4 fp32 ulp of its
// terms' magnitude, then out's rounding; mean and sum within 4 fp32 ulp of the sum of the magnitudes.
TEST(Numerics, ForwardAgainstLongDouble) {
    for (const Case& c : kCases) {
        const Soc soc(c.soc);
        for (int64_t classes : {1, 2, 300}) {
            const Problem p = Random(37, classes, c.type, true, 5 + static_cast<uint64_t>(classes));
            for (const char* reduction : {"none", "mean", "sum"}) {
                for (bool weighted : {false, true}) {
                    for (double ls : {0.0, 0.3, 1.0}) {
                        const std::string label = Label(c, reduction, weighted, ls) + " C " + std::to_string(classes);
                        const std::vector<double> w = weighted ? p.w : std::vector<double>{};
                        Forward f({p.n, p.c}, p.x, p.targets, w, reduction, c.type);
                        // Ascend 950 ignores only a non-negative ignoreIndex: its ignored samples' target is 0 there,
                        // and ignoreIndex 0.
                        const bool register_based = c.soc == kAscend950;
                        std::vector<double> targets = p.targets;
                        for (double& t : targets) t = register_based && t == -100 ? 0 : t;
                        if (register_based) f.target = T({p.n}, targets, ACL_INT64);
                        ASSERT_EQ(f.Run(reduction, register_based ? 0 : -100, ls), ACLNN_SUCCESS)
                            << label << aclGetRecentErrMsg();
                        const Exact e = Reference(p.n, p.c, p.x, targets, w, ls,
                                                  register_based ? +[](int64_t t) { return t == 0; } : IgnoresMinus100);
                        const std::vector<double> lp = ViewValues(*f.log_prob);
                        for (size_t i = 0; i < lp.size(); ++i) {
                            const long double exact = e.log_prob[i];
                            const double bound = 4 * Ulp32(std::fabs(exact) + 16) +
                                                 test_support::UlpOf(static_cast<double>(exact), c.type);
                            ASSERT_LE(std::fabs(lp[i] - static_cast<double>(exact)), bound) << label << " lp " << i;
                        }
                        const std::vector<double> loss = ViewValues(*f.loss);
                        const double wmax = weighted ? 2 : 1;
                        if (std::string(reduction) == "none") {
                            for (size_t i = 0; i < loss.size(); ++i) {
                                const long double exact = e.losses[i];
                                const double bound = 8 * Ulp32(wmax * 40) +
                                                     test_support::UlpOf(static_cast<double>(exact), c.type);
                                ASSERT_LE(std::fabs(loss[i] - static_cast<double>(exact)), bound) << label << " " << i;
                            }
                            continue;
                        }
                        const bool mean = std::string(reduction) == "mean";
                        const long double exact = mean ? e.loss_sum / e.weight_sum : e.loss_sum;
                        const double magnitude = wmax * 40 * static_cast<double>(p.n) / (mean ? 10 : 1);
                        const double bound =
                            8 * Ulp32(magnitude) + test_support::UlpOf(static_cast<double>(exact), c.type);
                        if (std::isnan(static_cast<double>(exact))) EXPECT_TRUE(std::isnan(loss[0])) << label;
                        else EXPECT_LE(std::fabs(loss[0] - static_cast<double>(exact)), bound) << label;
                    }
                }
            }
        }
    }
}

// A language model's vocabulary and beyond: rows of 32K classes in BFLOAT16 and of 256K in FLOAT, on both SoCs.
TEST(Numerics, VocabularyRows) {
    for (const char* soc : {kAtlasA2, kAscend950}) {
        const Soc scope(soc);
        for (int64_t classes : {int64_t{32768}, int64_t{262144}}) {
            for (aclDataType type : {classes == 32768 ? ACL_BF16 : ACL_FLOAT}) {
                const Problem p = Random(2, classes, type, false, 17);
                const std::string label = std::string(soc ? soc : "Ascend950") + " C " + std::to_string(classes) +
                                          " type " + std::to_string(type);
                Forward f({p.n, p.c}, p.x, p.targets, p.w, "mean", type);
                ASSERT_EQ(f.Run("mean", -100, 0.1), ACLNN_SUCCESS) << label << aclGetRecentErrMsg();
                const Exact e = Reference(p.n, p.c, p.x, p.targets, p.w, 0.1, IgnoresMinus100);
                const std::vector<double> lp = ViewValues(*f.log_prob);
                for (size_t i = 0; i < lp.size(); ++i) {
                    const double bound = 4 * Ulp32(std::fabs(e.log_prob[i]) + 16) +
                                         test_support::UlpOf(static_cast<double>(e.log_prob[i]), type);
                    ASSERT_LE(std::fabs(lp[i] - static_cast<double>(e.log_prob[i])), bound) << label << " " << i;
                }
                const double exact = static_cast<double>(e.loss_sum / e.weight_sum);
                EXPECT_LE(std::fabs(ViewValues(*f.loss)[0] - exact), 8 * Ulp32(40) + test_support::UlpOf(exact, type))
                    << label;
            }
        }
    }
}

// The gradient: exp(lp) * s - [c == t] s, s = w[t] g (/ the weights' sum), plus Ascend 950's label smoothing term
// (ls / C) g' (exp(lp) sum(w) - w[c]).
TEST(Numerics, GradientAgainstLongDouble) {
    for (const Case& c : kCases) {
        const Soc soc(c.soc);
        const bool register_based = c.soc == kAscend950;
        const Problem p = Random(29, 70, c.type, true, 9);
        const Exact forward = Reference(p.n, p.c, p.x, p.targets, {}, 0, IgnoresMinus100);
        std::vector<double> lp;
        for (long double v : forward.log_prob) lp.push_back(test_support::RoundToType(static_cast<double>(v), c.type));
        for (const char* reduction : {"none", "mean", "sum"}) {
            for (bool weighted : {false, true}) {
                for (double ls : register_based ? std::vector<double>{0.0, 0.4} : std::vector<double>{0.0}) {
                    const std::string label = Label(c, reduction, weighted, ls);
                    const std::vector<double> w = weighted ? p.w : std::vector<double>{};
                    const bool none = std::string(reduction) == "none";
                    const std::vector<double> g = none ? p.grads : std::vector<double>{p.grads[0]};
                    Grad call({p.n, p.c}, g, lp, p.targets, w, reduction, c.type);
                    // Ascend 950 ignores nothing for a negative ignoreIndex: its ignored rows use ignoreIndex 7.
                    std::vector<double> targets = p.targets;
                    int64_t ignore_index = -100;
                    if (register_based) {
                        ignore_index = 7;
                        for (double& t : targets) t = t == -100 ? 7 : t;
                        call.target = T({p.n}, targets, ACL_INT64);
                    }
                    ASSERT_EQ(call.Run(reduction, ignore_index, ls), ACLNN_SUCCESS) << label << aclGetRecentErrMsg();
                    const std::vector<double> out = ViewValues(*call.out);
                    long double divisor = 0;
                    for (double t : targets)
                        if (static_cast<int64_t>(t) != ignore_index)
                            divisor += w.empty() ? 1.0L : w[static_cast<size_t>(t)];
                    const long double lsf = static_cast<float>(ls);
                    for (int64_t i = 0; i < p.n; ++i) {
                        const int64_t t = static_cast<int64_t>(targets[static_cast<size_t>(i)]);
                        const bool ignored = t == ignore_index;
                        long double gi = none ? g[static_cast<size_t>(i)] : g[0];
                        if (std::string(reduction) == "mean") gi /= divisor;
                        const long double wt = w.empty() || ignored ? 1.0L : w[static_cast<size_t>(t)];
                        const long double s = ignored ? 0 : wt * gi * (1 - lsf);
                        const long double sm = ignored ? 0 : gi * lsf / p.c;
                        long double wsum = 0;
                        for (int64_t j = 0; j < p.c; ++j) wsum += w.empty() ? 1.0L : w[static_cast<size_t>(j)];
                        for (int64_t j = 0; j < p.c; ++j) {
                            const long double e = std::exp(lp[static_cast<size_t>(i * p.c + j)]);
                            const long double wj = w.empty() ? 1.0L : w[static_cast<size_t>(j)];
                            const long double exact = e * s - (j == t ? s : 0) + sm * (e * wsum - wj);
                            const long double magnitude = std::fabs(e * s) + std::fabs(s) + std::fabs(sm) * (e * wsum + wj);
                            const double bound = 6 * Ulp32(magnitude) +
                                                 test_support::UlpOf(static_cast<double>(exact), c.type);
                            ASSERT_LE(std::fabs(out[static_cast<size_t>(i * p.c + j)] - static_cast<double>(exact)),
                                      bound)
                                << label << " [" << i << ", " << j << "]";
                        }
                    }
                }
            }
        }
    }
}

// Atlas A2/A3's logProb is x - (log(sum) + max), Ascend 950's (x - max) - log(sum): far from 0 the two round
// differently. Near 1000 every x - shift is exact, so A2's row is x minus one fp32 value, and 950's is
// (x - max) - log(sum) with log(sum) = -logProb at the max.
TEST(Numerics, EachSocGroupsLogProbItsWay) {
    std::vector<double> x;
    for (int j = 0; j < 64; ++j) x.push_back(static_cast<float>(1000.0 + j * 0.37));
    std::vector<double> a2, a950;
    for (const char* soc : {kAtlasA2, kAscend950}) {
        const Soc scope(soc);
        Forward f({1, 64}, x, {3}, {}, "none");
        ASSERT_EQ(f.Run("none"), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        (soc == kAtlasA2 ? a2 : a950) = ViewValues(*f.log_prob);
    }
    const float max = static_cast<float>(x.back());
    const float log_sum = static_cast<float>(-a950.back());
    int differ = 0;
    for (size_t j = 0; j < 64; ++j) {
        EXPECT_EQ(x[j] - a2[j], x[0] - a2[0]) << j;
        EXPECT_EQ(a950[j], static_cast<double>((static_cast<float>(x[j]) - max) - log_sum)) << j;
        differ += a2[j] != a950[j] ? 1 : 0;
    }
    EXPECT_GT(differ, 0) << "the two groupings round apart for logits near 1000";
}

TEST(Numerics, HardCases) {
    for (const char* soc : {kAtlasA2, kAscend950}) {
        const Soc scope(soc);
        // Logits of +-1e4 and a -inf (masked) class: finite logProb where the class is not masked.
        {
            Forward f({2, 3}, {1e4, -1e4, -INFINITY, 0, 0, 0}, {0, 1}, {}, "none");
            ASSERT_EQ(f.Run("none"), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            const std::vector<double> lp = ViewValues(*f.log_prob);
            EXPECT_EQ(lp[0], 0);
            EXPECT_EQ(lp[1], -2e4);
            EXPECT_EQ(lp[2], -INFINITY);
            EXPECT_EQ(lp[3], static_cast<float>(-std::log(3.0L)));
            const std::vector<double> loss = ViewValues(*f.loss);
            EXPECT_TRUE(loss[0] == 0 && std::signbit(loss[0])) << "-(1 * logProb 0)";
            EXPECT_EQ(loss[1], static_cast<float>(std::log(3.0L)));
        }
        // One class: logProb 0, loss 0.
        {
            Forward f({3, 1}, {5, -2, 7}, {0, 0, 0}, {}, "sum");
            ASSERT_EQ(f.Run("sum"), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            EXPECT_EQ(ViewValues(*f.log_prob), std::vector<double>(3, 0.0));
            EXPECT_EQ(std::fabs(ViewValues(*f.loss)[0]), 0);
        }
        // Every sample ignored: the mean is 0 / 0.
        {
            Forward f({2, 3}, {1, 2, 3, 4, 5, 6}, {5, 5}, {}, "mean");
            ASSERT_EQ(f.Run("mean", 5), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            EXPECT_TRUE(std::isnan(ViewValues(*f.loss)[0]));
        }
        // Label smoothing 1: the loss is the mean of -logProb over the classes alone.
        {
            Forward f({1, 4}, {1, 2, 3, 4}, {2}, {}, "none");
            ASSERT_EQ(f.Run("none", -100, 1.0), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            const Exact e = Reference(1, 4, {1, 2, 3, 4}, {2}, {}, 1.0, IgnoresMinus100);
            EXPECT_NEAR(ViewValues(*f.loss)[0], static_cast<double>(e.losses[0]), 4 * Ulp32(2));
        }
        // A row of equal values: logProb -log(C) everywhere.
        {
            Forward f({1, 5}, std::vector<double>(5, 3.5), {4}, {}, "none");
            ASSERT_EQ(f.Run("none"), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            for (double v : ViewValues(*f.log_prob)) EXPECT_NEAR(v, -std::log(5.0), Ulp32(1.6));
        }
    }
}

// ---- targets and ignoreIndex ------------------------------------------------------------------------------------------

// The forward ignores any ignoreIndex on both (Ascend 950's full-load kernel, for rows that fit its buffer; its
// large-C kernel ignores only a non-negative one); the gradient on Ascend 950 only a non-negative one.
TEST(Targets, IgnoreIndexPerSoc) {
    const std::vector<double> x = {1, 2, 3, 4, 5, 6};
    for (const char* soc : {kAtlasA2, kAscend950}) {
        const Soc scope(soc);
        Forward f({2, 3}, x, {-100, 1}, {}, "sum");
        ASSERT_EQ(f.Run("sum"), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        const Exact e = Reference(2, 3, x, {-100, 1}, {}, 0, IgnoresMinus100);
        EXPECT_NEAR(ViewValues(*f.loss)[0], static_cast<double>(e.loss_sum), 2 * Ulp32(2));
        Grad g({2, 3}, {1}, std::vector<double>(6, -1), {-100, 1}, {}, "sum");
        if (soc == kAtlasA2) {
            ASSERT_EQ(g.Run("sum"), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            const std::vector<double> out = ViewValues(*g.out);
            for (int c = 0; c < 3; ++c) EXPECT_EQ(out[static_cast<size_t>(c)], 0) << "an ignored row's gradient";
            continue;
        }
        EXPECT_EQ(g.Run("sum"), kInvalid) << "Ascend 950's gradient: -100 is a target out of range";
        EXPECT_NE(std::string(aclGetRecentErrMsg()).find("Target -100 at [0] of target is out of bounds"),
                  std::string::npos) << aclGetRecentErrMsg();
        EXPECT_EQ(ViewValues(*g.out), std::vector<double>(6, 9)) << "nothing written";
        Grad ignored({2, 3}, {1}, std::vector<double>(6, -1), {2, 1}, {}, "sum");
        ASSERT_EQ(ignored.Run("sum", 2), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        EXPECT_EQ(ViewValues(*ignored.out)[2], 0) << "ignoreIndex 2 ignores";
    }
}

// Each SoC's grouping of the losses, bit for bit, from the logProb each wrote: five samples (one ignored) of six
// classes, whose float64 sums are exact, so each fp32 sum is the true one rounded once.
TEST(Numerics, ReductionsGroupAsEachSoc) {
    const Problem p = Random(5, 6, ACL_FLOAT, false, 21);
    std::vector<double> targets = p.targets;
    targets[3] = 4;  // ignoreIndex 4
    for (const char* soc : {kAtlasA2, kAscend950}) {
        const Soc scope(soc);
        const bool register_based = soc == kAscend950;
        for (const char* reduction : {"none", "mean", "sum"}) {
            const std::string label = std::string(soc ? soc : "Ascend950") + " " + reduction;
            Forward f({5, 6}, p.x, targets, p.w, reduction);
            ASSERT_EQ(f.Run(reduction, 4, 0.3), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            const std::vector<double> lp = ViewValues(*f.log_prob);
            const float keep = 1.0f - 0.3f, spread = 0.3f / 6.0f;
            double picked_sum = 0, smooth_sum = 0, weight_sum = 0;
            std::vector<float> per_sample;
            for (size_t n = 0; n < 5; ++n) {
                const int64_t t = static_cast<int64_t>(targets[n]);
                if (t == 4) {
                    per_sample.push_back(register_based ? 0.0f : -0.0f);  // 950 zeroes it, A2 negates 0
                    continue;
                }
                const float w = static_cast<float>(p.w[static_cast<size_t>(t)]);
                const float picked = w * static_cast<float>(lp[n * 6 + static_cast<size_t>(t)]);
                double smooth = 0;
                for (size_t c = 0; c < 6; ++c)
                    smooth += static_cast<float>(p.w[c]) * static_cast<float>(lp[n * 6 + c]);
                const float s = static_cast<float>(smooth);
                per_sample.push_back(-picked * keep + -s * spread);
                picked_sum += picked;
                smooth_sum += s;
                weight_sum += w;
            }
            const std::vector<double> loss = ViewValues(*f.loss);
            if (std::string(reduction) == "none") {
                for (size_t n = 0; n < 5; ++n) {
                    EXPECT_EQ(loss[n], per_sample[n]) << label << " " << n;
                    EXPECT_EQ(std::signbit(loss[n]), std::signbit(per_sample[n])) << label << " " << n;
                }
                continue;
            }
            const float losses = -static_cast<float>(picked_sum), smooth = -static_cast<float>(smooth_sum);
            const float w = static_cast<float>(weight_sum);
            float expected = losses * keep + smooth * spread;
            if (std::string(reduction) == "mean")
                expected = register_based ? (losses / w) * keep + (smooth / w) * spread : expected / w;
            EXPECT_EQ(loss[0], expected) << label;
        }
    }
}

// The gradient's mean divides by the sum of mask * w[t] over every sample: an ignored sample's infinite weight
// makes it NaN, as in CANN's kernels.
TEST(Numerics, GradientDivisorTakesEverySample) {
    for (const char* soc : {kAtlasA2, kAscend950}) {
        const Soc scope(soc);
        Grad g({2, 3}, {1}, std::vector<double>(6, -1), {0, 1}, {1, INFINITY, 1}, "mean");
        ASSERT_EQ(g.Run("mean", 1), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        for (double v : ViewValues(*g.out)) EXPECT_TRUE(std::isnan(v)) << v;
    }
}

// lossOut over part of logProbOut's memory: every logProb is written before the first loss, the same bits for any
// thread count.
TEST(Layouts, LossOverLogProbIsWrittenLast) {
    const Problem p = Random(4096, 32, ACL_FLOAT, false, 13);
    Forward alone({4096, 32}, p.x, p.targets, {}, "none");
    ASSERT_EQ(alone.Run("none"), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    std::vector<double> expected = ViewValues(*alone.log_prob);
    const std::vector<double> losses = ViewValues(*alone.loss);
    std::copy(losses.begin(), losses.end(), expected.begin() + 2048 * 32);
    for (int threads : {1, 2}) {
        aclnnCpuSetThreadCount(threads);
        Forward f({4096, 32}, p.x, p.targets, {}, "none");
        const int64_t dims[] = {4096};
        aclTensor* inside = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 2048 * 32, ACL_FORMAT_ND, dims, 1,
                                            f.log_prob->device());
        uint64_t size = 0;
        aclOpExecutor* executor = nullptr;
        char none[] = "none";
        const aclnnStatus phase1 = aclnnCrossEntropyLossGetWorkspaceSize(
            At(f.input), At(f.target), nullptr, none, -100, 0.0, 0.0, false, inside, At(f.log_prob), At(f.zloss),
            At(f.lse), &size, &executor);
        ASSERT_EQ(Finish(phase1, size, executor, &aclnnCrossEntropyLoss), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        EXPECT_EQ(ViewValues(*f.log_prob), expected) << threads << " threads";
        aclDestroyTensor(inside);
        aclnnCpuSetThreadCount(0);
    }
}

TEST(Targets, OutOfRangeIsRefusedBeforeAnythingIsWritten) {
    for (const char* soc : {kAtlasA2, kAscend950}) {
        const Soc scope(soc);
        Forward f({2, 3}, {1, 2, 3, 4, 5, 6}, {0, 3}, {}, "none");
        EXPECT_EQ(f.Run("none"), kInvalid);
        EXPECT_NE(std::string(aclGetRecentErrMsg()).find("Target 3 at [1] of target is out of bounds"),
                  std::string::npos) << aclGetRecentErrMsg();
        EXPECT_EQ(ViewValues(*f.loss), std::vector<double>(2, 9));
        EXPECT_EQ(ViewValues(*f.log_prob), std::vector<double>(6, 9));
        Grad g({2, 3}, {1, 1}, std::vector<double>(6, -1), {0, -1}, {}, "none");
        EXPECT_EQ(g.Run("none"), kInvalid);
        EXPECT_EQ(ViewValues(*g.out), std::vector<double>(6, 9));
    }
}

TEST(Empty, ForwardAndGradient) {
    for (const char* soc : {kAtlasA2, kAscend950}) {
        const Soc scope(soc);
        Forward mean({0, 3}, {}, {}, {}, "mean");
        ASSERT_EQ(mean.Run("mean"), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        EXPECT_TRUE(std::isnan(ViewValues(*mean.loss)[0]));
        Forward sum({0, 3}, {}, {}, {}, "sum");
        ASSERT_EQ(sum.Run("sum"), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        EXPECT_EQ(ViewValues(*sum.loss)[0], 0);
        Grad g({0, 3}, {}, {}, {}, {}, "none");
        EXPECT_EQ(g.Run("none"), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    }
}

// ---- determinism ----------------------------------------------------------------------------------------------------

TEST(Determinism, SameBitsForAnyThreadCountAndLayout) {
    const Problem p = Random(3000, 40, ACL_FLOAT, false, 3);
    std::vector<std::vector<double>> results;
    for (int threads : {1, 2, 3}) {
        for (bool transposed : {false, true}) {
            aclnnCpuSetThreadCount(threads);
            Forward f({p.n, p.c}, p.x, p.targets, p.w, "mean");
            if (transposed) {
                TensorSpec spec = test_support::Dense({p.n, p.c}, ACL_FLOAT);
                spec.strides = {1, p.n};  // the same logical [N, C] stored column-major
                f.input = test_support::TensorOfValues(spec, p.x);
            }
            ASSERT_EQ(f.Run("mean", -100, 0.2), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            std::vector<double> r = ViewValues(*f.log_prob);
            r.push_back(ViewValues(*f.loss)[0]);
            Grad g({p.n, p.c}, {0.5}, std::vector<double>(r.begin(), r.end() - 1), p.targets, p.w, "mean");
            ASSERT_EQ(g.Run("mean"), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            const std::vector<double> grad = ViewValues(*g.out);
            r.insert(r.end(), grad.begin(), grad.end());
            results.push_back(r);
            aclnnCpuSetThreadCount(0);
        }
    }
    for (const std::vector<double>& r : results) EXPECT_EQ(r, results[0]);
}

// ---- phase 1's checks -----------------------------------------------------------------------------------------------

struct Expected {
    const char* what;
    aclnnStatus status;
    const char* message_part;
};

// phase1 must return the status with the message, write neither result and change no output's bytes.
void ExpectRefused(const Expected& e, const std::function<aclnnStatus(uint64_t*, aclOpExecutor**)>& phase1,
                   const std::vector<const DeviceTensor*>& outputs) {
    std::vector<std::vector<uint8_t>> before;
    for (const DeviceTensor* t : outputs) before.push_back(t->Download());
    uint64_t size = 12345;
    aclOpExecutor* executor = reinterpret_cast<aclOpExecutor*>(0x1);
    EXPECT_EQ(phase1(&size, &executor), e.status) << e.what;
    EXPECT_EQ(size, 12345u) << e.what;
    EXPECT_EQ(executor, reinterpret_cast<aclOpExecutor*>(0x1)) << e.what;
    const char* message = aclGetRecentErrMsg();
    EXPECT_NE(std::string(message == nullptr ? "" : message).find(e.message_part), std::string::npos)
        << e.what << ": " << (message == nullptr ? "(none)" : message);
    for (size_t i = 0; i < outputs.size(); ++i) EXPECT_EQ(outputs[i]->Download(), before[i]) << e.what;
}

TEST(Checks, CrossEntropyLoss) {
    const std::vector<double> x(6, 1.0);
    auto refuse = [](const Forward& f, const char* reduction, double ls, const Expected& e) {
        ExpectRefused(e, [&](uint64_t* s, aclOpExecutor** ex) { return f.Phase1(reduction, -100, ls, s, ex); },
                      {f.loss.get(), f.log_prob.get()});
    };
    {
        const Soc scope(kAscend950);
        Forward f({2, 3}, x, {0, 1}, {}, "mean");
        Forward null_z({2, 3}, x, {0, 1}, {}, "mean");
        null_z.zloss.reset();
        refuse(null_z, "mean", 0, {"null zlossOut", ACLNN_ERR_PARAM_NULLPTR, "argument zlossOut"});
        Forward half_log_prob({2, 3}, x, {0, 1}, {}, "mean");
        half_log_prob.log_prob = T({2, 3}, x, ACL_FLOAT16);
        refuse(half_log_prob, "mean", 0, {"FLOAT16 logProbOut", kInvalid, "Tensor logProbOut has dtype DT_FLOAT16"});
        Forward int32_target({2, 3}, x, {0, 1}, {}, "mean", ACL_FLOAT, ACL_INT32);
        uint64_t size = 0;
        aclOpExecutor* executor = nullptr;
        EXPECT_EQ(int32_target.Phase1("mean", -100, 0, &size, &executor), ACLNN_SUCCESS) << "INT32 on 950";
        aclDestroyAclOpExecutor(executor);
        // Ascend 950's tiling: shapes, then the reduction, then labelSmoothing.
        Forward three_d({2, 3, 1}, x, {0, 1}, {}, "mean");
        refuse(three_d, "batchmean", 0,
               {"3-D x", kTiling, "Parameter x of CrossEntropyLoss has incorrect shape dim 3. It should be 2."});
        Forward other_n({2, 3}, x, {0, 1}, {}, "mean");
        other_n.target = T({3}, {0, 1, 2}, ACL_INT64);
        refuse(other_n, "mean", 0, {"target [3]", kTiling, "Parameters x and target of CrossEntropyLoss have incorrect "
                                    "shapes 2 and 3. Reason: The dim 0 of input0 should be the same"});
        refuse(f, "batchmean", 2, {"reduction batchmean", kTiling, "Parameter reduction of CrossEntropyLoss has "
                                   "incorrect value batchmean. It should be in ['none', 'mean', 'sum']."});
        refuse(f, "mean", 1.5, {"labelSmoothing 1.5", kTiling, "Parameter label_smoothing of CrossEntropyLoss has "
                                "incorrect value 1.500000. It should be in [0.0, 1.0]."});
        refuse(f, "none", 0, {"none with lossOut [1]", kInvalid, "lossOut must have shape [2] for reduction none"});
        Forward zero_c({2, 0}, {}, {0, 1}, {}, "mean");
        refuse(zero_c, "mean", 0, {"C = 0", kTiling, "The C-dimension of x cannot be zero"});
        Forward overlapping({2, 3}, x, {0, 1}, {}, "mean");
        TensorSpec rows_alike = test_support::Dense({2, 3}, ACL_FLOAT);
        rows_alike.strides = {0, 1};
        overlapping.log_prob = test_support::TensorOfValues(rows_alike, x);
        refuse(overlapping, "mean", 0, {"logProbOut over itself", kInvalid, "logProbOut must not overlap itself"});
    }
    {
        const Soc scope(kAtlasA2);  // the reduction and labelSmoothing before the shapes; INT64 targets only
        Forward three_d({2, 3, 1}, x, {0, 1}, {}, "mean");
        refuse(three_d, "batchmean", 0, {"reduction first", kTiling, "incorrect value batchmean"});
        Forward int32_target({2, 3}, x, {0, 1}, {}, "mean", ACL_FLOAT, ACL_INT32);
        refuse(int32_target, "mean", 0, {"INT32 target", kInvalid, "Tensor target not implemented for DT_INT32, "
                                         "should be in dtype support list [DT_INT64,]."});
        // The checks aclnn-cpu adds there are 161002; the tiling's own keep its texts and 561002.
        refuse(three_d, "mean", 0, {"3-D x", kInvalid, "Parameter x of CrossEntropyLoss has incorrect shape dim 3."});
        Forward other_n({2, 3}, x, {0, 1}, {}, "mean");
        other_n.target = T({3}, {0, 1, 2}, ACL_INT64);
        refuse(other_n, "mean", 0, {"target [3]", kTiling, "Parameters input and target of CrossEntropyLoss have "
                                    "incorrect shapes 2 and 3. Reason: The dim 0 of input should be same as the shape "
                                    "size of target."});
    }
    {
        const Soc scope("Ascend910A");  // not offered
        Forward f({2, 3}, x, {0, 1}, {}, "mean");
        refuse(f, "mean", 0, {"Atlas 910", kInvalid, "should be in dtype support list []"});
    }
}

TEST(Checks, CrossEntropyLossGrad) {
    const std::vector<double> lp(6, -1.0);
    auto refuse = [](const Grad& g, const char* reduction, double ls, const Expected& e) {
        ExpectRefused(e, [&](uint64_t* s, aclOpExecutor** ex) { return g.Phase1(reduction, -100, ls, s, ex); },
                      {g.out.get()});
    };
    {
        const Soc scope(kAscend950);
        Grad g({2, 3}, {1}, lp, {0, 1}, {}, "mean");
        refuse(g, "avg", 0, {"reduction avg", kTiling, "Parameter reduction of CrossEntropyLossGrad has incorrect "
                             "value avg. It should be none, mean or sum."});
        refuse(g, "mean", -0.5, {"labelSmoothing -0.5", kTiling, "has incorrect value -0.500000. Reason: within [0, 1]."});
        refuse(g, "none", 0, {"none with a 0-d gradLoss", kTiling, "grad_loss dimNum should be same as 1 when "
                              "reduction is none"});
        Grad wrong_out({2, 3}, {1}, lp, {0, 1}, {}, "mean");
        wrong_out.out = T({3, 2}, std::vector<double>(6, 9));
        refuse(wrong_out, "mean", 0, {"out [3, 2]", kInvalid, "out must have logProb's shape [2, 3]"});
        Grad half_grad({2, 3}, {1}, lp, {0, 1}, {}, "mean");
        half_grad.grad = T({}, {1}, ACL_FLOAT16);
        refuse(half_grad, "mean", 0, {"FLOAT16 gradLoss", kInvalid, "Tensor gradLoss has dtype DT_FLOAT16"});
    }
    {
        const Soc scope(kAtlasA2);
        Grad g({2, 3}, {1}, lp, {0, 1}, {}, "mean");
        refuse(g, "mean", 0.1, {"labelSmoothing on A2", kInvalid, "it should be 0.0"});
        // A name the older chips' tiling does not know is none there: gradLoss must then have N elements.
        refuse(g, "avg", 0, {"avg is none on A2", kInvalid, "when reduction is none"});
        Grad other_n({2, 3}, {1}, lp, {0, 1}, {}, "mean");
        other_n.target = T({3}, {0, 1, 2}, ACL_INT64);
        refuse(other_n, "mean", 0, {"target [3]", kTiling, "The dim 0 of log_prob must be equal to the shape size of "
                                    "target"});
        Grad per_sample({2, 3}, {1, 2}, lp, {0, 1}, {}, "none");
        uint64_t size = 0;
        aclOpExecutor* executor = nullptr;
        EXPECT_EQ(per_sample.Phase1("avg", -100, 0, &size, &executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        aclDestroyAclOpExecutor(executor);
    }
}

}  // namespace
