// Stress program: many threads, each driving several streams (and its default stream: half the threads in a
// context of their own), enqueue async copies, memsets and calls of every operator of the operator table
// (ops/operator_table.h; every reduction) of random sizes and dtypes with random synchronisation points, and
// verify every result against the float64 reference (all elements of small results, a sample of large ones);
// some results are also copied on another stream ordered after the operator by an event, and must match. Then
// it destroys streams and calls aclFinalize with work still queued, and checks that the queued work completed.
// Prints what it did and the peak resident set size. Exit status 0 only when every check passed.
//
//   stress_operators [--seconds S] [--threads T] [--streams-per-thread K]
#include <sys/resource.h>

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

// One operator call's buffers: host sources and results, device blocks, tensors (gradOutput, self, target,
// out; an operator of two inputs has no gradOutput). Everything it touches stays alive until the job has
// been verified, after a sync of its stream.
struct Job {
    int64_t rows = 0, columns = 0;
    aclDataType types[4];
    int64_t reduction = 0;
    const aclnn_cpu::OperatorDescription* op = nullptr;  // a row of the operator table
    bool scalar_grad = false;
    std::vector<char> host_in[3];
    std::vector<char> host_out;
    // A second copy of out, made on another stream that waited for an event recorded after the operator: it
    // must equal host_out (the event ordered the streams). Empty when the job has none.
    std::vector<char> mirror;
    aclrtStream mirror_stream = nullptr;
    void* device[4] = {nullptr, nullptr, nullptr, nullptr};
    aclTensor* tensors[4] = {nullptr, nullptr, nullptr, nullptr};
    aclrtStream stream = nullptr;

    ~Job() {
        for (aclTensor* t : tensors) aclDestroyTensor(t);
        for (void* d : device)
            if (d != nullptr) aclrtFree(d);
    }

    // The operator's inputs are tensors FirstInput()..2 (an operator of two inputs has no gradOutput).
    int FirstInput() const { return aclnn_cpu::kMaxOperatorInputs - op->input_count; }
    bool Summed() const { return op->reduction_gives_scalar && reduction != 0; }
    bool Scalar(int k) const { return k == 0 ? scalar_grad : k == 3 && Summed(); }
    int64_t Elements(int k) const { return Scalar(k) ? 1 : rows * columns; }
};

// Prepares a job and enqueues: H2D copies of the inputs, a memset of out, the operator, a D2H copy of out.
std::unique_ptr<Job> Launch(std::mt19937_64& rng, aclrtStream stream) {
    auto job = std::make_unique<Job>();
    job->stream = stream;
    const int64_t magnitude = std::uniform_int_distribution<int64_t>(0, 17)(rng);
    const int64_t n = std::max<int64_t>(1, (int64_t{1} << magnitude) + static_cast<int64_t>(rng() % 97));
    job->columns = std::max<int64_t>(1, std::min<int64_t>(n, 1 + static_cast<int64_t>(rng() % 300)));
    job->rows = std::max<int64_t>(1, n / job->columns);
    for (auto& t : job->types) t = kTypes[rng() % 3];
    job->op = &aclnn_cpu::kOperators[rng() % aclnn_cpu::kOperatorCount];
    // 3 is a sum too, for an operator that reduces (CANN: any value but 0 and 1)
    job->reduction = static_cast<int64_t>(rng() % (job->op->reduction_gives_scalar ? 4 : 3));
    job->scalar_grad = job->FirstInput() == 0 && rng() % 4 == 0;
    std::uniform_real_distribution<double> values(-8.0, 8.0);
    for (int k = job->FirstInput(); k < 4; ++k) {
        const int64_t bytes = job->Elements(k) * Size(job->types[k]);
        if (aclrtMalloc(&job->device[k], static_cast<size_t>(bytes), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
            Failure("aclrtMalloc failed");
            return nullptr;
        }
        std::vector<int64_t> dims = job->Scalar(k) ? std::vector<int64_t>{}
                                                   : std::vector<int64_t>{job->rows, job->columns};
        job->tensors[k] = aclCreateTensor(dims.data(), dims.size(), job->types[k], nullptr, 0, ACL_FORMAT_ND,
                                          dims.data(), dims.size(), job->device[k]);
        if (k == 3) {
            job->host_out.assign(static_cast<size_t>(bytes), 0);
            break;
        }
        job->host_in[k].resize(static_cast<size_t>(bytes));
        for (int64_t i = 0; i < job->Elements(k); ++i) {
            test_support::EncodeElement(test_support::RoundToType(values(rng), job->types[k]), job->types[k],
                                        job->host_in[k].data() + i * Size(job->types[k]));
        }
        if (aclrtMemcpyAsync(job->device[k], static_cast<size_t>(bytes), job->host_in[k].data(),
                             static_cast<size_t>(bytes), ACL_MEMCPY_HOST_TO_DEVICE, stream) != ACL_SUCCESS)
            Failure("aclrtMemcpyAsync H2D failed");
    }
    const size_t out_bytes = job->host_out.size();
    if (aclrtMemsetAsync(job->device[3], out_bytes, 0x7f, out_bytes, stream) != ACL_SUCCESS)
        Failure("aclrtMemsetAsync failed");
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    const bool called = job->op->get_workspace_size(job->tensors + job->FirstInput(), job->reduction,
                                                    job->tensors[3], &workspace_size, &executor) == 0 &&
                        workspace_size == 0 && job->op->run(nullptr, 0, executor, stream) == 0;
    if (!called) {
        Failure("operator call failed");
        return nullptr;
    }
    if (aclrtMemcpyAsync(job->host_out.data(), out_bytes, job->device[3], out_bytes, ACL_MEMCPY_DEVICE_TO_HOST,
                         stream) != ACL_SUCCESS)
        Failure("aclrtMemcpyAsync D2H failed");
    g_operations.fetch_add(1);
    return job;
}

double InputValue(const Job& job, int k, int64_t i) {
    const int64_t at = job.Scalar(k) ? 0 : i;
    return test_support::DecodeElement(job.host_in[k].data() + at * Size(job.types[k]), job.types[k]);
}

// The inputs of element i, in the operator's order.
std::array<double, aclnn_cpu::kMaxOperatorInputs> InputValues(const Job& job, int64_t i) {
    std::array<double, aclnn_cpu::kMaxOperatorInputs> values{};
    for (int k = job.FirstInput(); k < aclnn_cpu::kMaxOperatorInputs; ++k)
        values[k - job.FirstInput()] = InputValue(job, k, i);
    return values;
}

// A mean or sum against the reference sum of every element's value.
void VerifyReducedLoss(const Job& job) {
    const int64_t n = job.rows * job.columns;
    test_support::AccurateSummer sum;
    for (int64_t i = 0; i < n; ++i)
        sum.Add(test_support::OperatorElementReference(job.op->name, InputValues(job, i).data(), 1.0).value);
    const double got = test_support::DecodeElement(job.host_out.data(), job.types[3]);
    double expected = 0;
    const char* problem = test_support::CheckReducedLoss(
        sum.Total(), n, job.reduction == 1, test_support::PromoteTypes(job.types[1], job.types[2]), job.types[3], got,
        &expected);
    if (problem[0] != '\0') {
        Failure("a reduced loss differs from the float64 reference");
        return;
    }
    g_checked_elements.fetch_add(1);
}

// Checks a finished job's result (every element up to 4096, else 4096 random ones).
void Verify(const Job& job, std::mt19937_64& rng) {
    if (!job.mirror.empty() && job.mirror != job.host_out) Failure("a copy ordered after an event saw another out");
    if (job.Summed()) {
        VerifyReducedLoss(job);
        return;
    }
    const int64_t n = job.rows * job.columns;
    const double cof = job.reduction == 1 ? 1.0 / static_cast<double>(n) : 1.0;
    aclDataType promote = test_support::PromoteTypes(job.types[1], job.types[2]);
    for (int k = job.FirstInput(); k < 1; ++k) promote = test_support::PromoteTypes(job.types[k], promote);
    const int64_t checks = std::min<int64_t>(n, 4096);
    for (int64_t c = 0; c < checks; ++c) {
        const int64_t i = n <= 4096 ? c : static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
        const double got = test_support::DecodeElement(job.host_out.data() + i * Size(job.types[3]), job.types[3]);
        double expected = 0;
        const test_support::ReferenceValue reference =
            test_support::OperatorElementReference(job.op->name, InputValues(job, i).data(), cof);
        const char* problem = test_support::CheckElement(reference, promote, job.types[3], got, &expected);
        if (problem[0] != '\0') {
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
    if (aclrtMemcpyAsync(job.mirror.data(), bytes, job.device[3], bytes, ACL_MEMCPY_DEVICE_TO_HOST, other) !=
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
