// Prints, for every SIMD target Highway compiled and this CPU runs, a digest of the results of every operator of
// the table (ops/operator_table.h) on a fixed set of inputs (every dtype and reduction, the default parameters
// and others, a broadcast target). The inputs are made with
// integer arithmetic and one correctly rounded division each, so every machine starts from the same bits; NaN
// results are hashed as one NaN, since their sign and payload are the hardware's (x86's default NaN is
// negative, Arm's positive). scripts/run_tests_aarch64.sh compares the aarch64 targets' digests with the x86
// FMA targets' (docs/compatibility.md, "Across CPUs").
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
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
        const size_t element = type == ACL_FLOAT ? 4 : 2;
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

uint64_t DigestOfAllCases() {
    Digest digest;
    Stream stream{20261201};
    const int64_t rows = 512, columns = kElements / 512;
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        auto values = [&](int64_t count, int64_t range, float divisor) {
            return type == ACL_FLOAT ? Values(&stream, count, range, divisor) : ExactIn16Bits(&stream, count);
        };
        Buffer self({rows, columns}, type, values(kElements, 12000, 100.0f));
        Buffer target({columns}, type, values(columns, 1000, 300.0f));  // broadcast along rows
        Buffer grad({rows, columns}, type, values(kElements, 1000, 7.0f));
        Buffer whole_target({rows, columns}, type, values(kElements, 1000, 1000.0f));  // where target is self's shape
        Buffer out({rows, columns}, type, std::vector<float>(kElements, 0.0f));
        Buffer sum({}, ACL_FLOAT, {0.0f});
        Buffer typed_sum({}, type, {0.0f});  // a reduced result whose dtype CANN ties to an input's
        Buffer column_sums({columns}, ACL_FLOAT, std::vector<float>(static_cast<size_t>(columns), 0.0f));
        for (const aclnn_cpu::OperatorDescription& row : aclnn_cpu::kOperators) {
            // self is self, an incoming gradient is grad, an input of self's exact shape is whole_target, any
            // other input is the broadcast target.
            std::vector<const aclTensor*> inputs;
            for (int k = 0; k < row.input_count; ++k) {
                inputs.push_back(k == row.self_input ? self.tensor()
                                 : row.inputs[k].domain == aclnn_cpu::ValueDomain::kGradient ? grad.tensor()
                                 : row.inputs[k].shape == aclnn_cpu::InputShape::kSameAsSelf ? whole_target.tensor()
                                                                                             : target.tensor());
            }
            // The default parameters, then the others (beta) at half their default.
            for (int variant = 0; variant < (row.parameter_count > 1 ? 2 : 1); ++variant) {
                for (int64_t reduction : {0, 1, 2}) {
                    double parameters[aclnn_cpu::kMaxOperatorParameters] = {};
                    for (int p = 0; p < row.parameter_count; ++p)
                        parameters[p] = row.parameters[p].default_value * (variant == 1 ? 0.5 : 1.0);
                    parameters[0] = static_cast<double>(reduction);
                    const bool reduced = aclnn_cpu::ReducesTo(row, reduction);
                    const bool tied = row.out_dtype_input >= 0;
                    const Buffer& result = !reduced ? out
                                           : row.result == aclnn_cpu::ResultRule::kLossOverFirstDim ? column_sums
                                           : tied ? typed_sum
                                                  : sum;
                    uint64_t workspace_size = 0;
                    aclOpExecutor* executor = nullptr;
                    if (row.get_workspace_size(inputs.data(), parameters, result.tensor(), &workspace_size,
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

int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        std::printf("%s %016llx\n", hwy::TargetName(target), static_cast<unsigned long long>(DigestOfAllCases()));
    }
    hwy::SetSupportedTargetsForTest(0);
    aclFinalize();
    return 0;
}
