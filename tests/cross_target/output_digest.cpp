// Prints, for every SIMD target Highway compiled and this CPU runs, a digest of the results of every operator of
// the table (ops/operator_table.h) on a fixed set of inputs (every dtype and reduction, the default parameters
// and others, a broadcast target). The inputs are made with
// integer arithmetic and one correctly rounded division each, so every machine starts from the same bits; NaN
// results are hashed as one NaN, since their sign and payload are the hardware's (x86's default NaN is
// negative, Arm's positive). scripts/run_tests_aarch64.sh compares the aarch64 targets' digests with the x86
// FMA targets' (docs/compatibility.md, "Across CPUs").
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "acl/acl.h"
#include "hwy/targets.h"
#include "ops/operator_table.h"
#include "reference.h"

namespace {

constexpr int64_t kElements = 1 << 18;

struct Digest {
    uint64_t state = 1469598103934665603ull;  // FNV-1a
    void Add(const void* data, size_t bytes) {
        const unsigned char* p = static_cast<const unsigned char*>(data);
        for (size_t i = 0; i < bytes; ++i) state = (state ^ p[i]) * 1099511628211ull;
    }
};

// A deterministic integer stream (a 64-bit LCG's high bits).
struct Stream {
    uint64_t state;
    int64_t Next(int64_t range) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<int64_t>((state >> 33) % static_cast<uint64_t>(range));
    }
};

class Buffer {
public:
    // values must be exact in type (ExactIn16Bits for the 16-bit types): they are encoded, not rounded.
    Buffer(const std::vector<int64_t>& dims, aclDataType type, const std::vector<float>& values) {
        const size_t element = type == ACL_FLOAT ? 4 : type == ACL_INT64 ? 8 : 2;
        bytes_ = values.size() * element;
        std::vector<unsigned char> host(bytes_);
        for (size_t i = 0; i < values.size(); ++i) test_support::EncodeElement(values[i], type, &host[i * element]);
        aclrtMalloc(&device_, bytes_, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemcpy(device_, bytes_, host.data(), bytes_, ACL_MEMCPY_HOST_TO_DEVICE);
        tensor_ = aclCreateTensor(dims.data(), dims.size(), type, nullptr, 0, ACL_FORMAT_ND, dims.data(),
                                  dims.size(), device_);
    }
    ~Buffer() {
        aclDestroyTensor(tensor_);
        aclrtFree(device_);
    }
    aclTensor* tensor() const { return tensor_; }
    // Adds the contents to the digest, every NaN as one canonical NaN.
    void AddTo(Digest* digest, aclDataType type) const {
        std::vector<unsigned char> host(bytes_);
        aclrtMemcpy(host.data(), bytes_, device_, bytes_, ACL_MEMCPY_DEVICE_TO_HOST);
        const size_t element = type == ACL_FLOAT ? 4 : 2;
        for (size_t i = 0; i < bytes_; i += element) {
            uint32_t bits = 0;
            std::memcpy(&bits, &host[i], element);
            if (std::isnan(test_support::DecodeElement(&host[i], type))) bits = 0xffffffffu;
            digest->Add(&bits, 4);
        }
    }

private:
    size_t bytes_ = 0;
    void* device_ = nullptr;
    aclTensor* tensor_ = nullptr;
};

std::vector<float> Values(Stream* stream, int64_t count, int64_t range, float divisor) {
    std::vector<float> values(static_cast<size_t>(count));
    for (float& v : values) v = static_cast<float>(stream->Next(2 * range + 1) - range) / divisor;
    return values;
}

// Values with at most 8 significant bits and small exponents: exact in FLOAT16 and in BFLOAT16.
std::vector<float> ExactIn16Bits(Stream* stream, int64_t count) {
    std::vector<float> values(static_cast<size_t>(count));
    for (float& v : values) {
        // Two statements: the order of a call's arguments is unspecified (GCC differs between x86 and Arm).
        const float mantissa = static_cast<float>(stream->Next(511) - 255);
        v = std::ldexp(mantissa, static_cast<int>(stream->Next(12)) - 6);
    }
    return values;
}

// Values of a domain where it needs its own (fp32): probabilities strictly inside (0, 1), where binary
// cross-entropy's table logs take their fast form; with `labels`, 0 or 1 in the first half of the values (its
// one-log form for hard labels) and soft in the second; weights in (0, 2]. Empty for the other domains.
std::vector<float> DomainValues(Stream* stream, aclnn_cpu::ValueDomain domain, int64_t count, bool labels) {
    std::vector<float> values;
    if (domain == aclnn_cpu::ValueDomain::kProbability) {
        for (int64_t i = 0; i < count; ++i)
            values.push_back(labels && i < count / 2 ? static_cast<float>(stream->Next(2))
                                                     : static_cast<float>(stream->Next(99999) + 1) / 100000.0f);
    } else if (domain == aclnn_cpu::ValueDomain::kWeight) {
        for (int64_t i = 0; i < count; ++i) values.push_back(static_cast<float>(stream->Next(20000) + 1) / 10000.0f);
    }
    return values;
}

// A call with class-index targets (an NLL loss, the fused cross-entropy) on the pass's values: self [256, 64] (or
// [4, 32, 8, 16] for the 2-D forms), targets in range with every fifth sample ignored, weights exact in every dtype;
// every reduction, every output written.
// Returns false (and says why) where a call is refused or fails.
bool DigestClassIndexRow(const aclnn_cpu::OperatorDescription& row, aclDataType type, Stream* stream,
                         const std::function<std::vector<float>(int64_t)>& values, Digest* digest) {
    const std::vector<int64_t> self_dims = row.self_min_rank == 4 ? std::vector<int64_t>{4, 32, 8, 16}
                                                                  : std::vector<int64_t>{256, 64};
    const int64_t classes = self_dims[1];
    std::vector<int64_t> per_sample = {self_dims[0]};
    per_sample.insert(per_sample.end(), self_dims.begin() + 2, self_dims.end());
    int64_t samples = 1;
    for (int64_t d : per_sample) samples *= d;
    Buffer self(self_dims, type, values(samples * classes));
    std::vector<float> targets, weights;
    // The fused cross-entropy's gradient (kClassRows) on Ascend 950 ignores only a non-negative ignoreIndex: 3 there.
    const bool class_rows = row.iteration == aclnn_cpu::Iteration::kClassRows;
    const double ignore_index = class_rows ? 3.0 : -100.0;
    for (int64_t i = 0; i < samples; ++i)
        targets.push_back(i % 5 == 0 ? static_cast<float>(ignore_index) : static_cast<float>(stream->Next(classes)));
    for (int64_t c = 0; c < classes; ++c) weights.push_back(static_cast<float>(stream->Next(8) + 1) / 4.0f);
    Buffer target(per_sample, ACL_INT64, targets);
    Buffer weight({classes}, class_rows ? ACL_FLOAT : type, weights);  // the fused cross-entropy's is FLOAT
    Buffer total_weight({1}, type, {24.0f});
    for (int64_t reduction : {0, 1, 2}) {
        Buffer grad(reduction == 0 ? per_sample : std::vector<int64_t>{}, type, values(reduction == 0 ? samples : 1));
        std::vector<const aclTensor*> inputs;
        for (int k = 0; k < row.input_count; ++k) {
            const aclnn_cpu::InputDescription& input = row.inputs[k];
            if (!input.values_read) {  // an input the kernel does not read (the z-loss ones): absent
                inputs.push_back(nullptr);
                continue;
            }
            inputs.push_back(k == row.self_input                                         ? self.tensor()
                             : input.domain == aclnn_cpu::ValueDomain::kClassIndex        ? target.tensor()
                             : input.shape == aclnn_cpu::InputShape::kPerClass            ? weight.tensor()
                             : input.shape == aclnn_cpu::InputShape::kOneElement          ? total_weight.tensor()
                                                                                          : grad.tensor());
        }
        const std::vector<int64_t> out_dims = aclnn_cpu::IsGradient(row) ? self_dims
                                              : reduction == 0             ? per_sample
                                                                           : std::vector<int64_t>{};
        int64_t out_count = 1;
        for (int64_t d : out_dims) out_count *= d;
        Buffer out(out_dims, type, std::vector<float>(static_cast<size_t>(out_count), 0.0f));
        // The outputs after out: self's shape (logProbOut) or one element.
        std::vector<std::unique_ptr<Buffer>> more;
        aclTensor* outs[aclnn_cpu::kMaxOperatorOutputs] = {out.tensor()};
        for (int k = 1; k < row.output_count; ++k) {
            const bool like_self = row.more_outs[k - 1].shape == aclnn_cpu::OutputShape::kSelf;
            more.push_back(std::make_unique<Buffer>(like_self ? self_dims : std::vector<int64_t>{1}, type,
                                                    std::vector<float>(like_self ? samples * classes : 1, 0.0f)));
            outs[k] = more.back()->tensor();
        }
        // reduction, ignoreIndex, then (the fused cross-entropy) labelSmoothing 0.25 and the unread z-loss ones.
        const double parameters[] = {static_cast<double>(reduction), ignore_index, 0.25, 0, 0};
        uint64_t workspace_size = 0;
        aclOpExecutor* executor = nullptr;
        if (row.get_workspace_size(inputs.data(), parameters, outs, &workspace_size, &executor) != ACL_SUCCESS ||
            row.run(nullptr, 0, executor, nullptr) != ACL_SUCCESS || aclrtSynchronizeStream(nullptr) != ACL_SUCCESS) {
            std::fprintf(stderr, "%s failed on the digest's case: %s\n", row.api_name, aclGetRecentErrMsg());
            return false;
        }
        out.AddTo(digest, type);
        for (int k = 1; k < row.output_count; ++k)
            if (row.more_outs[k - 1].shape != aclnn_cpu::OutputShape::kUnwritten) more[static_cast<size_t>(k - 1)]->AddTo(digest, type);
    }
    return true;
}

// The digest of every row on every dtype and reduction, the inputs spread over wide ranges (most special
// handling: negative probabilities, logs of values outside their domain); then, in fp32, every input drawn
// from its row's domain (the fast forms real data takes).
// row_count: the first rows of the table only (an operator added at its end leaves the earlier rows' digest as
// it was, which this shows).
uint64_t DigestOfAllCases(int row_count) {
    Digest digest;
    Stream stream{20261201};
    const int64_t rows = 512, columns = kElements / 512;
    for (int pass = 0; pass < 4; ++pass) {
        const aclDataType type = pass == 1 ? ACL_FLOAT16 : pass == 2 ? ACL_BF16 : ACL_FLOAT;
        const bool domains = pass == 3;
        auto values = [&](int64_t count, int64_t range, float divisor) {
            return type == ACL_FLOAT ? Values(&stream, count, range, divisor) : ExactIn16Bits(&stream, count);
        };
        Buffer self({rows, columns}, type, values(kElements, 12000, 100.0f));
        Buffer target({columns}, type, values(columns, 1000, 300.0f));  // broadcast along rows
        Buffer grad({rows, columns}, type, values(kElements, 1000, 7.0f));
        Buffer whole_target({rows, columns}, type, values(kElements, 1000, 1000.0f));  // where target is self's shape
        // The domain pass's: self, an input of self's shape, a broadcast one; per domain that needs its own.
        const aclnn_cpu::ValueDomain kOwnDomains[2] = {aclnn_cpu::ValueDomain::kProbability,
                                                      aclnn_cpu::ValueDomain::kWeight};
        std::vector<std::unique_ptr<Buffer>> domain_self, domain_whole, domain_broadcast;
        if (domains) {
            for (aclnn_cpu::ValueDomain domain : kOwnDomains) {
                domain_self.push_back(std::make_unique<Buffer>(std::vector<int64_t>{rows, columns}, type,
                                                               DomainValues(&stream, domain, kElements, false)));
                domain_whole.push_back(std::make_unique<Buffer>(std::vector<int64_t>{rows, columns}, type,
                                                                DomainValues(&stream, domain, kElements, true)));
                domain_broadcast.push_back(std::make_unique<Buffer>(std::vector<int64_t>{columns}, type,
                                                                    DomainValues(&stream, domain, columns, true)));
            }
        }
        // The buffer of the domain pass for an input, or nullptr where the general one serves.
        auto domain_buffer = [&](aclnn_cpu::ValueDomain domain, std::vector<std::unique_ptr<Buffer>>& buffers) {
            for (int d = 0; domains && d < 2; ++d)
                if (domain == kOwnDomains[d]) return buffers[static_cast<size_t>(d)]->tensor();
            return static_cast<aclTensor*>(nullptr);
        };
        Buffer out({rows, columns}, type, std::vector<float>(kElements, 0.0f));
        Buffer sum({}, ACL_FLOAT, {0.0f});
        Buffer typed_sum({}, type, {0.0f});  // a reduced result whose dtype CANN ties to an input's
        Buffer column_sums({columns}, ACL_FLOAT, std::vector<float>(static_cast<size_t>(columns), 0.0f));
        for (int row_index = 0; row_index < row_count; ++row_index) {
            const aclnn_cpu::OperatorDescription& row = aclnn_cpu::kOperators[row_index];
            if (row.iteration == aclnn_cpu::Iteration::kClassIndex ||
                row.iteration == aclnn_cpu::Iteration::kClassRows) {
                if (!DigestClassIndexRow(row, type, &stream,
                                         [&](int64_t count) { return values(count, 1000, 100.0f); }, &digest))
                    return 0;
                continue;
            }
            // self is self, an incoming gradient is grad, an input of self's exact shape is whole_target, any
            // other input is the broadcast target.
            std::vector<const aclTensor*> inputs;
            for (int k = 0; k < row.input_count; ++k) {
                const aclnn_cpu::ValueDomain domain = row.inputs[k].domain;
                const bool whole = row.inputs[k].shape == aclnn_cpu::InputShape::kSameAsSelf;
                const aclTensor* own = domain_buffer(domain, k == row.self_input ? domain_self
                                                             : whole             ? domain_whole
                                                                                 : domain_broadcast);
                inputs.push_back(own != nullptr ? own
                                 : k == row.self_input ? self.tensor()
                                 : domain == aclnn_cpu::ValueDomain::kGradient ? grad.tensor()
                                 : whole ? whole_target.tensor()
                                         : target.tensor());
            }
            // The default parameters, then the others (beta) at half their default.
            for (int variant = 0; variant < (row.parameter_count > 1 ? 2 : 1); ++variant) {
                const int reduction_parameter = aclnn_cpu::ReductionParameter(row);
                for (int64_t reduction : {0, 1, 2}) {
                    if (reduction_parameter < 0 && reduction != 0) continue;  // one call of a row without one
                    double parameters[aclnn_cpu::kMaxOperatorParameters] = {};
                    for (int p = 0; p < row.parameter_count; ++p)
                        parameters[p] = row.parameters[p].default_value * (variant == 1 ? 0.5 : 1.0);
                    aclnn_cpu::SetReductionValue(row, parameters, reduction);
                    const bool reduced = aclnn_cpu::ReducesTo(row, reduction);
                    const bool tied = row.out_dtype_input >= 0;
                    const Buffer& result = !reduced ? out
                                           : row.result == aclnn_cpu::ResultRule::kLossOverFirstDim ? column_sums
                                           : tied ? typed_sum
                                                  : sum;
                    uint64_t workspace_size = 0;
                    aclOpExecutor* executor = nullptr;
                    if (row.Phase1(inputs.data(), parameters, result.tensor(), &workspace_size,
                                               &executor) != ACL_SUCCESS) {
                        std::fprintf(stderr, "%s refused the digest's case: %s\n", row.api_name, aclGetRecentErrMsg());
                        return 0;
                    }
                    row.run(nullptr, 0, executor, nullptr);
                    aclrtSynchronizeStream(nullptr);
                    result.AddTo(&digest, reduced && !tied ? ACL_FLOAT : type);
                }
            }
        }
    }
    return digest.state;
}

}  // namespace

// Usage: output_digest [rows] -- the digest of every row, or of the table's first rows.
int main(int argc, char** argv) {
    const int rows = argc > 1 ? std::min(std::atoi(argv[1]), aclnn_cpu::kOperatorCount) : aclnn_cpu::kOperatorCount;
    aclInit(nullptr);
    aclrtSetDevice(0);
    for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        std::printf("%s %016llx\n", hwy::TargetName(target), static_cast<unsigned long long>(DigestOfAllCases(rows)));
    }
    hwy::SetSupportedTargetsForTest(0);
    aclFinalize();
    return 0;
}
