#include "random_cases.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace test_support {
namespace {

bool Chance(std::mt19937_64& rng, double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }

int64_t Between(std::mt19937_64& rng, int64_t low, int64_t high) {
    return std::uniform_int_distribution<int64_t>(low, high)(rng);
}

}  // namespace

TensorSpec RandomLayout(const std::vector<int64_t>& dims, aclDataType type, std::mt19937_64& rng,
                        const LayoutOptions& options) {
    TensorSpec spec;
    spec.dims = dims;
    spec.type = type;
    const int rank = static_cast<int>(dims.size());
    std::vector<int> order(rank);  // storage order, outermost first
    std::iota(order.begin(), order.end(), 0);
    if (Chance(rng, 0.4)) std::shuffle(order.begin(), order.end(), rng);
    spec.strides.assign(rank, 0);
    int64_t running = Chance(rng, 0.2) ? 2 : 1;  // a stepped innermost dim (every other element)
    const bool padded = Chance(rng, 0.3);
    for (int i = rank - 1; i >= 0; --i) {
        const int d = order[i];
        if (options.allow_expand && dims[d] > 1 && Chance(rng, 0.15)) {
            spec.strides[d] = 0;  // expanded: every index along d reads the same element
            continue;
        }
        spec.strides[d] = running;
        running = running * dims[d] + (padded ? Between(rng, 0, 3) : 0);
    }
    spec.offset = Chance(rng, 0.3) ? Between(rng, 1, 5) : 0;
    return spec;
}

std::vector<int64_t> RandomShape(int rank, int64_t max_elements, std::mt19937_64& rng) {
    std::vector<int64_t> shape(rank);
    for (auto& d : shape) d = Chance(rng, 0.2) ? 1 : Between(rng, 2, 6);
    // Shrink random dims until the element count fits.
    while (NumElements(shape) > max_elements) {
        auto& d = shape[Between(rng, 0, rank - 1)];
        d = std::max<int64_t>(1, d / 2);
    }
    return shape;
}

std::vector<int64_t> RandomBroadcastableTo(const std::vector<int64_t>& shape, std::mt19937_64& rng) {
    const int drop = static_cast<int>(Between(rng, 0, static_cast<int64_t>(shape.size())));
    std::vector<int64_t> result(shape.begin() + (Chance(rng, 0.5) ? 0 : drop), shape.end());
    for (auto& d : result)
        if (Chance(rng, 0.25)) d = 1;
    return result;
}

double DomainValue(aclnn_cpu::ValueDomain domain, std::mt19937_64& rng) {
    switch (domain) {
        case aclnn_cpu::ValueDomain::kSignLabel: return rng() % 8 == 0 ? Uniform{3.0}(rng) : (rng() % 2 ? 1.0 : -1.0);
        case aclnn_cpu::ValueDomain::kGradient: return Uniform{2.0}(rng);
        case aclnn_cpu::ValueDomain::kProbability:  // the ends included
            return rng() % 8 == 0 ? static_cast<double>(rng() % 2) : std::fabs(Uniform{1.0}(rng));
        case aclnn_cpu::ValueDomain::kWeight: return std::fabs(Uniform{2.0}(rng));
        default: return Uniform{8.0}(rng);
    }
}

}  // namespace test_support
