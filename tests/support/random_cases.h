// Random shapes, broadcast patterns and memory layouts for the operator tests.
#pragma once

#include <random>
#include <vector>

#include "device_tensor.h"
#include "ops/operator_table.h"

namespace test_support {

struct LayoutOptions {
    bool allow_expand = false;  // inputs may be expanded views (stride 0 on a dim of size > 1)
};

// A random layout for a view of `dims`: transposed storage order, padded or stepped dims, an offset, and,
// for inputs, expanded dims. The view itself stays `dims`.
TensorSpec RandomLayout(const std::vector<int64_t>& dims, aclDataType type, std::mt19937_64& rng,
                        const LayoutOptions& options);

// A random broadcast shape of the given rank with at most max_elements elements.
std::vector<int64_t> RandomShape(int rank, int64_t max_elements, std::mt19937_64& rng);

// A shape that broadcasts to `shape`: some leading dims dropped, some dims set to 1.
std::vector<int64_t> RandomBroadcastableTo(const std::vector<int64_t>& shape, std::mt19937_64& rng);

// Uniform values in [-limit, limit].
struct Uniform {
    double limit;
    double operator()(std::mt19937_64& rng) const {
        return std::uniform_real_distribution<double>(-limit, limit)(rng);
    }
};

// A value of the domain an input takes (operator_table.h's ValueDomain): sign labels mostly -1 and +1,
// probabilities in [0, 1] with the ends, positive weights, gradients around [-2, 2], reals in [-8, 8].
double DomainValue(aclnn_cpu::ValueDomain domain, std::mt19937_64& rng);

}  // namespace test_support
