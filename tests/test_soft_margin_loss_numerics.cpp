// aclnnSoftMarginLoss's own cases, on every SIMD target (the generic suites, test_operator_family_numerics,
// cover its dtypes, ranks, layouts and reductions as every row's): its softplus across its whole range and the
// near and far forms side by side; and the reduction's contract on the rows that exercise it best: within 1 ulp
// of the exact sum of the kernel's fp32 terms, whole-number terms summed exactly, and the same bits for any
// layout, fused or blocked path, and thread count.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "acl/acl.h"
#include "operator_harness.h"
#include "random_cases.h"

namespace {

using namespace test_support;

constexpr aclDataType kTypes[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const Uniform kValues{8.0};

// The 0-d result of a mean or sum against the reference sum of the float64 losses.
std::string CheckReduction(const DeviceTensor& self, const DeviceTensor& target, int64_t reduction,
                           const DeviceTensor& out) {
    const std::vector<double> losses = ReferenceLosses(self, target);
    const double reference = AccurateSum(losses);  // NaN when a loss is NaN
    const aclDataType promote = PromoteTypes(self.spec().type, target.spec().type);
    const double got = ReadScalar(out);
    double expected = 0;
    const char* problem = CheckReducedLoss(reference, static_cast<int64_t>(losses.size()), reduction == 1, promote,
                                           out.spec().type, got, &expected);
    if (problem[0] == '\0') return "";
    char text[200];
    std::snprintf(text, sizeof text, "%s: got %.9g, expected %.9g (exact sum %.12g)", problem, got, expected,
                  reference);
    return text;
}

// A dense sweep of products t = x * 1 over every binade from 2^-30 to 2^8, 4096 values in each, both signs
// (the exp and log1p evaluation across its whole range: the series for tiny exp(-|t|), the corrected log
// above, the subnormal exp region past |t| = 87), elementwise against the reference.
TEST(SpecialValues, DenseSweepOfProducts) {
    std::vector<double> products;
    for (int exponent = -30; exponent <= 7; ++exponent)
        for (int step = 0; step < 4096; ++step)
            for (double sign : {1.0, -1.0}) products.push_back(sign * std::ldexp(1.0 + step / 4096.0, exponent));
    const int64_t n = static_cast<int64_t>(products.size());
    std::mt19937_64 rng(21);
    DeviceTensor self(Dense({n}, ACL_FLOAT), rng, kValues);
    DeviceTensor target(Dense({}, ACL_FLOAT), rng, kValues);
    for (int64_t i = 0; i < n; ++i) self.SetStorage(i, products[i]);
    target.SetStorage(0, 1.0);
    self.Upload();
    target.Upload();
    DeviceTensor out(Dense({n}, ACL_FLOAT), rng, kValues);
    ASSERT_EQ(RunSoftMarginLoss(self.tensor(), target.tensor(), 0, out.tensor()), 0);
    int64_t checked = 0;
    const std::string failure =
        VerifyLossAgainstReference(self, target, out.spec(), out.Download(), out.host(), &checked);
    EXPECT_TRUE(failure.empty()) << failure;
    EXPECT_EQ(checked, n);
}

// The softplus takes its near table for |t| < 15.75 and blends in its far form only on the lanes that need it
// (kernels/vector_softplus-inl.h): an element's bits must not depend on whether its vector holds the other
// kind. Near and far products, interleaved with irregular run lengths, give the same bits as the same
// products with every element of the other kind replaced by a near one (1.0) or a far one (40.0).
TEST(SpecialValues, NearAndFarProductsDoNotAffectEachOther) {
    constexpr int64_t n = 4099;
    std::mt19937_64 rng(15);
    std::vector<double> products(n);
    std::vector<bool> far(n);
    for (int64_t i = 0; i < n;) {
        const bool is_far = rng() % 2 == 0;
        for (int64_t run = 1 + static_cast<int64_t>(rng() % 23); run > 0 && i < n; --run, ++i) {
            // Near: up to just below the limit, far: from the limit to past the subnormal results.
            const double magnitude = is_far ? 15.75 + std::ldexp(static_cast<double>(rng() % 4096), -5)
                                            : std::nextafter(15.75, 0.0) * static_cast<double>(rng() % 4096) / 4095;
            products[i] = rng() % 2 == 0 ? magnitude : -magnitude;
            far[i] = is_far;
        }
    }
    auto run = [&](double replace_far, double replace_near) {
        DeviceTensor self(Dense({n}, ACL_FLOAT), rng, kValues);
        DeviceTensor target(Dense({}, ACL_FLOAT), rng, kValues);
        for (int64_t i = 0; i < n; ++i) {
            const double value = far[i] ? (std::isnan(replace_far) ? products[i] : replace_far)
                                        : (std::isnan(replace_near) ? products[i] : replace_near);
            self.SetStorage(i, value);
        }
        target.SetStorage(0, 1.0);
        self.Upload();
        target.Upload();
        DeviceTensor out(Dense({n}, ACL_FLOAT), rng, kValues);
        EXPECT_EQ(RunSoftMarginLoss(self.tensor(), target.tensor(), 0, out.tensor()), 0);
        std::vector<float> values(n);
        const std::vector<uint8_t> bytes = out.Download();
        std::memcpy(values.data(), bytes.data(), n * sizeof(float));
        return values;
    };
    const double kKeep = std::nan("");
    const std::vector<float> mixed = run(kKeep, kKeep);
    const std::vector<float> near_only = run(1.0, kKeep);
    const std::vector<float> far_only = run(kKeep, 40.0);
    int64_t far_count = 0;
    for (int64_t i = 0; i < n; ++i) {
        const float expected = far[i] ? far_only[i] : near_only[i];
        far_count += far[i] ? 1 : 0;
        EXPECT_EQ(std::memcmp(&mixed[i], &expected, sizeof(float)), 0)
            << "element " << i << " (t = " << products[i] << "): " << mixed[i] << " mixed, " << expected << " alone";
    }
    EXPECT_GT(far_count, n / 4);
    EXPECT_LT(far_count, 3 * n / 4);
}

// The mean multiplies the fp32 sum: a sum past FLT_MAX is infinite even when the mean would be finite (CANN's
// order; the fuzzer found a reference that divided first).
TEST(Reduction, MeanOfASumPastFloatMaxIsInfinite) {
    std::mt19937_64 rng(14);
    DeviceTensor self(Dense({4}, ACL_FLOAT), rng, kValues);
    DeviceTensor target(Dense({}, ACL_FLOAT), rng, kValues);
    for (int i = 0; i < 4; ++i) self.SetStorage(i, -2e38);  // four losses of 2e38: finite terms, sum 8e38
    target.SetStorage(0, 1.0);
    self.Upload();
    target.Upload();
    DeviceTensor mean(Dense({}, ACL_FLOAT), rng, kValues);
    ASSERT_EQ(RunSoftMarginLoss(self.tensor(), target.tensor(), 1, mean.tensor()), 0);
    EXPECT_EQ(ReadScalar(mean), INFINITY);
    double expected = 0;
    EXPECT_STREQ(CheckReducedLoss(8e38, 4, true, ACL_FLOAT, ACL_FLOAT, ReadScalar(mean), &expected), "");
}

// The sum is within 1 ulp of the exact sum of the kernel's own fp32 terms (read back through reduction none
// with a FLOAT out), for sizes around the 16-lane groups and the 16K-element chunks and beyond, with terms of
// similar size and of widely different size; mean is that sum times 1/(float)N in fp32, exactly.
TEST(Reduction, WithinOneUlpOfTheExactSumOfTheTerms) {
    std::mt19937_64 rng(11);
    for (int64_t n : {int64_t{1}, int64_t{15}, int64_t{16}, int64_t{17}, int64_t{1000}, int64_t{16384},
                      int64_t{16385}, int64_t{100003}, int64_t{1} << 21}) {
        for (double scale : {8.0, 60.0}) {
            const Uniform values{scale};
            DeviceTensor self(Dense({n}, ACL_FLOAT), rng, values);
            DeviceTensor target(Dense({n}, ACL_FLOAT), rng, values);
            DeviceTensor terms(Dense({n}, ACL_FLOAT), rng, values);
            ASSERT_EQ(RunSoftMarginLoss(self.tensor(), target.tensor(), 0, terms.tensor()), 0);
            const std::vector<uint8_t> bytes = terms.Download();
            std::vector<double> term_values(n);
            for (int64_t i = 0; i < n; ++i) term_values[i] = DecodeElement(bytes.data() + 4 * i, ACL_FLOAT);
            const double exact = AccurateSum(term_values);
            DeviceTensor sum(Dense({}, ACL_FLOAT), rng, values);
            DeviceTensor mean(Dense({}, ACL_FLOAT), rng, values);
            ASSERT_EQ(RunSoftMarginLoss(self.tensor(), target.tensor(), 2, sum.tensor()), 0);
            ASSERT_EQ(RunSoftMarginLoss(self.tensor(), target.tensor(), 1, mean.tensor()), 0);
            const float got = static_cast<float>(ReadScalar(sum));
            EXPECT_LE(std::fabs(got - exact), UlpOf(exact, ACL_FLOAT)) << "n " << n << " scale " << scale;
            EXPECT_EQ(static_cast<float>(ReadScalar(mean)), got * (1.0f / static_cast<float>(n))) << "n " << n;
        }
    }
}

// The same values in other layouts (transposed storage, an expanded target, a materialised target, an
// offset) and on 1, 2 or 3 threads give the same bits: none elementwise, and mean/sum in every dtype.
TEST(Reduction, SameBitsForEveryLayoutAndThreadCount) {
    const int64_t rows = 96, columns = 1201;  // 115K elements: several threads, several chunks
    std::mt19937_64 rng(12);
    std::vector<double> x(rows * columns), y(columns);
    for (double& v : x) v = kValues(rng);
    for (double& v : y) v = kValues(rng);
    for (aclDataType type : kTypes) {
        // Layout A: contiguous self, target [columns] broadcast over rows.
        DeviceTensor self_a(Dense({rows, columns}, type), rng, kValues);
        DeviceTensor target_a(Dense({columns}, type), rng, kValues);
        // Layout B: self stored transposed (and offset), target materialised as [rows, columns].
        TensorSpec transposed = Dense({rows, columns}, type);
        transposed.strides = {1, rows};
        transposed.offset = 3;
        DeviceTensor self_b(transposed, rng, kValues);
        DeviceTensor target_b(Dense({rows, columns}, type), rng, kValues);
        for (int64_t r = 0; r < rows; ++r) {
            for (int64_t c = 0; c < columns; ++c) {
                self_a.SetStorage(r * columns + c, x[r * columns + c]);
                self_b.SetStorage(3 + c * rows + r, x[r * columns + c]);
                target_b.SetStorage(r * columns + c, y[c]);
            }
        }
        for (int64_t c = 0; c < columns; ++c) target_a.SetStorage(c, y[c]);
        for (DeviceTensor* t : {&self_a, &target_a, &self_b, &target_b}) t->Upload();

        std::vector<uint8_t> reference_none;
        double reference_results[2] = {0, 0};
        bool first = true;
        for (const char* threads : {"1", "2", "3"}) {
            setenv("ACLNN_CPU_NUM_THREADS", threads, 1);
            for (int layout = 0; layout < 2; ++layout) {
                const DeviceTensor& self = layout == 0 ? self_a : self_b;
                const DeviceTensor& target = layout == 0 ? target_a : target_b;
                DeviceTensor none(Dense({rows, columns}, type), rng, kValues);
                ASSERT_EQ(RunSoftMarginLoss(self.tensor(), target.tensor(), 0, none.tensor()), 0);
                double results[2];
                for (int64_t reduction : {1, 2}) {
                    DeviceTensor out(Dense({}, type), rng, kValues);
                    ASSERT_EQ(RunSoftMarginLoss(self.tensor(), target.tensor(), reduction, out.tensor()), 0);
                    results[reduction - 1] = ReadScalar(out);
                }
                if (first) {
                    reference_none = none.Download();
                    reference_results[0] = results[0];
                    reference_results[1] = results[1];
                    first = false;
                    continue;
                }
                EXPECT_EQ(none.Download(), reference_none) << "threads " << threads << " layout " << layout;
                EXPECT_EQ(results[0], reference_results[0]) << "mean, threads " << threads << " layout " << layout;
                EXPECT_EQ(results[1], reference_results[1]) << "sum, threads " << threads << " layout " << layout;
            }
        }
        unsetenv("ACLNN_CPU_NUM_THREADS");
        EXPECT_GT(reference_results[1], 0.0);  // a real sum (FLOAT16 overflows to +inf here)
    }
}

// Long rows (the fused sum widens them by moving bits, kernels/sum_accumulation-inl.h, and adds a row again
// by converting where that cannot represent a value or a lane) against the blocked path (a transposed self),
// which converts: the same bits for mean and sum. Products of every kind -- near, far, subnormal and zero
// losses, losses near 1e30 -- and then each of: a t = -inf (an infinite term), a NaN self, and losses of
// 3e38 that take one lane past 2^127.
TEST(Reduction, LongRowsOfEveryKindOfLossSumLikeTheBlockedPath) {
    const int64_t rows = 4, columns = 3001;
    const int64_t n = rows * columns;
    std::mt19937_64 rng(22);
    std::vector<double> products(n);
    for (double& t : products) {
        switch (rng() % 6) {
            case 0: t = 88.0 + static_cast<double>(rng() % 1600) / 100; break;   // subnormal losses
            case 1: t = 104.0 + static_cast<double>(rng() % 100); break;        // zero losses
            case 2: t = -std::ldexp(1.0 + static_cast<double>(rng() % 1000) / 1000, 99); break;  // ~1e30
            case 3: t = 15.75 + static_cast<double>(rng() % 5000) / 100; break;  // far
            default: t = static_cast<double>(rng() % 3200) / 100 - 16; break;   // near
        }
    }
    for (int variant = 0; variant < 4; ++variant) {
        std::vector<double> x = products;
        if (variant == 1) x[static_cast<size_t>(rng() % n)] = -INFINITY;
        if (variant == 2) x[static_cast<size_t>(rng() % n)] = std::nan("");
        if (variant == 3) {
            for (int64_t k = 0; k < 8; ++k) x[static_cast<size_t>(5 * columns / 4 + 16 * k)] = -3e38;  // one lane
        }
        DeviceTensor self_fused(Dense({rows, columns}, ACL_FLOAT), rng, kValues);
        TensorSpec transposed = Dense({rows, columns}, ACL_FLOAT);
        transposed.strides = {1, rows};
        DeviceTensor self_blocked(transposed, rng, kValues);
        DeviceTensor target(Dense({}, ACL_FLOAT), rng, kValues);
        for (int64_t r = 0; r < rows; ++r) {
            for (int64_t c = 0; c < columns; ++c) {
                self_fused.SetStorage(r * columns + c, x[static_cast<size_t>(r * columns + c)]);
                self_blocked.SetStorage(c * rows + r, x[static_cast<size_t>(r * columns + c)]);
            }
        }
        target.SetStorage(0, 1.0);
        for (DeviceTensor* t : {&self_fused, &self_blocked, &target}) t->Upload();
        for (int64_t reduction : {1, 2}) {
            DeviceTensor fused(Dense({}, ACL_FLOAT), rng, kValues);
            DeviceTensor blocked(Dense({}, ACL_FLOAT), rng, kValues);
            ASSERT_EQ(RunSoftMarginLoss(self_fused.tensor(), target.tensor(), reduction, fused.tensor()), 0);
            ASSERT_EQ(RunSoftMarginLoss(self_blocked.tensor(), target.tensor(), reduction, blocked.tensor()), 0);
            EXPECT_EQ(fused.Download(), blocked.Download()) << "variant " << variant << " reduction " << reduction;
            const std::string failure = CheckReduction(self_fused, target, reduction, fused);
            EXPECT_TRUE(failure.empty()) << failure << " variant " << variant << " reduction " << reduction;
            const double got = ReadScalar(fused);
            if (variant == 0) {
                EXPECT_TRUE(std::isfinite(got) && got > 0.0) << got;
            } else if (variant == 2) {
                EXPECT_TRUE(std::isnan(got)) << got;
            } else {
                EXPECT_EQ(got, INFINITY) << "variant " << variant;
            }
        }
    }
}

// A target constant along each row ([rows, 1]) is read once per row by the fused sum; summed, it gives the
// same bits as the same values materialised beside a transposed self (the blocked path), on 1 and 2 threads.
// Rows of 1201 elements start at every offset within the 16 sum lanes.
TEST(Reduction, RowConstantTargetSumsLikeMaterialised) {
    const int64_t rows = 40, columns = 1201;
    std::mt19937_64 rng(14);
    for (aclDataType type : kTypes) {
        DeviceTensor self_a(Dense({rows, columns}, type), rng, kValues);
        DeviceTensor target_a(Dense({rows, 1}, type), rng, kValues);
        TensorSpec transposed = Dense({rows, columns}, type);
        transposed.strides = {1, rows};
        DeviceTensor self_b(transposed, rng, kValues);
        DeviceTensor target_b(Dense({rows, columns}, type), rng, kValues);
        for (int64_t r = 0; r < rows; ++r) {
            const double y = kValues(rng);
            target_a.SetStorage(r, y);
            for (int64_t c = 0; c < columns; ++c) {
                const double x = kValues(rng);
                self_a.SetStorage(r * columns + c, x);
                self_b.SetStorage(c * rows + r, x);
                target_b.SetStorage(r * columns + c, y);
            }
        }
        for (DeviceTensor* t : {&self_a, &target_a, &self_b, &target_b}) t->Upload();
        for (const char* threads : {"1", "2"}) {
            setenv("ACLNN_CPU_NUM_THREADS", threads, 1);
            for (int64_t reduction : {1, 2}) {
                DeviceTensor fused(Dense({}, type), rng, kValues);
                DeviceTensor blocked(Dense({}, type), rng, kValues);
                ASSERT_EQ(RunSoftMarginLoss(self_a.tensor(), target_a.tensor(), reduction, fused.tensor()), 0);
                ASSERT_EQ(RunSoftMarginLoss(self_b.tensor(), target_b.tensor(), reduction, blocked.tensor()), 0);
                EXPECT_EQ(fused.Download(), blocked.Download()) << "reduction " << reduction << " threads " << threads;
                EXPECT_GT(ReadScalar(fused), 0.0);
            }
        }
        unsetenv("ACLNN_CPU_NUM_THREADS");
    }
}

// Terms that are whole numbers (t = -k, k >= 17: L = k + log1p(e^-k) rounds to k in fp32) sum exactly, so a
// term lost or added twice anywhere -- a row's ends, the 16-lane groups, the 16K-element chunks, the rows of a
// broadcast -- changes the result. Contiguous (the fused path, rows merged), a [rows, 1] target (fused,
// 1201-element rows starting at every lane offset) and a transposed self (the blocked path); 1 and 2 threads.
// FLOAT: every term a whole number in [20, 60]. FLOAT16/BFLOAT16 round the sum to their own type, so there
// the terms are 0 (t = +inf) except at the edges above, 17 to 19 each: a total below 256, exact in both.
TEST(Reduction, WholeNumberTermsSumExactly) {
    std::mt19937_64 rng(15);
    struct Case {
        int64_t rows, columns;
        int layout;  // 0: contiguous, target the same shape; 1: target [rows, 1]; 2: self transposed
    };
    const Case cases[] = {{1, 1, 0},    {1, 15, 0},    {1, 17, 0},    {1, 16384, 0}, {1, 16385, 0},
                          {1, 40007, 0}, {40, 1201, 1}, {3, 7, 1},    {40, 1201, 2}, {1, 40007, 2}};
    const int64_t edges[] = {0, 1, 14, 15, 16, 17, 1200, 1201, 16383, 16384, 16385};
    for (aclDataType type : kTypes) {
        const bool dense = type == ACL_FLOAT;
        for (const Case& c : cases) {
            const int64_t n = c.rows * c.columns;
            TensorSpec self_spec = Dense({c.rows, c.columns}, type);
            if (c.layout == 2) self_spec.strides = {1, c.rows};
            DeviceTensor self(self_spec, rng, kValues);
            DeviceTensor target(Dense({c.rows, c.layout == 1 ? 1 : c.columns}, type), rng, kValues);
            std::vector<double> minus_t(n, -HUGE_VAL);
            for (int64_t i = 0; i < n; ++i)
                if (dense) minus_t[i] = static_cast<double>(20 + rng() % 41);
            if (!dense) {
                for (int64_t i : edges)
                    if (i < n) minus_t[i] = static_cast<double>(17 + rng() % 3);
                minus_t[n - 1] = minus_t[n - 2 >= 0 ? n - 2 : 0] = 17;
            }
            double exact = 0;
            for (int64_t r = 0; r < c.rows; ++r) {
                for (int64_t col = 0; col < c.columns; ++col) {
                    const double value = minus_t[r * c.columns + col];
                    self.SetStorage(c.layout == 2 ? col * c.rows + r : r * c.columns + col, -value);
                    if (value > 0) exact += value;
                }
            }
            for (int64_t i = 0; i < (c.layout == 1 ? c.rows : n); ++i) target.SetStorage(i, 1.0);
            self.Upload();
            target.Upload();
            for (const char* threads : {"1", "2"}) {
                setenv("ACLNN_CPU_NUM_THREADS", threads, 1);
                DeviceTensor sum(Dense({}, ACL_FLOAT), rng, kValues);
                DeviceTensor mean(Dense({}, ACL_FLOAT), rng, kValues);
                ASSERT_EQ(RunSoftMarginLoss(self.tensor(), target.tensor(), 2, sum.tensor()), 0);
                ASSERT_EQ(RunSoftMarginLoss(self.tensor(), target.tensor(), 1, mean.tensor()), 0);
                const std::string where = "rows " + std::to_string(c.rows) + " columns " + std::to_string(c.columns) +
                                          " layout " + std::to_string(c.layout) + " threads " + threads;
                EXPECT_EQ(ReadScalar(sum), exact) << where;
                if (dense) {
                    EXPECT_EQ(static_cast<float>(ReadScalar(mean)),
                              static_cast<float>(exact) * (1.0f / static_cast<float>(n)))
                        << where;
                }
            }
            unsetenv("ACLNN_CPU_NUM_THREADS");
        }
    }
}

}  // namespace
