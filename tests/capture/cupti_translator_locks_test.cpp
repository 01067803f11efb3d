// SPDX-License-Identifier: MIT
// The translator's locks and lanes on real CUPTI 13.0 records, core-free (also built under
// ThreadSanitizer): a memset callback on a program thread links its driver call while a buffer walk
// is under way, without waiting for the walk; the link still reaches the memset; process-level
// overhead records go to the process's lane, not to an undefined thread.

#include "capture/cupti/cupti_translator.h"
#include "tests/capture/activity_buffer.h"
#include "tests/capture/recording_sink.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

namespace gapscope::capture {
namespace {

using test::ActivityBuffer;

TEST(CuptiTranslatorLocksTest, AMemsetCallbackLinksItsDriverCallWithoutWaitingForABufferWalk)
{
    test::RecordingSink sink;
    CuptiTranslator translator(sink);
    ActivityBuffer b;
    auto& kernel = b.add<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    kernel.start = 100;
    kernel.end = 200;
    kernel.streamId = 7;
    kernel.correlationId = 1;
    kernel.name = "_Z1kv";
    auto& memset = b.add<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
    memset.start = 300;
    memset.end = 400;
    memset.bytes = 64;
    memset.streamId = 7;
    memset.correlationId = 41; // the cuMemsetD8Async underneath
    memset.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;

    // While the walk translates the kernel, a program thread enters cudaMemsetAsync (runtime call
    // 40) and its cuMemsetD8Async (driver call 41): the link must not wait for the walk.
    std::mutex mutex;
    std::condition_variable linked;
    bool done = false;
    bool linkedDuringWalk = false;
    std::thread program;
    sink.onEvent = [&](const native::EventRecord& e) {
        if (e.correlation != 1)
            return;
        program = std::thread([&] {
            translator.linkDriverCall(41, 40);
            std::lock_guard lock(mutex);
            done = true;
            linked.notify_all();
        });
        std::unique_lock lock(mutex);
        // Not a timing test: 10 s is a deadlock guard; the link takes microseconds.
        linkedDuringWalk = linked.wait_for(lock, std::chrono::seconds(10), [&] { return done; });
    };
    const auto result = translator.translateBuffer(b.data(), b.size());
    program.join();
    EXPECT_TRUE(linkedDuringWalk) << "linkDriverCall waited for the whole buffer walk";
    EXPECT_EQ(result.records, 2u);
    const auto events = sink.events();
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[1].code, static_cast<std::uint8_t>(native::EventCode::Memset));
    EXPECT_EQ(events[1].correlation, 40u); // the runtime call, linked during the walk
}

TEST(CuptiTranslatorLocksTest, ProcessLevelOverheadGoesToTheProcessLane)
{
    test::RecordingSink sink;
    CuptiTranslator translator(sink);
    ActivityBuffer b;
    auto& program = b.add<CUpti_ActivityOverhead3>(CUPTI_ACTIVITY_KIND_OVERHEAD);
    program.overheadKind = CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER;
    program.objectKind = CUPTI_ACTIVITY_OBJECT_PROCESS;
    program.objectId.pt.processId = 4321;
    program.objectId.pt.threadId = 0xdeadbeef; // undefined for a process object
    program.start = 100;
    program.end = 900;
    auto& cupti = b.add<CUpti_ActivityOverhead3>(CUPTI_ACTIVITY_KIND_OVERHEAD);
    cupti.overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE;
    cupti.objectKind = CUPTI_ACTIVITY_OBJECT_PROCESS;
    cupti.objectId.pt.processId = 4321;
    cupti.objectId.pt.threadId = 0xdeadbeef;
    cupti.start = 1000;
    cupti.end = 1100;
    translator.translateBuffer(b.data(), b.size());
    const auto events = sink.events();
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0].lane, 4321); // the process's lane: its main thread's tid is its pid
    EXPECT_EQ(events[0].code, static_cast<std::uint8_t>(native::EventCode::Other));
    EXPECT_EQ(sink.text(events[0].name), "Driver compiler");
    EXPECT_EQ(events[1].lane, native::kCollectorLane);
    EXPECT_EQ(sink.text(events[1].args), "{\"process\":4321}");
}

} // namespace
} // namespace gapscope::capture
