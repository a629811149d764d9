// The two operators agree with each other: for random inputs, aclnnSoftMarginLossBackward's out is the
// derivative with respect to self of the loss aclnnSoftMarginLoss defines, as a central finite difference
// of that definition evaluated in float64 (loss_i = log1p(exp(-x_i*y_i)); none: each loss_i, with
// gradOutput = 1 everywhere; mean: their mean; sum: their sum, each with a 0-d gradOutput of 1).
// Tolerance: 2^-16 relative to the derivative plus 2^-30 absolute (times 1/N for mean); the finite difference
// (h = 2^-17) is accurate to about 1e-10 here, and the fp32 backward to 8 ulp (about 2^-20 relative).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "acl/acl.h"
#include "aclnnop/aclnn_soft_margin_loss.h"
#include "operator_harness.h"
#include "random_cases.h"

namespace {

using namespace test_support;

double LossOfElement(double x, double y) { return std::log1p(std::exp(-x * y)); }

class GradientConsistency : public ::testing::TestWithParam<int64_t> {};

TEST_P(GradientConsistency, BackwardIsTheFiniteDifferenceOfTheForward) {
    const int64_t reduction = GetParam();
    const int64_t rows = 37, columns = 53, n = rows * columns;
    std::mt19937_64 rng(40 + reduction);
    DeviceTensor self(Dense({rows, columns}, ACL_FLOAT), rng, Uniform{4.0});
    DeviceTensor target(Dense({columns}, ACL_FLOAT), rng, Uniform{2.0});
    const std::vector<int64_t> grad_dims = reduction == 0 ? std::vector<int64_t>{rows, columns}
                                                          : std::vector<int64_t>{};
    DeviceTensor grad(Dense(grad_dims, ACL_FLOAT), rng, Uniform{1.0});
    for (int64_t i = 0; i < NumElements(grad_dims); ++i) grad.SetStorage(i, 1.0);
    grad.Upload();
    DeviceTensor gradient(Dense({rows, columns}, ACL_FLOAT), rng, Uniform{1.0});
    ASSERT_EQ(RunSoftMarginLossBackward(grad.tensor(), self.tensor(), target.tensor(), reduction,
                                        gradient.tensor()), 0) << aclGetRecentErrMsg();
    // The forward runs too, so both operators see the same tensors and this reduction is valid for both.
    DeviceTensor loss(Dense(reduction == 0 ? std::vector<int64_t>{rows, columns} : std::vector<int64_t>{},
                            ACL_FLOAT), rng, Uniform{1.0});
    ASSERT_EQ(RunSoftMarginLoss(self.tensor(), target.tensor(), reduction, loss.tensor()), 0);

    const std::vector<uint8_t> bytes = gradient.Download();
    const double scale = reduction == 1 ? 1.0 / static_cast<double>(n) : 1.0;
    const double h = std::ldexp(1.0, -17);
    int failures = 0;
    for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < columns; ++c) {
            const double x = self.HostValue(r * columns + c), y = target.HostValue(c);
            const double derivative = scale * (LossOfElement(x + h, y) - LossOfElement(x - h, y)) / (2 * h);
            const double got = DecodeElement(bytes.data() + 4 * (r * columns + c), ACL_FLOAT);
            const double allowed = std::ldexp(std::fabs(derivative), -16) + std::ldexp(scale, -30);
            if (!(std::fabs(got - derivative) <= allowed) && failures++ < 5) {
                ADD_FAILURE() << "[" << r << "," << c << "] x=" << x << " y=" << y << ": backward " << got
                              << ", finite difference " << derivative;
            }
        }
    }
    EXPECT_EQ(failures, 0);
}

INSTANTIATE_TEST_SUITE_P(NoneMeanSum, GradientConsistency, ::testing::Values(0, 1, 2));

}  // namespace
