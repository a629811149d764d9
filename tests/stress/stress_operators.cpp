// Stress program: many threads, each driving several streams (and its default stream: half the threads in a
// context of their own), enqueue async copies, memsets and calls of every operator of the operator table
// (ops/operator_table.h; every reduction, random parameters CANN accepts, optional inputs given or not, values
// of each input's domain) of random sizes and dtypes with random synchronisation points, and
// verify every result against the float64 reference (all elements of small results, a sample of large ones);
// some results are also copied on another stream ordered after the operator by an event, and must match. Then
// it destroys streams and calls aclFinalize with work still queued, and checks that the queued work completed.
// Prints what it did and the peak resident set size. Exit status 0 only when every check passed.
//
//   stress_operators [--seconds S] [--threads T] [--streams-per-thread K]
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "ops/operator_table.h"
#include "operator_harness.h"
#include "reference.h"

namespace {

std::atomic<int64_t> g_operations{0};
std::atomic<int64_t> g_checked_elements{0};
std::atomic<int64_t> g_failures{0};

void Failure(const char* what) {
    if (g_failures.fetch_add(1) < 10) std::fprintf(stderr, "stress_operators: %s\n", what);
}

const aclDataType kTypes[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

int64_t Size(aclDataType type) { return type == ACL_FLOAT ? 4 : 2; }

constexpr int kSlots = aclnn_cpu::kMaxOperatorInputs + 1;  // the inputs, then out
constexpr int kOut = aclnn_cpu::kMaxOperatorInputs;

// One operator call's buffers: host sources and results, device blocks, tensors (the row's inputs in order, an
// absent optional one null; out last; an NLL loss's total weight in the `second` ones). Everything it touches
// stays alive until the job has been verified, after a sync of its stream.
struct Job {
    int64_t rows = 0, columns = 0;
    aclDataType types[kSlots];
    const aclnn_cpu::OperatorDescription* op = nullptr;  // a row of the operator table
    std::vector<double> parameters;                      // the row's, reduction first
    bool present[kSlots] = {};
    bool scalar_grad = false;  // a gradient row's incoming gradient is 0-d
    std::vector<char> host_in[kSlots];
    std::vector<char> host_out;
    // A second copy of out, made on another stream that waited for an event recorded after the operator: it
    // must equal host_out (the event ordered the streams). Empty when the job has none.
    std::vector<char> mirror;
    aclrtStream mirror_stream = nullptr;
    void* device[kSlots] = {};
    aclTensor* tensors[kSlots] = {};
    aclrtStream stream = nullptr;
    // A call with class-index targets (Iteration::kClassIndex, kClassRows): self's dims, and the outputs after out
    // (an NLL loss's total weight, the fused cross-entropy's logProb and unwritten z-loss outputs).
    std::vector<int64_t> self_dims;
    static constexpr int kMore = aclnn_cpu::kMaxOperatorOutputs - 1;
    std::vector<char> host_more[kMore];
    void* device_more[kMore] = {};
    aclTensor* tensor_more[kMore] = {};

    ~Job() {
        for (aclTensor* t : tensors) aclDestroyTensor(t);
        for (void* d : device)
            if (d != nullptr) aclrtFree(d);
        for (int k = 0; k < kMore; ++k) {
            aclDestroyTensor(tensor_more[k]);
            if (device_more[k] != nullptr) aclrtFree(device_more[k]);
        }
    }

    int64_t reduction() const { return aclnn_cpu::ReductionValue(*op, parameters.data()); }
    bool Summed() const { return op->result == aclnn_cpu::ResultRule::kLoss && reduction() != 0; }
    bool OverFirstDim() const { return op->result == aclnn_cpu::ResultRule::kLossOverFirstDim && reduction() != 0; }
    bool Scalar(int k) const {
        if (k == kOut) return Summed();
        return scalar_grad && aclnn_cpu::RoleOf(*op, k) == aclnn_cpu::InputRole::kIncomingGradient;
    }
    int64_t Elements(int k) const {
        if (Scalar(k)) return 1;
        return k == kOut && OverFirstDim() ? columns : rows * columns;
    }
    std::vector<int64_t> Dims(int k) const {
        if (Scalar(k)) return {};
        if (k == kOut && OverFirstDim()) return {columns};
        return {rows, columns};
    }
    test_support::RowCall Call() const {
        test_support::RowCall call;
        call.row = op;
        call.parameters = parameters;
        call.broadcast_count = rows * columns;
        call.self_count = Elements(op->self_input);
        const int gradient = aclnn_cpu::IncomingGradientInput(*op);
        call.gradient_count = gradient >= 0 ? Elements(gradient) : 0;
        call.first_dim = rows;
        call.given_inputs = 0;
        for (int k = 0; k < op->input_count; ++k)
            if (present[k]) call.given_inputs |= 1u << k;
        return call;
    }
};

// A value of the row's parameter p that CANN accepts: reduction 0..2 (3 too where any value is a sum), beta
// mostly near 1 and sometimes 0, booleans either way, dim and ignoreIndex their defaults.
double RandomParameter(const aclnn_cpu::ParameterDescription& p, std::mt19937_64& rng) {
    if (p.type == aclnn_cpu::ParameterType::kReduction) return static_cast<double>(rng() % (p.maximum > 2 ? 4 : 3));
    if (p.type == aclnn_cpu::ParameterType::kBool) return static_cast<double>(rng() % 2);
    if (p.type == aclnn_cpu::ParameterType::kInt64 || p.type == aclnn_cpu::ParameterType::kDim ||
        p.type == aclnn_cpu::ParameterType::kIgnoreIndex)
        return p.default_value;  // dim -1; ignoreIndex -100, the targets' ignored value
    return rng() % 8 == 0 ? std::max(p.minimum, 0.0)
                          : std::min(p.maximum, std::uniform_real_distribution<double>(0.1, 4.0)(rng));
}

double RandomValue(aclnn_cpu::ValueDomain domain, std::mt19937_64& rng) {
    switch (domain) {
        case aclnn_cpu::ValueDomain::kSignLabel: return rng() % 2 ? 1.0 : -1.0;
        case aclnn_cpu::ValueDomain::kGradient: return std::uniform_real_distribution<double>(-2.0, 2.0)(rng);
        case aclnn_cpu::ValueDomain::kProbability:
            return rng() % 8 == 0 ? static_cast<double>(rng() % 2) : std::uniform_real_distribution<double>(0.0, 1.0)(rng);
        case aclnn_cpu::ValueDomain::kWeight: return std::uniform_real_distribution<double>(0.0, 2.0)(rng);
        default: return std::uniform_real_distribution<double>(-8.0, 8.0)(rng);
    }
}

// A device copy of host bytes, enqueued on stream, with its tensor of dims and type.
bool Upload(const std::vector<char>& host, const std::vector<int64_t>& dims, aclDataType type, aclrtStream stream,
            void** device, aclTensor** tensor) {
    if (aclrtMalloc(device, std::max<size_t>(host.size(), 1), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return false;
    *tensor = aclCreateTensor(dims.data(), dims.size(), type, nullptr, 0, ACL_FORMAT_ND, dims.data(), dims.size(),
                              *device);
    return host.empty() || aclrtMemcpyAsync(*device, host.size(), host.data(), host.size(),
                                            ACL_MEMCPY_HOST_TO_DEVICE, stream) == ACL_SUCCESS;
}

// A call with class-index targets (an NLL loss, the fused cross-entropy): self [rows, columns] ([rows, columns, 1,
// 1] for the 2-D forms) of log-probabilities (the fused forward's logits), a target per row (an NLL loss's one in
// eight ignored), a weight per class, every reduction; outputs prefilled with 0x7f bytes.
std::unique_ptr<Job> LaunchClassIndex(std::unique_ptr<Job> job, std::mt19937_64& rng) {
    const aclnn_cpu::OperatorDescription& op = *job->op;
    const aclDataType type = kTypes[rng() % 3];
    job->self_dims = {job->rows, job->columns};
    std::vector<int64_t> per_sample = {job->rows};
    if (op.self_min_rank == 4) {
        job->self_dims.insert(job->self_dims.end(), {1, 1});
        per_sample.insert(per_sample.end(), {1, 1});
    }
    const int64_t reduction = job->reduction();
    for (int k = 0; k < op.input_count; ++k) {
        const aclnn_cpu::InputDescription& input = op.inputs[k];
        const bool index = input.domain == aclnn_cpu::ValueDomain::kClassIndex;
        const std::vector<int64_t> dims = k == op.self_input                                    ? job->self_dims
                                          : index                                               ? per_sample
                                          : input.shape == aclnn_cpu::InputShape::kPerClass     ? std::vector<int64_t>{job->columns}
                                          : input.shape == aclnn_cpu::InputShape::kOneElement   ? std::vector<int64_t>{1}
                                          : reduction == 0                                      ? per_sample
                                                                                                : std::vector<int64_t>{};
        int64_t count = 1;
        for (int64_t d : dims) count *= d;
        if (!input.values_read) continue;  // the z-loss inputs the kernels do not read: absent
        // The fused cross-entropy's weight is FLOAT whatever the scores' dtype.
        const bool float_weight = op.iteration == aclnn_cpu::Iteration::kClassRows &&
                                  input.shape == aclnn_cpu::InputShape::kPerClass;
        job->types[k] = index ? ACL_INT64 : float_weight ? ACL_FLOAT : type;
        job->present[k] = true;
        job->host_in[k].resize(static_cast<size_t>(count * (index ? 8 : Size(job->types[k]))));
        for (int64_t i = 0; i < count; ++i) {
            char* at = job->host_in[k].data() + i * (index ? 8 : Size(job->types[k]));
            if (index) {
                // One in eight ignored (ignoreIndex -100), but for the fused cross-entropy, whose gradient ignores no
                // negative ignoreIndex on Ascend 950 (the default SoC).
                const bool ignored = rng() % 8 == 0 && op.iteration == aclnn_cpu::Iteration::kClassIndex;
                const int64_t target = ignored ? -100 : static_cast<int64_t>(rng() % job->columns);
                std::memcpy(at, &target, 8);
                continue;
            }
            const double value = k == op.self_input ? std::uniform_real_distribution<double>(-8.0, 0.0)(rng)
                                 : input.shape == aclnn_cpu::InputShape::kPerClass
                                     ? std::uniform_real_distribution<double>(0.25, 2.0)(rng)
                                 : input.shape == aclnn_cpu::InputShape::kOneElement
                                     ? std::uniform_real_distribution<double>(1.0, 64.0)(rng)
                                     : std::uniform_real_distribution<double>(-2.0, 2.0)(rng);
            test_support::EncodeElement(test_support::RoundToType(value, job->types[k]), job->types[k], at);
        }
        if (!Upload(job->host_in[k], dims, job->types[k], job->stream, &job->device[k], &job->tensors[k])) {
            Failure("uploading an input failed");
            return nullptr;
        }
    }
    const std::vector<int64_t> out_dims = aclnn_cpu::IsGradient(op) ? job->self_dims
                                          : reduction == 0          ? per_sample
                                                                    : std::vector<int64_t>{};
    int64_t out_count = 1;
    for (int64_t d : out_dims) out_count *= d;
    job->types[kOut] = type;
    job->present[kOut] = true;
    job->host_out.assign(static_cast<size_t>(out_count * Size(type)), 0x7f);
    if (!Upload(job->host_out, out_dims, type, job->stream, &job->device[kOut], &job->tensors[kOut])) {
        Failure("uploading an output failed");
        return nullptr;
    }
    aclTensor* outs[aclnn_cpu::kMaxOperatorOutputs] = {job->tensors[kOut]};
    for (int k = 0; k + 1 < op.output_count; ++k) {
        const bool like_self = op.more_outs[k].shape == aclnn_cpu::OutputShape::kSelf;
        const std::vector<int64_t> dims = like_self ? job->self_dims : std::vector<int64_t>{1};
        job->host_more[k].assign(static_cast<size_t>((like_self ? job->rows * job->columns : 1) * Size(type)), 0x7f);
        if (!Upload(job->host_more[k], dims, type, job->stream, &job->device_more[k], &job->tensor_more[k])) {
            Failure("uploading an output failed");
            return nullptr;
        }
        outs[k + 1] = job->tensor_more[k];
    }
    const aclTensor* inputs[aclnn_cpu::kMaxOperatorInputs] = {};
    for (int k = 0; k < op.input_count; ++k) inputs[k] = job->tensors[k];
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    if (op.get_workspace_size(inputs, job->parameters.data(), outs, &workspace_size, &executor) != 0 ||
        workspace_size != 0 || op.run(nullptr, 0, executor, job->stream) != 0) {
        Failure("operator call failed");
        return nullptr;
    }
    if (aclrtMemcpyAsync(job->host_out.data(), job->host_out.size(), job->device[kOut], job->host_out.size(),
                         ACL_MEMCPY_DEVICE_TO_HOST, job->stream) != ACL_SUCCESS)
        Failure("aclrtMemcpyAsync D2H failed");
    for (int k = 0; k + 1 < op.output_count; ++k)
        if (aclrtMemcpyAsync(job->host_more[k].data(), job->host_more[k].size(), job->device_more[k],
                             job->host_more[k].size(), ACL_MEMCPY_DEVICE_TO_HOST, job->stream) != ACL_SUCCESS)
            Failure("aclrtMemcpyAsync D2H failed");
    g_operations.fetch_add(1);
    return job;
}

// Prepares a job and enqueues: H2D copies of the inputs, a memset of out, the operator, a D2H copy of out.
std::unique_ptr<Job> Launch(std::mt19937_64& rng, aclrtStream stream) {
    auto job = std::make_unique<Job>();
    job->stream = stream;
    const int64_t magnitude = std::uniform_int_distribution<int64_t>(0, 17)(rng);
    const int64_t n = std::max<int64_t>(1, (int64_t{1} << magnitude) + static_cast<int64_t>(rng() % 97));
    job->columns = std::max<int64_t>(1, std::min<int64_t>(n, 1 + static_cast<int64_t>(rng() % 300)));
    job->rows = std::max<int64_t>(1, n / job->columns);
    job->op = &aclnn_cpu::kOperators[rng() % aclnn_cpu::kOperatorCount];
    const aclnn_cpu::OperatorDescription& op = *job->op;
    for (int p = 0; p < op.parameter_count; ++p) job->parameters.push_back(RandomParameter(op.parameters[p], rng));
    if (op.iteration == aclnn_cpu::Iteration::kClassIndex || op.iteration == aclnn_cpu::Iteration::kClassRows)
        return LaunchClassIndex(std::move(job), rng);
    for (auto& t : job->types) t = kTypes[rng() % 3];
    if (op.inputs_share_dtype)
        for (int k = 0; k < op.input_count; ++k) job->types[k] = job->types[op.self_input];
    if (op.out_dtype_input >= 0) job->types[kOut] = job->types[op.out_dtype_input];
    for (int k = 0; k < op.input_count; ++k) job->present[k] = !op.inputs[k].optional || rng() % 3 != 0;
    job->present[kOut] = true;
    // A 0-d incoming gradient, where the row lets it broadcast.
    const int gradient = aclnn_cpu::IncomingGradientInput(op);
    job->scalar_grad =
        gradient >= 0 && op.inputs[gradient].shape != aclnn_cpu::InputShape::kSameAsSelf && rng() % 4 == 0;
    // A quarter of the calls with hard labels, every label (a probability that is not self) 0 or 1: binary
    // cross-entropy then takes its one-log form.
    const bool hard_labels = rng() % 4 == 0;
    for (int k = 0; k < kSlots; ++k) {
        if (!job->present[k]) continue;
        const int64_t bytes = job->Elements(k) * Size(job->types[k]);
        if (aclrtMalloc(&job->device[k], static_cast<size_t>(bytes), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
            Failure("aclrtMalloc failed");
            return nullptr;
        }
        std::vector<int64_t> dims = job->Dims(k);
        job->tensors[k] = aclCreateTensor(dims.data(), dims.size(), job->types[k], nullptr, 0, ACL_FORMAT_ND,
                                          dims.data(), dims.size(), job->device[k]);
        if (k == kOut) {
            job->host_out.assign(static_cast<size_t>(bytes), 0);
            break;
        }
        job->host_in[k].resize(static_cast<size_t>(bytes));
        const bool label = hard_labels && aclnn_cpu::IsProbabilityLabel(op, k);
        for (int64_t i = 0; i < job->Elements(k); ++i) {
            const double value = label ? static_cast<double>(rng() % 2) : RandomValue(op.inputs[k].domain, rng);
            test_support::EncodeElement(test_support::RoundToType(value, job->types[k]), job->types[k],
                                        job->host_in[k].data() + i * Size(job->types[k]));
        }
        if (aclrtMemcpyAsync(job->device[k], static_cast<size_t>(bytes), job->host_in[k].data(),
                             static_cast<size_t>(bytes), ACL_MEMCPY_HOST_TO_DEVICE, stream) != ACL_SUCCESS)
            Failure("aclrtMemcpyAsync H2D failed");
    }
    const size_t out_bytes = job->host_out.size();
    if (aclrtMemsetAsync(job->device[kOut], out_bytes, 0x7f, out_bytes, stream) != ACL_SUCCESS)
        Failure("aclrtMemsetAsync failed");
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    const aclTensor* inputs[aclnn_cpu::kMaxOperatorInputs] = {};
    for (int k = 0; k < op.input_count; ++k) inputs[k] = job->tensors[k];
    const bool called = op.Phase1(inputs, job->parameters.data(), job->tensors[kOut], &workspace_size,
                                              &executor) == 0 &&
                        workspace_size == 0 && op.run(nullptr, 0, executor, stream) == 0;
    if (!called) {
        Failure("operator call failed");
        return nullptr;
    }
    if (aclrtMemcpyAsync(job->host_out.data(), out_bytes, job->device[kOut], out_bytes, ACL_MEMCPY_DEVICE_TO_HOST,
                         stream) != ACL_SUCCESS)
        Failure("aclrtMemcpyAsync D2H failed");
    g_operations.fetch_add(1);
    return job;
}

double InputValue(const Job& job, int k, int64_t i) {
    const int64_t at = job.Scalar(k) ? 0 : i;
    return test_support::DecodeElement(job.host_in[k].data() + at * Size(job.types[k]), job.types[k]);
}

// The present inputs of element i, in the operator's order.
std::vector<double> InputValues(const Job& job, int64_t i) {
    std::vector<double> values;
    for (int k = 0; k < job.op->input_count; ++k)
        if (job.present[k]) values.push_back(InputValue(job, k, i));
    return values;
}

// The dtype the call computes in.
aclDataType Promote(const Job& job) {
    std::vector<aclDataType> types;
    for (int k = 0; k < job.op->input_count; ++k)
        if (job.present[k]) types.push_back(job.types[k]);
    return test_support::ComputeType(*job.op, types, job.types[kOut]);
}

// A mean or sum of the elements [first, ...) stepping by `step`, `count` of them, against the reference sum
// (each term rounded to the promote type first where the operator rounds them before summing); `got` is
// out's element `at`.
bool VerifySum(const Job& job, int64_t first, int64_t step, int64_t count, int64_t at, bool terms_rounded) {
    const test_support::RowCall call = job.Call();
    const aclDataType promote = Promote(job);
    test_support::ReducedLossReference sum;
    for (int64_t c = 0; c < count; ++c) {
        const test_support::ReferenceValue term =
            test_support::RowElementReference(call, InputValues(job, first + c * step).data());
        if (terms_rounded)
            sum.AddRounded(term, promote);
        else
            sum.Add(term);
    }
    const double got = test_support::DecodeElement(job.host_out.data() + at * Size(job.types[kOut]), job.types[kOut]);
    double expected = 0;
    const char* problem = sum.Check(count, job.reduction() == 1, promote, job.types[kOut], got, &expected);
    return problem[0] == '\0';
}

bool SameValue(double a, double b) { return a == b ? std::signbit(a) == std::signbit(b) : std::isnan(a) && std::isnan(b); }

// An NLL loss's results (Ascend 950's arithmetic, the default SoC: the kernel computes self's dtype) against
// its steps in float64: each sample's -(w * x) rounded to fp32 and then to self's dtype, a gradient's zeros and
// -(g * w) at the target, a mean or sum and the total weight within an ulp or two of the exact sums.
void VerifyClassIndex(const Job& job) {
    const aclnn_cpu::OperatorDescription& op = *job.op;
    const aclDataType type = job.types[kOut];
    const int self = op.self_input, target = self + 1;
    int weight = -1, gradient = -1, total = -1;
    for (int k = 0; k < op.input_count; ++k) {
        if (op.inputs[k].shape == aclnn_cpu::InputShape::kPerClass) weight = k;
        if (op.inputs[k].shape == aclnn_cpu::InputShape::kOneElement) total = k;
        if (aclnn_cpu::RoleOf(op, k) == aclnn_cpu::InputRole::kIncomingGradient) gradient = k;
    }
    auto value = [&](int k, int64_t i) {
        return test_support::DecodeElement(job.host_in[k].data() + i * Size(job.types[k]), job.types[k]);
    };
    auto out = [&](int64_t i) { return test_support::DecodeElement(job.host_out.data() + i * Size(type), type); };
    const int64_t reduction = job.reduction();
    long double loss_sum = 0, weight_sum = 0;
    int64_t checked = 0;
    for (int64_t n = 0; n < job.rows; ++n) {
        int64_t t;
        std::memcpy(&t, job.host_in[target].data() + n * 8, 8);
        const bool ignored = t == -100;
        const double w = ignored ? 0 : value(weight, t), x = ignored ? 0 : value(self, n * job.columns + t);
        loss_sum -= static_cast<long double>(w) * x;
        weight_sum += w;
        if (aclnn_cpu::IsGradient(op)) {
            float scale = static_cast<float>(value(gradient, reduction == 0 ? n : 0));
            if (reduction == 1) scale = static_cast<float>(scale / value(total, 0));
            for (int64_t c = 0; c < job.columns; ++c) {
                const double expected = ignored || c != t ? 0.0
                                        : -test_support::RoundToType(static_cast<float>(scale * w), type);
                if (!SameValue(out(n * job.columns + c), expected)) {
                    Failure("an NLL gradient differs from its steps in float64");
                    return;
                }
            }
            checked += job.columns;
        } else if (reduction == 0) {
            const double expected = ignored ? 0.0 : -test_support::RoundToType(static_cast<float>(w * x), type);
            if (!SameValue(out(n), expected)) {
                Failure("an NLL loss differs from its steps in float64");
                return;
            }
            ++checked;
        }
    }
    if (!aclnn_cpu::IsGradient(op) && reduction != 0) {
        // Within `ulps` of the exact value; a FLOAT16 sum at 65504 or past it may be infinite, as in the kernel.
        auto near = [type](double got, double exact, double ulps) {
            if (std::isnan(exact)) return std::isnan(got);
            if (std::isinf(got))
                return std::isinf(test_support::RoundToType(exact * 1.001, type)) &&
                       std::signbit(got) == std::signbit(exact);
            return std::fabs(got - exact) <= test_support::UlpOf(exact, type) * ulps;
        };
        const double exact = static_cast<double>(reduction == 1 ? loss_sum / weight_sum : loss_sum);
        const double total_weight = test_support::DecodeElement(job.host_more[0].data(), type);
        // A FLOAT mean is the quotient of two sums rounded once each: within 2.5 ulp (1 + 1 relative ulp of the
        // binade's bottom, up to 2 ulp at its top, and the division's half).
        if (!near(out(0), exact, type == ACL_FLOAT ? 2.5 : 1) ||
            !near(total_weight, static_cast<double>(weight_sum), 1)) {
            char what[256];
            std::snprintf(what, sizeof what,
                          "an NLL mean, sum or total weight differs from the float64 one (%s, dtype %d, reduction "
                          "%lld, %lld rows: %.9g vs %.9g, total weight %.9g vs %.9g)",
                          op.api_name, static_cast<int>(type), static_cast<long long>(reduction),
                          static_cast<long long>(job.rows), out(0), exact, total_weight,
                          static_cast<double>(weight_sum));
            Failure(what);
        }
        checked = 2;
    }
    g_checked_elements.fetch_add(checked);
}

// The fused cross-entropy's results (Ascend 950's arithmetic, the default SoC) against float64: logProb within
// 4 fp32 ulp of its magnitude (plus 16) and the dtype's rounding; each loss, the reduced loss and each gradient
// element within a relative 1e-4 of their terms' magnitude and the dtype's rounding (the tests bound them
// tighter: tests/test_cross_entropy_loss.cpp).
void VerifyClassRows(const Job& job) {
    const aclnn_cpu::OperatorDescription& op = *job.op;
    const aclDataType type = job.types[kOut];
    const int self = op.self_input, target = self + 1;
    const int weight = target + 1;  // optional, FLOAT
    const bool weighted = job.present[weight];
    const double ls = static_cast<float>(job.parameters[2]);
    const int64_t reduction = job.reduction(), C = job.columns;
    auto value = [&](int k, int64_t i) {
        return test_support::DecodeElement(job.host_in[k].data() + i * Size(job.types[k]), job.types[k]);
    };
    auto w = [&](int64_t c) { return weighted ? value(weight, c) : 1.0; };
    auto near = [type](double got, double exact, double magnitude) {
        if (std::isnan(exact)) return std::isnan(got);
        return std::fabs(got - exact) <= 1e-4 * magnitude + test_support::UlpOf(exact, type) + 1e-30;
    };
    for (int k = 0; k + 1 < op.output_count; ++k)
        if (op.more_outs[k].shape == aclnn_cpu::OutputShape::kUnwritten &&
            std::any_of(job.host_more[k].begin(), job.host_more[k].end(), [](char b) { return b != 0x7f; })) {
            Failure("a cross-entropy z-loss output was written");
            return;
        }
    long double loss_sum = 0, weight_sum = 0, magnitude_sum = 0;
    for (int64_t n = 0; n < job.rows; ++n) {
        int64_t t;
        std::memcpy(&t, job.host_in[target].data() + n * 8, 8);
        std::vector<double> lp(static_cast<size_t>(C));
        if (aclnn_cpu::IsGradient(op)) {  // the gradient of none (g[n]) or of a reduction (g, / the weights)
            for (int64_t c = 0; c < C; ++c) lp[static_cast<size_t>(c)] = value(self, n * C + c);
            long double divisor = 1;
            if (reduction == 1) {
                divisor = 0;
                for (int64_t m = 0; m < job.rows; ++m) {
                    int64_t u;
                    std::memcpy(&u, job.host_in[target].data() + m * 8, 8);
                    divisor += w(u);
                }
            }
            const long double g = value(0, reduction == 0 ? n : 0) / divisor;  // gradLoss is input 0
            long double wsum = 0;
            for (int64_t c = 0; c < C; ++c) wsum += w(c);
            const long double s = w(t) * g * (1 - ls), sm = g * ls / C;
            for (int64_t c = 0; c < C; ++c) {
                const long double e = std::exp(static_cast<long double>(lp[static_cast<size_t>(c)]));
                const long double exact = e * s - (c == t ? s : 0) + sm * (e * wsum - w(c));
                const double magnitude = static_cast<double>(std::fabs(e * s) + std::fabs(s) +
                                                             std::fabs(sm) * (e * wsum + w(c)));
                const double got = test_support::DecodeElement(job.host_out.data() + (n * C + c) * Size(type), type);
                if (!near(got, static_cast<double>(exact), magnitude)) {
                    Failure("a cross-entropy gradient differs from float64");
                    return;
                }
            }
            continue;
        }
        long double max = -INFINITY, sum = 0, smooth = 0, smooth_magnitude = 0;
        for (int64_t c = 0; c < C; ++c) max = std::max<long double>(max, value(self, n * C + c));
        for (int64_t c = 0; c < C; ++c) sum += std::exp(value(self, n * C + c) - max);
        for (int64_t c = 0; c < C; ++c) {
            const long double exact = value(self, n * C + c) - max - std::log(sum);
            const double got =
                test_support::DecodeElement(job.host_more[0].data() + (n * C + c) * Size(type), type);
            if (std::fabs(got - static_cast<double>(exact)) >
                4 * test_support::UlpOf(static_cast<double>(std::fabs(exact) + 16), ACL_FLOAT) +
                    test_support::UlpOf(static_cast<double>(exact), type)) {
                Failure("a cross-entropy logProb differs from float64");
                return;
            }
            lp[static_cast<size_t>(c)] = static_cast<double>(exact);
            smooth += w(c) * exact;
            smooth_magnitude += w(c) * std::fabs(exact);
        }
        const long double loss = (1 - ls) * -w(t) * lp[static_cast<size_t>(t)] - ls / C * smooth;
        const long double magnitude = w(t) * std::fabs(lp[static_cast<size_t>(t)]) + smooth_magnitude / C + 16;
        loss_sum += loss;
        weight_sum += w(t);
        magnitude_sum += magnitude;
        if (reduction == 0 &&
            !near(test_support::DecodeElement(job.host_out.data() + n * Size(type), type), static_cast<double>(loss),
                  static_cast<double>(magnitude))) {
            Failure("a cross-entropy loss differs from float64");
            return;
        }
    }
    if (!aclnn_cpu::IsGradient(op) && reduction != 0) {
        const long double exact = reduction == 1 ? loss_sum / weight_sum : loss_sum;
        const long double magnitude = reduction == 1 ? magnitude_sum / weight_sum : magnitude_sum;
        if (!near(test_support::DecodeElement(job.host_out.data(), type), static_cast<double>(exact),
                  static_cast<double>(magnitude)))
            Failure("a reduced cross-entropy loss differs from float64");
    }
    g_checked_elements.fetch_add(job.rows * C);
}

// Checks a finished job's result (every element up to 4096, else 4096 random ones).
void Verify(const Job& job, std::mt19937_64& rng) {
    if (!job.mirror.empty() && job.mirror != job.host_out) Failure("a copy ordered after an event saw another out");
    if (job.op->iteration == aclnn_cpu::Iteration::kClassIndex) {
        VerifyClassIndex(job);
        return;
    }
    if (job.op->iteration == aclnn_cpu::Iteration::kClassRows) {
        VerifyClassRows(job);
        return;
    }
    if (job.Summed()) {
        if (!VerifySum(job, 0, 1, job.rows * job.columns, 0, false))
            Failure("a reduced loss differs from the float64 reference");
        g_checked_elements.fetch_add(1);
        return;
    }
    if (job.OverFirstDim()) {
        const int64_t checks = std::min<int64_t>(job.columns, 64);
        for (int64_t c = 0; c < checks; ++c) {
            if (!VerifySum(job, c, job.columns, job.rows, c, true)) {
                Failure("a loss summed over the first dim differs from the float64 reference");
                return;
            }
        }
        g_checked_elements.fetch_add(checks);
        return;
    }
    const test_support::RowCall call = job.Call();
    const int64_t n = job.rows * job.columns;
    const aclDataType promote = Promote(job);
    const int64_t checks = std::min<int64_t>(n, 4096);
    // An operator along a dim: every row's reference at once (the inputs cast to the dtype it computes in first).
    std::vector<test_support::ReferenceValue> along_dim;
    if (job.op->iteration == aclnn_cpu::Iteration::kAlongDim) {
        std::vector<std::vector<double>> values;
        for (int k = 0; k < job.op->input_count; ++k) {
            values.emplace_back();
            for (int64_t i = 0; i < n; ++i)
                values.back().push_back(test_support::RoundToType(InputValue(job, k, i), promote));
        }
        along_dim = test_support::AlongDimReferences(call, values, {job.rows, job.columns});
    }
    for (int64_t c = 0; c < checks; ++c) {
        const int64_t i = n <= 4096 ? c : static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
        const double got =
            test_support::DecodeElement(job.host_out.data() + i * Size(job.types[kOut]), job.types[kOut]);
        double expected = 0;
        const char* problem = test_support::CheckElement(
            along_dim.empty() ? test_support::RowElementReference(call, InputValues(job, i).data())
                              : along_dim[static_cast<size_t>(i)],
            promote, job.types[kOut], got, &expected);
        if (problem[0] != '\0') {
            std::string inputs;
            for (double v : InputValues(job, i)) inputs += " " + std::to_string(v);
            std::fprintf(stderr, "%s element %lld: got %g expected %g (%s); inputs%s\n", job.op->api_name,
                         static_cast<long long>(i), got, expected, problem, inputs.c_str());
            Failure("a result differs from the float64 reference");
            return;
        }
    }
    g_checked_elements.fetch_add(checks);
}

// Records an event after the job on its stream and makes another stream wait for it and copy the job's out.
void MirrorThroughEvent(Job& job, aclrtEvent event, aclrtStream other) {
    const size_t bytes = job.host_out.size();
    job.mirror.assign(bytes, 0);
    job.mirror_stream = other;
    if (aclrtRecordEvent(event, job.stream) != ACL_SUCCESS) Failure("aclrtRecordEvent failed");
    if (aclrtStreamWaitEvent(other, event) != ACL_SUCCESS) Failure("aclrtStreamWaitEvent failed");
    if (aclrtMemcpyAsync(job.mirror.data(), bytes, job.device[kOut], bytes, ACL_MEMCPY_DEVICE_TO_HOST, other) !=
        ACL_SUCCESS)
        Failure("aclrtMemcpyAsync of the mirror failed");
}

// Verifies and releases a stream's finished jobs, after the streams holding their mirrors caught up.
void Retire(std::vector<std::unique_ptr<Job>>& jobs, std::mt19937_64& rng) {
    for (auto& job : jobs) {
        if (!job->mirror.empty() && aclrtSynchronizeStream(job->mirror_stream) != ACL_SUCCESS)
            Failure("synchronising a mirror's stream failed");
        Verify(*job, rng);
    }
    jobs.clear();
}

// Odd workers run in a context of their own, so their NULL stream is that context's default stream; every
// worker orders some jobs across its streams with an event (one event, re-recorded).
void Worker(int id, int streams_per_thread, std::chrono::steady_clock::time_point deadline) {
    std::mt19937_64 rng(1234 + id);
    aclrtContext context = nullptr;
    if (id % 2 == 1 && aclrtCreateContext(&context, 0) != ACL_SUCCESS) Failure("aclrtCreateContext failed");
    aclrtEvent event = nullptr;
    if (aclrtCreateEvent(&event) != ACL_SUCCESS) Failure("aclrtCreateEvent failed");
    std::vector<aclrtStream> streams(streams_per_thread, nullptr);
    for (auto& s : streams)
        if (aclrtCreateStream(&s) != ACL_SUCCESS) Failure("aclrtCreateStream failed");
    streams.push_back(nullptr);  // the default stream (of the context) too
    std::vector<std::vector<std::unique_ptr<Job>>> pending(streams.size());
    while (std::chrono::steady_clock::now() < deadline) {
        const size_t s = rng() % streams.size();
        if (auto job = Launch(rng, streams[s])) {
            if (rng() % 4 == 0) MirrorThroughEvent(*job, event, streams[(s + 1 + rng() % (streams.size() - 1)) %
                                                                       streams.size()]);
            pending[s].push_back(std::move(job));
        }
        // Random synchronisation points: a stream, the device, or none yet.
        const int choice = static_cast<int>(rng() % 8);
        if (choice == 0 || pending[s].size() > 6) {
            if (aclrtSynchronizeStream(streams[s]) != ACL_SUCCESS) Failure("aclrtSynchronizeStream failed");
            Retire(pending[s], rng);
        } else if (choice == 1 && id == 0) {
            if (aclrtSynchronizeDevice() != ACL_SUCCESS) Failure("aclrtSynchronizeDevice failed");
        }
    }
    // Destroy the streams with work still queued: destruction waits for it, then the results must be right.
    // Mirrors may sit on any stream, so every stream finishes before any job is checked.
    for (size_t s = 0; s < streams.size(); ++s) {
        if (aclrtSynchronizeStream(streams[s]) != ACL_SUCCESS) Failure("aclrtSynchronizeStream failed");
    }
    for (size_t s = 0; s < streams.size(); ++s) {
        for (auto& job : pending[s]) Verify(*job, rng);
        pending[s].clear();
        if (streams[s] != nullptr && aclrtDestroyStream(streams[s]) != ACL_SUCCESS) Failure("aclrtDestroyStream failed");
    }
    if (aclrtDestroyEvent(event) != ACL_SUCCESS) Failure("aclrtDestroyEvent failed");
    if (context != nullptr && aclrtDestroyContext(context) != ACL_SUCCESS) Failure("aclrtDestroyContext failed");
}

double ArgOr(int argc, char** argv, const char* name, double fallback) {
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], name) == 0) return std::atof(argv[i + 1]);
    return fallback;
}

}  // namespace

int main(int argc, char** argv) {
    const double seconds = ArgOr(argc, argv, "--seconds", 10);
    const int threads = static_cast<int>(ArgOr(argc, argv, "--threads", 6));
    const int streams_per_thread = static_cast<int>(ArgOr(argc, argv, "--streams-per-thread", 3));
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) workers.emplace_back(Worker, t, streams_per_thread, deadline);
    for (auto& w : workers) w.join();

    // aclFinalize with work still queued on the default stream and on a user stream.
    std::mt19937_64 rng(99);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    std::vector<std::unique_ptr<Job>> last;
    for (int i = 0; i < 8; ++i) last.push_back(Launch(rng, i % 2 ? stream : nullptr));
    if (aclFinalize() != ACL_SUCCESS) Failure("aclFinalize failed");
    for (auto& job : last)
        if (job) Verify(*job, rng);
    last.clear();
    aclrtDestroyStream(stream);

    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    std::printf("stress_operators: %d threads x %d streams (+ the default stream), %.0f s: %lld operator calls, "
                "%lld elements verified, %lld failures; peak RSS %.1f MiB\n",
                threads, streams_per_thread, seconds, static_cast<long long>(g_operations.load()),
                static_cast<long long>(g_checked_elements.load()), static_cast<long long>(g_failures.load()),
                usage.ru_maxrss / 1024.0);
    return g_failures.load() == 0 ? 0 : 1;
}
