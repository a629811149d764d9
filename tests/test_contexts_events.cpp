// Contexts, events, synchronisation with a timeout, and the system queries (SoC name, capabilities, memory,
// pointer attributes, versions): happy paths, every error status with its message, and the orderings events
// promise. "Busy" work is an aclnnSoftMarginLoss over 24M elements, enqueued four times natively (tens of
// milliseconds even on a fast core): the tests only rely on it still running when the host looks a moment
// after enqueuing it -- a moment that a loaded machine can stretch to milliseconds.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_soft_margin_loss.h"
#include "sanitizers.h"

namespace {

void ExpectMessage(const char* part) {
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    EXPECT_NE(std::string(message).find(part), std::string::npos) << "\"" << message << "\" lacks \"" << part << "\"";
}

// Under ThreadSanitizer (operators on one thread, every access instrumented) or qemu (QEMU_CPU set, as
// scripts/run_tests_aarch64.sh does) every element costs tens of times its native time; under ASan the
// kernels stream at close to native speed.
bool SlowExecution() { return test_support::kThreadSanitizer || std::getenv("QEMU_CPU") != nullptr; }

// A large elementwise loss: its inputs, out, and a way to put it on a stream.
class BusyWork {
public:
    // 24M elements natively; 4M where execution is slow (24M took about 25 s per test under TSan, most of that
    // suite's time).
    BusyWork() : elements_(SlowExecution() ? int64_t{4} << 20 : int64_t{24} << 20) {
        for (int k = 0; k < 3; ++k) {
            EXPECT_EQ(aclrtMalloc(&blocks_[k], bytes(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
            EXPECT_EQ(aclrtMemset(blocks_[k], bytes(), k == 2 ? 0xff : 0, bytes()), ACL_SUCCESS);  // out: NaN
            tensors_[k] = aclCreateTensor(&elements_, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, &elements_, 1,
                                          blocks_[k]);
        }
    }
    ~BusyWork() {
        for (int k = 0; k < 3; ++k) {
            aclDestroyTensor(tensors_[k]);
            aclrtFree(blocks_[k]);
        }
    }
    // Enqueues the loss on stream (x = y = 0 everywhere, so every element of out becomes log 2): four passes
    // natively, where one takes a few milliseconds on a fast core and one descheduling of the host thread on
    // a busy machine can outlast it; one pass where execution is slow, which takes longer than those four.
    void Launch(aclrtStream stream) {
        const int passes = SlowExecution() ? 1 : 4;
        for (int pass = 0; pass < passes; ++pass) {
            uint64_t workspace_size = 0;
            aclOpExecutor* executor = nullptr;
            ASSERT_EQ(aclnnSoftMarginLossGetWorkspaceSize(tensors_[0], tensors_[1], 0, tensors_[2],
                                                          &workspace_size, &executor), 0);
            ASSERT_EQ(aclnnSoftMarginLoss(nullptr, 0, executor, stream), 0);
        }
    }
    // The last element of out, read now (a copy that does not wait for any stream).
    float LastResult() const {
        float value = 0;
        aclrtMemcpy(&value, sizeof value, static_cast<char*>(blocks_[2]) + bytes() - 4, 4, ACL_MEMCPY_DEVICE_TO_HOST);
        return value;
    }
    void* out() const { return blocks_[2]; }
    int64_t elements() const { return elements_; }
    size_t bytes() const { return static_cast<size_t>(elements_) * sizeof(float); }

private:
    int64_t elements_;
    void* blocks_[3] = {};
    aclTensor* tensors_[3] = {};
};

constexpr float kLog2 = 0.693147182f;

// ---- contexts ---------------------------------------------------------------------------------------------

TEST(Contexts, CreateMakesCurrentAndDestroyUnbinds) {
    aclrtContext initial = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&initial), ACL_SUCCESS);
    ASSERT_NE(initial, nullptr) << "a thread without an explicit context has the device's default one";
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
    aclrtContext current = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS);
    EXPECT_EQ(current, context);
    ASSERT_EQ(aclrtSetCurrentContext(initial), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS);
    EXPECT_EQ(current, initial);
    ASSERT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS);
    EXPECT_EQ(current, initial) << "destroying the current context unbinds it";
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << "NULL is the default context's stream again";
}

TEST(Contexts, CurrentContextIsPerThread) {
    aclrtContext main_context = nullptr, other = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&main_context), ACL_SUCCESS);
    aclrtContext seen_in_thread = nullptr;
    std::thread thread([&] {
        ASSERT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);
        ASSERT_EQ(aclrtGetCurrentContext(&seen_in_thread), ACL_SUCCESS);
    });
    thread.join();
    EXPECT_EQ(seen_in_thread, other);
    aclrtContext current = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS);
    EXPECT_EQ(current, main_context) << "another thread's aclrtCreateContext does not change this thread's";
    EXPECT_EQ(aclrtDestroyContext(other), ACL_SUCCESS) << "any thread may destroy a context";
}

// NULL means the current context's default stream: work on one context's NULL stream does not hold up
// another's, and destroying the context waits for its work.
TEST(Contexts, NullStreamIsTheContextsDefaultStream) {
    BusyWork work;
    aclrtContext device_default = nullptr, context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&device_default), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
    work.Launch(nullptr);  // on the new context's default stream
    ASSERT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, 0), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_EQ(aclrtSetCurrentContext(device_default), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, 0), ACL_SUCCESS) << "the device's default stream is idle";
    ASSERT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
    EXPECT_EQ(work.LastResult(), kLog2) << "aclrtDestroyContext waits for the work on its default stream";
}

TEST(Contexts, Errors) {
    aclrtContext context = nullptr;
    EXPECT_EQ(aclrtCreateContext(nullptr, 0), ACL_ERROR_INVALID_PARAM);
    ExpectMessage("aclrtCreateContext");
    EXPECT_EQ(std::string(aclGetRecentErrMsg()).rfind("EE1001: aclrtCreateContext: ", 0), 0u)
        << "CANN's shape: the runtime's invalid-argument code, the API, the argument";
    EXPECT_EQ(aclrtCreateContext(&context, 1), ACL_ERROR_RT_INVALID_DEVICEID);
    ExpectMessage("deviceId 1");
    EXPECT_EQ(aclrtGetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM);
    int made_up = 0;
    EXPECT_EQ(aclrtSetCurrentContext(&made_up), ACL_ERROR_RT_PARAM_INVALID);
    ExpectMessage("not a live context");
    EXPECT_EQ(aclrtDestroyContext(nullptr), ACL_ERROR_INVALID_PARAM);
    aclrtContext device_default = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&device_default), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(device_default), ACL_ERROR_RT_PARAM_INVALID);
    ExpectMessage("default context");
    ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetCurrentContext(device_default), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(context), ACL_ERROR_RT_PARAM_INVALID);
    ExpectMessage("not a live context");
    // A thread whose current context another thread destroyed gets a status for NULL, not a crash.
    aclrtContext doomed = nullptr;
    std::atomic<int> step{0};
    aclError synced = ACL_SUCCESS;
    std::thread thread([&] {
        aclrtCreateContext(&doomed, 0);
        step = 1;
        while (step != 2) std::this_thread::yield();
        synced = aclrtSynchronizeStream(nullptr);
    });
    while (step != 1) std::this_thread::yield();
    ASSERT_EQ(aclrtDestroyContext(doomed), ACL_SUCCESS);
    step = 2;
    thread.join();
    EXPECT_EQ(synced, ACL_ERROR_RT_CONTEXT_NULL);
}

// ---- synchronisation with a timeout -----------------------------------------------------------------------

TEST(SynchronizeWithTimeout, TimesOutThenTheWorkStillCompletes) {
    BusyWork work;
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    work.Launch(stream);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 0), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ExpectMessage("did not finish within 0 ms");
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 1), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, -1), ACL_SUCCESS);
    EXPECT_EQ(work.LastResult(), kLog2);
    work.Launch(stream);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 600000), ACL_SUCCESS) << "a generous limit waits";
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 0), ACL_SUCCESS) << "an idle stream is synchronised at once";
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, -2), ACL_ERROR_INVALID_PARAM);
    ExpectMessage("timeout is -2");
    int made_up = 0;
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(&made_up, 0), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

// ---- events -----------------------------------------------------------------------------------------------

// The standard way to order two streams: the second waits for an event recorded on the first, without the
// host waiting. The copy on the second stream must see the first stream's finished result.
TEST(Events, StreamWaitEventOrdersTwoStreams) {
    BusyWork work;
    aclrtStream first = nullptr, second = nullptr;
    ASSERT_EQ(aclrtCreateStream(&first), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&second), ACL_SUCCESS);
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    void* copy = nullptr;
    ASSERT_EQ(aclrtMalloc(&copy, work.bytes(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    work.Launch(first);
    ASSERT_EQ(aclrtRecordEvent(event, first), ACL_SUCCESS);
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    ASSERT_EQ(aclrtQueryEventStatus(event, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_NOT_READY) << "the record waits behind the busy work";
    ASSERT_EQ(aclrtStreamWaitEvent(second, event), ACL_SUCCESS);  // returns at once
    ASSERT_EQ(aclrtMemcpyAsync(copy, work.bytes(), work.out(), work.bytes(), ACL_MEMCPY_DEVICE_TO_DEVICE,
                               second), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(second), ACL_SUCCESS);
    ASSERT_EQ(aclrtQueryEventStatus(event, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    std::vector<float> copied(work.elements());
    ASSERT_EQ(aclrtMemcpy(copied.data(), work.bytes(), copy, work.bytes(), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    int64_t wrong = 0;
    for (float v : copied) wrong += v != kLog2;
    EXPECT_EQ(wrong, 0) << "the second stream copied before the first finished";
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(copy), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(first), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(second), ACL_SUCCESS);
}

TEST(Events, SynchronizeEventBlocksTheHostUntilTheRecord) {
    BusyWork work;
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    ASSERT_EQ(aclrtQueryEventStatus(event, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE) << "a never-recorded event has nothing pending";
    EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS) << "nor anything to wait for";
    work.Launch(stream);
    ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
    EXPECT_EQ(work.LastResult(), kLog2);
    ASSERT_EQ(aclrtQueryEventStatus(event, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(Events, ElapsedTimeBetweenTwoRecords) {
    BusyWork work;
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtEvent start = nullptr, end = nullptr, untimed = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&start), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEventWithFlag(&untimed, ACL_EVENT_SYNC), ACL_SUCCESS);
    float ms = -1;
    EXPECT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    ExpectMessage("no completed record");
    ASSERT_EQ(aclrtRecordEvent(start, stream), ACL_SUCCESS);
    work.Launch(stream);
    ASSERT_EQ(aclrtRecordEvent(end, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(untimed, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_SUCCESS);
    EXPECT_GT(ms, 0.0f) << "the busy work ran between the two records";
    EXPECT_LT(ms, 600000.0f);
    EXPECT_EQ(aclrtEventElapsedTime(&ms, end, start), ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL);
    EXPECT_EQ(aclrtEventElapsedTime(&ms, start, untimed), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    ExpectMessage("ACL_EVENT_TIME_LINE");
    // Reset: the event no longer holds a time.
    ASSERT_EQ(aclrtResetEvent(end, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    // Re-recording moves the time forward.
    ASSERT_EQ(aclrtRecordEvent(end, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeEvent(end), ACL_SUCCESS);
    EXPECT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_SUCCESS);
    for (aclrtEvent e : {start, end, untimed}) EXPECT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

// A wait captures the record current when it is made: re-recording the event on an idle stream (which
// completes at once) must not release a wait for an earlier record still pending on a busy stream. (The stress
// program found a version that did.)
TEST(Events, ReRecordingOnAnotherStreamDoesNotReleaseAnEarlierWait) {
    BusyWork work;
    aclrtStream busy = nullptr, idle = nullptr, waiting = nullptr;
    for (aclrtStream* s : {&busy, &idle, &waiting}) ASSERT_EQ(aclrtCreateStream(s), ACL_SUCCESS);
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    work.Launch(busy);
    ASSERT_EQ(aclrtRecordEvent(event, busy), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(waiting, event), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, idle), ACL_SUCCESS);  // completes at once
    ASSERT_EQ(aclrtSynchronizeStream(idle), ACL_SUCCESS);
    float seen = 0;
    ASSERT_EQ(aclrtMemcpyAsync(&seen, sizeof seen, static_cast<char*>(work.out()) + work.bytes() - 4, 4,
                               ACL_MEMCPY_DEVICE_TO_HOST, waiting), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(waiting), ACL_SUCCESS);
    EXPECT_EQ(seen, kLog2) << "the wait was released by the later record";
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    for (aclrtStream s : {busy, idle, waiting}) EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
}

// CANN asks users to let waits finish before destroying the event; here destroying early is safe: the queued
// record and wait complete as recorded.
TEST(Events, DestroyWithAWaitPendingIsSafe) {
    BusyWork work;
    aclrtStream first = nullptr, second = nullptr;
    ASSERT_EQ(aclrtCreateStream(&first), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&second), ACL_SUCCESS);
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    work.Launch(first);
    ASSERT_EQ(aclrtRecordEvent(event, first), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(second, event), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(second), ACL_SUCCESS);
    EXPECT_EQ(work.LastResult(), kLog2) << "the wait still waited for the record";
    EXPECT_EQ(aclrtDestroyStream(first), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(second), ACL_SUCCESS);
}

// Events work across contexts (all contexts are on device 0): a stream of one context waits for an event
// recorded on another's.
TEST(Events, AcrossContexts) {
    BusyWork work;
    aclrtContext device_default = nullptr, other = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&device_default), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    work.Launch(nullptr);  // the other context's default stream
    ASSERT_EQ(aclrtRecordEvent(event, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetCurrentContext(device_default), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(nullptr, event), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(work.LastResult(), kLog2);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(other), ACL_SUCCESS);
}

TEST(Events, Errors) {
    int made_up = 0;
    aclrtEvent event = nullptr;
    EXPECT_EQ(aclrtCreateEvent(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtCreateEventWithFlag(&event, 0x80000000U), ACL_ERROR_INVALID_PARAM);
    ExpectMessage("flag");
    EXPECT_EQ(aclrtDestroyEvent(&made_up), ACL_ERROR_RT_PARAM_INVALID);
    ExpectMessage("not a live event");
    EXPECT_EQ(aclrtRecordEvent(&made_up, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(aclrtStreamWaitEvent(nullptr, &made_up), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(aclrtSynchronizeEvent(&made_up), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(aclrtResetEvent(&made_up, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    aclrtEventRecordedStatus status;
    EXPECT_EQ(aclrtQueryEventStatus(&made_up, &status), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    EXPECT_EQ(aclrtQueryEventStatus(event, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtRecordEvent(event, &made_up), ACL_ERROR_INVALID_PARAM) << "not a live stream";
    ExpectMessage("not a live stream");
    float ms = 0;
    EXPECT_EQ(aclrtEventElapsedTime(nullptr, event, event), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtEventElapsedTime(&ms, event, &made_up), ACL_ERROR_RT_PARAM_INVALID);
    ExpectMessage("endEvent");
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_ERROR_RT_PARAM_INVALID);
}

// Many threads record, wait for, query and synchronise shared events on their own streams (ThreadSanitizer
// runs this in the tsan preset).
TEST(Events, ConcurrentUse) {
    aclrtEvent shared[2] = {nullptr, nullptr};
    for (auto& e : shared) ASSERT_EQ(aclrtCreateEvent(&e), ACL_SUCCESS);
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            aclrtStream stream = nullptr;
            if (aclrtCreateStream(&stream) != ACL_SUCCESS) ++failures;
            for (int i = 0; i < 200; ++i) {
                aclrtEvent e = shared[(t + i) % 2];
                aclrtEventRecordedStatus status;
                if (aclrtRecordEvent(e, stream) != ACL_SUCCESS) ++failures;
                if (aclrtStreamWaitEvent(stream, shared[(t + i + 1) % 2]) != ACL_SUCCESS) ++failures;
                if (aclrtQueryEventStatus(e, &status) != ACL_SUCCESS) ++failures;
                if (i % 16 == 0 && aclrtSynchronizeEvent(e) != ACL_SUCCESS) ++failures;
            }
            if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) ++failures;
            if (aclrtDestroyStream(stream) != ACL_SUCCESS) ++failures;
        });
    }
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(failures.load(), 0);
    for (auto& e : shared) EXPECT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
}

// ---- system queries ---------------------------------------------------------------------------------------

TEST(System, SocNameAndCapabilities) {
    ASSERT_NE(aclrtGetSocName(), nullptr);
    EXPECT_STREQ(aclrtGetSocName(), "Ascend950PR_9599");
    int64_t value = -1;
    ASSERT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &value), ACL_SUCCESS);
    EXPECT_EQ(value, sysconf(_SC_NPROCESSORS_ONLN));
    ASSERT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &value), ACL_SUCCESS);
    EXPECT_EQ(value, 0);
    ASSERT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, &value), ACL_SUCCESS);
    EXPECT_GE(value, 0);
    EXPECT_EQ(aclGetDeviceCapability(1, ACL_DEVICE_INFO_AI_CORE_NUM, &value), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_UNDEFINED, &value), ACL_ERROR_INVALID_PARAM);
    ExpectMessage("deviceInfo -1");
    EXPECT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST(System, MemInfoIsTheHosts) {
    size_t free = 0, total = 0;
    ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total), ACL_SUCCESS);
    const double physical = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
    EXPECT_NEAR(static_cast<double>(total), physical, physical * 0.05);
    EXPECT_GT(free, 0u);
    EXPECT_LE(free, total);
    ASSERT_EQ(aclrtGetMemInfo(ACL_DDR_MEM, &free, &total), ACL_SUCCESS);
    EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, nullptr, &total), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtGetMemInfo(static_cast<aclrtMemAttr>(99), &free, &total), ACL_ERROR_INVALID_PARAM);
    ExpectMessage("attr 99");
}

TEST(System, PointerAttributes) {
    void* device = nullptr;
    void* host = nullptr;
    ASSERT_EQ(aclrtMalloc(&device, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMallocHost(&host, 4096), ACL_SUCCESS);
    int local = 0;
    aclrtPtrAttributes attributes;
    ASSERT_EQ(aclrtPointerGetAttributes(device, &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    EXPECT_EQ(attributes.location.id, 0u);
    EXPECT_GT(attributes.pageSize, 0u);
    ASSERT_EQ(aclrtPointerGetAttributes(static_cast<char*>(device) + 100, &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_DEVICE) << "inside the block counts";
    ASSERT_EQ(aclrtPointerGetAttributes(host, &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_HOST);
    ASSERT_EQ(aclrtPointerGetAttributes(&local, &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
    ASSERT_EQ(aclrtFree(device), ACL_SUCCESS);
    ASSERT_EQ(aclrtPointerGetAttributes(device, &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED) << "a freed block is no longer known";
    EXPECT_EQ(aclrtPointerGetAttributes(host, nullptr), ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
}

TEST(System, Versions) {
    int32_t major = -1, minor = -1, patch = -1;
    ASSERT_EQ(aclrtGetVersion(&major, &minor, &patch), ACL_SUCCESS);
    EXPECT_EQ(major, ACL_MAJOR_VERSION);
    EXPECT_EQ(minor, ACL_MINOR_VERSION);
    EXPECT_EQ(patch, ACL_PATCH_VERSION);
    EXPECT_EQ(major * 100 + minor, 117) << "the CANN API version these headers follow";
    char name[] = "runtime";
    char version[ACL_PKG_VERSION_MAX_SIZE] = {};
    ASSERT_EQ(aclsysGetVersionStr(name, version), ACL_SUCCESS);
    EXPECT_STREQ(version, ACLNN_CPU_TEST_VERSION);
    EXPECT_EQ(aclsysGetVersionStr(nullptr, version), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclsysGetVersionStr(name, nullptr), ACL_ERROR_INVALID_PARAM);
}

}  // namespace
