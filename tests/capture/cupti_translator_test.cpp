// SPDX-License-Identifier: MIT
// CUPTI record translation on real CUPTI 13.0 structs: records of every recorded kind are built by
// hand in an 8-byte aligned buffer, walked with cuptiActivityGetNextRecord (which works without a
// GPU), written by the collector's writer and read back into the model.

#include "capture/cupti/cupti_translator.h"
#include "core/io/native/native_trace_reader.h"

#include "tests/capture/activity_buffer.h"
#include "tests/temp_dir.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include <unistd.h>

namespace gapscope::capture {
namespace {

constexpr std::uint32_t kThread = 31337;

using test::ActivityBuffer;

CUpti_ActivityAPI& addApi(ActivityBuffer& buffer, CUpti_ActivityKind kind, CUpti_CallbackId cbid, std::uint64_t start,
    std::uint64_t end, std::uint32_t correlation)
{
    auto& api = buffer.add<CUpti_ActivityAPI>(kind);
    api.cbid = cbid;
    api.start = start;
    api.end = end;
    api.processId = 1;
    api.threadId = kThread;
    api.correlationId = correlation;
    return api;
}

/// One record of every kind the collector records, plus the metadata kinds.
void fillEveryKind(ActivityBuffer& b)
{
    auto& device = b.add<CUpti_ActivityDevice5>(CUPTI_ACTIVITY_KIND_DEVICE);
    device.id = 1;
    device.name = strdup("NVIDIA H200"); // CUPTI's allocation, which the translator frees
    device.computeCapabilityMajor = 9;
    device.numMultiprocessors = 132;
    device.globalMemorySize = 141ull << 30;
    auto& context = b.add<CUpti_ActivityContext3>(CUPTI_ACTIVITY_KIND_CONTEXT);
    context.contextId = 5;
    context.deviceId = 1;

    addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 1000, 1400, 11);
    addApi(b, CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 1100, 1300, 12);
    addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, 1500, 1600, 13).returnValue
        = 1; // a failed call: its return value is kept
    addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, 1700, 5200, 16);

    auto& kernel = b.add<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    kernel.start = 2000;
    kernel.end = 3000;
    kernel.deviceId = 1;
    kernel.contextId = 5;
    kernel.streamId = 7;
    kernel.correlationId = 11;
    kernel.gridX = 64;
    kernel.gridY = 2;
    kernel.gridZ = 1;
    kernel.blockX = 256;
    kernel.blockY = 1;
    kernel.blockZ = 1;
    kernel.registersPerThread = 32;
    kernel.staticSharedMemory = 1024;
    kernel.dynamicSharedMemory = 3072;
    kernel.name = "_Z5scalePfif";

    auto& memcpy = b.add<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
    memcpy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    memcpy.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
    memcpy.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    memcpy.bytes = 1 << 20;
    memcpy.start = 3100;
    memcpy.end = 3900;
    memcpy.deviceId = 1;
    memcpy.contextId = 5;
    memcpy.streamId = 7;
    memcpy.correlationId = 14; // the driver call underneath
    memcpy.runtimeCorrelationId = 13; // cudaMemcpyAsync

    auto& peer = b.add<CUpti_ActivityMemcpyPtoP4>(CUPTI_ACTIVITY_KIND_MEMCPY2);
    peer.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
    peer.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    peer.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    peer.bytes = 4096;
    peer.start = 4000;
    peer.end = 4100;
    peer.deviceId = 1;
    peer.streamId = 9;
    peer.srcDeviceId = 1;
    peer.dstDeviceId = 0;
    peer.correlationId = 15;

    auto& memset = b.add<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
    memset.bytes = 512;
    memset.start = 4200;
    memset.end = 4250;
    memset.deviceId = 1;
    memset.streamId = 7;
    memset.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;

    auto& streamSync = b.add<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
    streamSync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
    streamSync.start = 4300;
    streamSync.end = 5100;
    streamSync.correlationId = 16;
    streamSync.contextId = 5; // device 1, learnt from the CONTEXT record
    streamSync.streamId = 7;
    streamSync.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
    auto& contextSync = b.add<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
    contextSync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
    contextSync.start = 5300;
    contextSync.end = 5400;
    contextSync.contextId = 5;
    contextSync.streamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;

    auto& overhead = b.add<CUpti_ActivityOverhead3>(CUPTI_ACTIVITY_KIND_OVERHEAD);
    overhead.overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH;
    overhead.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    overhead.objectId.pt.threadId = kThread;
    overhead.start = 5500;
    overhead.end = 5600;

    // No timestamps: CUPTI could not time it. Skipped and counted, never drawn at time 0.
    auto& untimed = b.add<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    untimed.deviceId = 1;
    untimed.streamId = 7;
    untimed.correlationId = 99;
    untimed.name = "_Z6untimedv";
    // A kind the collector does not translate.
    b.add<CUpti_ActivityMarker2>(CUPTI_ACTIVITY_KIND_MARKER);
}

struct Translated {
    Trace trace;
    CuptiTranslator::BufferResult result;
    native::CountersRecord counters {};
};

Translated translate(ActivityBuffer& buffer, std::size_t validSize)
{
    gapscope::test::TempDir dir;
    NativeStreamWriter writer;
    std::string error;
    EXPECT_TRUE(writer.open(dir.file("t.gapscope"), { 1, -1, native::ClockId::CuptiTimestamp, 0 }, error)) << error;
    CuptiTranslator translator(writer);
    Translated out;
    out.result = translator.translateBuffer(buffer.data(), validSize);
    out.counters = translator.takeCounters();
    writer.addCounters(out.counters);
    writer.close(0);
    auto trace = NativeTraceReader::readFile(dir.file("t.gapscope"));
    EXPECT_TRUE(trace) << trace.error().toString();
    if (trace)
        out.trace = std::move(trace.value());
    return out;
}

std::vector<std::string> laneNames(const Trace& trace, const Lane& lane)
{
    std::vector<std::string> names;
    for (const Event& e : lane.events)
        names.emplace_back(trace.name(e));
    return names;
}

const Lane* lane(const Trace& trace, LaneKind kind, std::int64_t id, int device = -1)
{
    for (const Lane& l : trace.lanes()) {
        if (l.kind != kind)
            continue;
        if (kind == LaneKind::CpuThread && l.tid == id)
            return &l;
        if (kind == LaneKind::GpuStream && l.stream == id && trace.devices()[l.device.value].id == device)
            return &l;
    }
    return nullptr;
}

TEST(CuptiTranslatorTest, EveryRecordedKindBecomesTheRightEvent)
{
    ActivityBuffer buffer;
    fillEveryKind(buffer);
    Translated t = translate(buffer, buffer.size());
    const Trace& trace = t.trace;
    EXPECT_EQ(t.result.records, 15u);
    EXPECT_EQ(t.result.translated, 14u); // all but the marker
    EXPECT_EQ(t.result.status, CUPTI_ERROR_MAX_LIMIT_REACHED);
    EXPECT_EQ(CuptiTranslator::walkEndNote(t.result.status), "");
    EXPECT_EQ(t.counters.truncatedBytes, 0u);
    EXPECT_EQ(t.counters.skippedRecords, 1u);
    EXPECT_EQ(t.counters.unknownRecords, 1u);
    EXPECT_EQ(trace.skippedEvents(), 1u);
    EXPECT_EQ(trace.eventCount(), 11u);

    const Lane* thread = lane(trace, LaneKind::CpuThread, kThread);
    ASSERT_NE(thread, nullptr);
    ASSERT_EQ(thread->events.size(), 4u);
    EXPECT_EQ(trace.name(thread->events[0]), "cudaLaunchKernel");
    EXPECT_EQ(thread->events[0].kind, EventKind::RuntimeApi);
    EXPECT_EQ(thread->events[0].start, 1000);
    EXPECT_EQ(thread->events[0].end, 1400);
    EXPECT_EQ(trace.name(thread->events[1]), "cuLaunchKernel");
    EXPECT_EQ(thread->events[1].kind, EventKind::DriverApi);
    EXPECT_EQ(thread->events[1].depth, 1); // inside cudaLaunchKernel
    EXPECT_EQ(trace.name(thread->events[2]), "cudaMemcpyAsync");
    EXPECT_EQ(trace.argsJson(thread->events[2]), R"({"return value":1})");
    EXPECT_EQ(trace.name(thread->events[3]), "cudaStreamSynchronize");

    const Lane* stream7 = lane(trace, LaneKind::GpuStream, 7, 1);
    ASSERT_NE(stream7, nullptr);
    ASSERT_EQ(stream7->events.size(), 4u);
    const Event& kernel = stream7->events[0];
    EXPECT_EQ(kernel.kind, EventKind::Kernel);
    EXPECT_EQ(trace.name(kernel), "scale(float*, int, float)");
    EXPECT_EQ(kernel.start, 2000);
    EXPECT_EQ(kernel.end, 3000);
    EXPECT_EQ(kernel.correlation, 11u);
    EXPECT_EQ(trace.argsJson(kernel),
        R"({"grid":[64,2,1],"block":[256,1,1],"registers per thread":32,"shared memory":4096})");
    const Event& copy = stream7->events[1];
    EXPECT_EQ(copy.kind, EventKind::Memcpy);
    EXPECT_EQ(trace.name(copy), "Memcpy HtoD (Pageable -> Device)");
    EXPECT_EQ(copy.copyKind, CopyKind::HtoD);
    EXPECT_EQ(copy.bytes, 1u << 20);
    EXPECT_EQ(copy.correlation, 13u); // the runtime call's id, not the driver's
    const Event& memset = stream7->events[2];
    EXPECT_EQ(memset.kind, EventKind::Memset);
    EXPECT_EQ(trace.name(memset), "Memset (Device)");
    EXPECT_EQ(memset.bytes, 512u);
    const Event& sync = stream7->events[3];
    EXPECT_EQ(sync.kind, EventKind::Sync);
    EXPECT_EQ(trace.name(sync), "Stream Sync");
    EXPECT_EQ(sync.start, 4300);
    EXPECT_EQ(sync.correlation, 16u);

    const Lane* peerLane = lane(trace, LaneKind::GpuStream, 9, 1);
    ASSERT_NE(peerLane, nullptr);
    ASSERT_EQ(peerLane->events.size(), 1u);
    EXPECT_EQ(trace.name(peerLane->events[0]), "Memcpy PtoP (Device -> Device)");
    EXPECT_EQ(peerLane->events[0].copyKind, CopyKind::PtoP);
    EXPECT_EQ(trace.argsJson(peerLane->events[0]), R"({"src device":1,"dst device":0})");

    const Lane* contextSync = lane(trace, LaneKind::GpuStream, native::kNoStream, 1);
    ASSERT_NE(contextSync, nullptr);
    ASSERT_EQ(contextSync->events.size(), 1u);
    EXPECT_EQ(trace.name(contextSync->events[0]), "Context Sync");

    const Lane* collector = lane(trace, LaneKind::CpuThread, native::kCollectorLane);
    ASSERT_NE(collector, nullptr);
    ASSERT_EQ(collector->events.size(), 1u);
    EXPECT_EQ(collector->name, native::kCollectorLaneName);
    EXPECT_EQ(collector->events[0].kind, EventKind::Overhead);
    EXPECT_EQ(trace.name(collector->events[0]), "CUPTI buffer flush");
    EXPECT_EQ(trace.argsJson(collector->events[0]), R"({"thread":31337})");

    ASSERT_EQ(trace.devices().size(), 1u);
    EXPECT_EQ(trace.devices()[0].id, 1);
    EXPECT_EQ(trace.devices()[0].name, "NVIDIA H200");
    EXPECT_NE(trace.devices()[0].propertiesJson.find(R"("numSms":132)"), std::string::npos);
    EXPECT_NE(trace.devices()[0].propertiesJson.find(R"("computeMajor":9)"), std::string::npos);

    // Correlation ties the GPU work to the calls that launched it.
    const auto refOf = [&](const Lane* l, std::uint32_t index) {
        return EventRef { LaneIndex { static_cast<std::uint32_t>(l - trace.lanes().data()) }, index };
    };
    const auto launch = trace.launchOf(refOf(stream7, 0));
    ASSERT_TRUE(launch);
    EXPECT_EQ(trace.name(trace.event(*launch)), "cudaLaunchKernel");
    const auto copyLaunch = trace.launchOf(refOf(stream7, 1));
    ASSERT_TRUE(copyLaunch);
    EXPECT_EQ(trace.name(trace.event(*copyLaunch)), "cudaMemcpyAsync");
}

TEST(CuptiTranslatorTest, TruncatedBufferStopsBeforeTheCutRecordWithoutGuessingItsSize)
{
    ActivityBuffer buffer;
    addApi(buffer, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 10, 20, 1);
    auto& kernel = buffer.add<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    kernel.start = 30;
    kernel.end = 40;
    kernel.name = "k";
    addApi(buffer, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 50, 60, 2);
    // The buffer ends 10 bytes into the last API record (40 bytes long).
    const std::size_t valid = buffer.size() - 10;
    Translated t = translate(buffer, valid);
    EXPECT_EQ(t.result.records, 2u);
    EXPECT_EQ(t.result.translated, 2u);
    // Record sizes differ between CUPTI versions (13.1 has Kernel11): no byte count is guessed.
    EXPECT_EQ(t.result.status, CUPTI_ERROR_MAX_LIMIT_REACHED);
    EXPECT_EQ(t.counters.truncatedBytes, 0u);
    EXPECT_EQ(t.trace.eventCount(), 2u);

    // Cut inside the first record: nothing at all.
    Translated none = translate(buffer, 20);
    EXPECT_EQ(none.result.records, 0u);
    EXPECT_EQ(none.trace.eventCount(), 0u);
}

TEST(CuptiTranslatorTest, ZeroAndBackwardTimestampsAreSkippedAndCounted)
{
    ActivityBuffer buffer;
    addApi(buffer, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 0, 0, 1);
    addApi(buffer, CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 500, 400, 2);
    auto& memset = buffer.add<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
    memset.start = 0;
    memset.end = 0;
    auto& kept = buffer.add<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
    kept.start = 0; // a start of 0 with a real end is a time, not a missing one
    kept.end = 10;
    Translated t = translate(buffer, buffer.size());
    EXPECT_EQ(t.counters.skippedRecords, 3u);
    EXPECT_EQ(t.trace.skippedEvents(), 3u);
    EXPECT_EQ(t.trace.eventCount(), 1u);
}

TEST(CuptiTranslatorTest, MemsetLinksToTheRuntimeCallAroundItsDriverCall)
{
    ActivityBuffer b;
    // cudaMemsetAsync (correlation 21) made cuMemsetD8Async (22); the MEMSET record carries 22.
    addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, 100, 400, 21);
    auto& memset = b.add<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
    memset.start = 500;
    memset.end = 600;
    memset.bytes = 64;
    memset.deviceId = 0;
    memset.streamId = 3;
    memset.correlationId = 22;
    // Without the link (the driver records off, no callback seen) it keeps the driver call's id.
    auto& unlinked = b.add<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
    unlinked.start = 700;
    unlinked.end = 800;
    unlinked.streamId = 3;
    unlinked.correlationId = 30;

    gapscope::test::TempDir dir;
    NativeStreamWriter writer;
    std::string error;
    ASSERT_TRUE(writer.open(dir.file("t.gapscope"), { 1, -1, native::ClockId::CuptiTimestamp, 0 }, error)) << error;
    CuptiTranslator translator(writer);
    translator.linkDriverCall(22, 21); // what the collector's callbacks saw
    translator.translateBuffer(b.data(), b.size());
    writer.close(0);
    auto loaded = NativeTraceReader::readFile(dir.file("t.gapscope"));
    ASSERT_TRUE(loaded) << loaded.error().toString();
    const Trace& trace = loaded.value();
    const Lane* stream = lane(trace, LaneKind::GpuStream, 3, 0);
    ASSERT_NE(stream, nullptr);
    ASSERT_EQ(stream->events.size(), 2u);
    EXPECT_EQ(stream->events[0].correlation, 21u);
    EXPECT_EQ(stream->events[1].correlation, 30u);
    const auto launch
        = trace.launchOf(EventRef { LaneIndex { static_cast<std::uint32_t>(stream - trace.lanes().data()) }, 0 });
    ASSERT_TRUE(launch);
    EXPECT_EQ(trace.name(trace.event(*launch)), "cudaMemsetAsync");
}

TEST(CuptiTranslatorTest, WalkThatEndsOnAnUnknownKindBecomesACollectorNote)
{
    ActivityBuffer buffer;
    addApi(buffer, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 10, 20, 1);
    // A record of a kind this CUPTI does not know (as a newer CUPTI's might be): the walk stops there.
    buffer.add<CUpti_ActivityAPI>(static_cast<CUpti_ActivityKind>(0x7ffffff0));
    addApi(buffer, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 50, 60, 2);
    Translated t = translate(buffer, buffer.size());
    EXPECT_EQ(t.result.records, 1u);
    EXPECT_EQ(t.result.status, CUPTI_ERROR_INVALID_KIND);
    EXPECT_EQ(t.trace.eventCount(), 1u);
    const std::string note = CuptiTranslator::walkEndNote(t.result.status);
    EXPECT_EQ(note.rfind("reading a CUPTI activity buffer stopped early: CUPTI_ERROR_INVALID_KIND (21)", 0), 0u)
        << note;
}

TEST(CuptiTranslatorTest, StreamsAreKeyedByDeviceContextAndStream)
{
    ActivityBuffer b;
    // Two contexts on device 1 (two processes' worth of primary context, or a context the program
    // created): both have a stream 7.
    for (const std::uint32_t context : { 5u, 6u }) {
        auto& kernel = b.add<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        kernel.start = 100 * context;
        kernel.end = 100 * context + 50;
        kernel.deviceId = 1;
        kernel.contextId = context;
        kernel.streamId = 7;
        kernel.name = "k";
    }
    auto& sync = b.add<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
    sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
    sync.start = 700;
    sync.end = 800;
    sync.contextId = 6;
    sync.streamId = 7;
    Translated t = translate(b, b.size());
    const Trace& trace = t.trace;
    const Lane* first = lane(trace, LaneKind::GpuStream, 7, 1);
    const std::int64_t otherId = (std::int64_t(6) << 32) | 7;
    const Lane* second = lane(trace, LaneKind::GpuStream, otherId, 1);
    ASSERT_NE(first, nullptr);
    ASSERT_NE(second, nullptr);
    ASSERT_EQ(first->events.size(), 1u);
    EXPECT_EQ(first->events[0].start, 500);
    ASSERT_EQ(second->events.size(), 2u);
    EXPECT_EQ(second->events[0].start, 600);
    EXPECT_EQ(trace.name(second->events[1]), "Stream Sync");
    EXPECT_EQ(second->name, "stream 7 (context 6)");
}

TEST(CuptiTranslatorTest, ProgramCostsGoOnTheirThreadAndCuptiCostsOnTheCollectorLane)
{
    ActivityBuffer b;
    const auto addOverhead = [&b](CUpti_ActivityOverheadKind kind, CUpti_ActivityObjectKind object, std::uint64_t start,
                                 std::uint64_t end) -> CUpti_ActivityOverhead3& {
        auto& o = b.add<CUpti_ActivityOverhead3>(CUPTI_ACTIVITY_KIND_OVERHEAD);
        o.overheadKind = kind;
        o.objectKind = object;
        if (object == CUPTI_ACTIVITY_OBJECT_THREAD)
            o.objectId.pt.threadId = kThread;
        o.start = start;
        o.end = end;
        o.overheadData = std::malloc(16); // CUPTI's allocation, which the translator frees
        return o;
    };
    addOverhead(CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER, CUPTI_ACTIVITY_OBJECT_THREAD, 100, 900);
    addOverhead(CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING, CUPTI_ACTIVITY_OBJECT_DEVICE, 1000, 1100);
    addOverhead(CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH, CUPTI_ACTIVITY_OBJECT_THREAD, 2000, 2300);
    addOverhead(CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION, CUPTI_ACTIVITY_OBJECT_THREAD, 2500, 2600);
    Translated t = translate(b, b.size());
    const Trace& trace = t.trace;
    const Lane* thread = lane(trace, LaneKind::CpuThread, kThread);
    ASSERT_NE(thread, nullptr);
    ASSERT_EQ(thread->events.size(), 1u);
    EXPECT_EQ(thread->events[0].kind, EventKind::Other);
    EXPECT_EQ(trace.name(thread->events[0]), "Driver compiler");
    const Lane* mainThread = lane(trace, LaneKind::CpuThread, ::getpid());
    ASSERT_NE(mainThread, nullptr);
    ASSERT_EQ(mainThread->events.size(), 1u);
    EXPECT_EQ(trace.name(mainThread->events[0]), "Lazy function loading");
    EXPECT_EQ(mainThread->events[0].kind, EventKind::Other);
    const Lane* collector = lane(trace, LaneKind::CpuThread, native::kCollectorLane);
    ASSERT_NE(collector, nullptr);
    EXPECT_EQ(
        laneNames(trace, *collector), (std::vector<std::string> { "CUPTI buffer flush", "CUPTI instrumentation" }));
    for (const Event& e : collector->events)
        EXPECT_EQ(e.kind, EventKind::Overhead);
}

struct OverheadKindCase {
    CUpti_ActivityOverheadKind kind;
    bool program;
};

class CuptiOverheadKindTest : public ::testing::TestWithParam<OverheadKindCase> { };

TEST_P(CuptiOverheadKindTest, IsTheProgramsOrCuptisCost)
{
    EXPECT_EQ(CuptiTranslator::isProgramOverhead(GetParam().kind), GetParam().program);
}

INSTANTIATE_TEST_SUITE_P(Kinds, CuptiOverheadKindTest,
    ::testing::Values(OverheadKindCase { CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER, true },
        OverheadKindCase { CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING, true },
        OverheadKindCase { CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING, true },
        OverheadKindCase { CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL, true },
        OverheadKindCase { CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH, false },
        OverheadKindCase { CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION, false },
        OverheadKindCase { CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE, false },
        OverheadKindCase { CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST, false }));

TEST(CuptiTranslatorTest, RecordsOutsideTheRecordingByAnHourAreCounted)
{
    ActivityBuffer b;
    // 2026-12-01 on CLOCK_REALTIME, and the same instant on a clock that counts from boot (what a
    // program's own CUPTI timestamp callback may switch CUPTI to).
    constexpr std::int64_t kNow = 1'796'000'000'000'000'000;
    addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, kNow - 5'000'000,
        kNow - 4'000'000, 1);
    addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 86'400'000'000'000,
        86'400'000'100'000, 2);
    gapscope::test::TempDir dir;
    NativeStreamWriter writer;
    std::string error;
    ASSERT_TRUE(writer.open(dir.file("t.gapscope"), { 1, -1, native::ClockId::CuptiTimestamp, 0 }, error)) << error;
    CuptiTranslator translator(writer);
    constexpr std::int64_t kStarted = kNow - 7'200'000'000'000; // CUPTI was set up two hours ago
    EXPECT_EQ(translator.translateBuffer(b.data(), b.size(), kStarted, kNow).farFromClock, 1u);
    EXPECT_EQ(translator.translateBuffer(b.data(), b.size()).farFromClock, 0u); // not checked
    // A record that waited in a quiet thread's buffer since just after the start is not suspect.
    ActivityBuffer old;
    addApi(old, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, kStarted + 1'000,
        kStarted + 2'000, 3);
    EXPECT_EQ(translator.translateBuffer(old.data(), old.size(), kStarted, kNow).farFromClock, 0u);
}

struct ApiNameCase {
    CUpti_CallbackDomain domain;
    CUpti_CallbackId cbid;
    const char* expected;
};

class CuptiApiNameTest : public ::testing::TestWithParam<ApiNameCase> { };

TEST_P(CuptiApiNameTest, IsTheBareFunctionName)
{
    EXPECT_EQ(CuptiTranslator::apiName(GetParam().domain, GetParam().cbid), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Names, CuptiApiNameTest,
    ::testing::Values(ApiNameCase { CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                          "cudaLaunchKernel" },
        ApiNameCase { CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020,
            "cudaDeviceSynchronize" },
        ApiNameCase { CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, "cudaMemcpy" },
        ApiNameCase { CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, "cuLaunchKernel" },
        ApiNameCase { CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize, "cuCtxSynchronize" }));

struct DemangleCase {
    const char* mangled;
    const char* expected;
};

class CuptiDemangleTest : public ::testing::TestWithParam<DemangleCase> { };

TEST_P(CuptiDemangleTest, GivesTheSourceName)
{
    EXPECT_EQ(CuptiTranslator::demangle(GetParam().mangled), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Names, CuptiDemangleTest,
    ::testing::Values(DemangleCase { "_Z5scalePfif", "scale(float*, int, float)" },
        DemangleCase { "_ZN2ns6kernelIfEEvPT_", "void ns::kernel<float>(float*)" },
        DemangleCase { "ampere_sgemm_128x64_nn", "ampere_sgemm_128x64_nn" },
        DemangleCase { "_Znot-valid", "_Znot-valid" }));

} // namespace
} // namespace gapscope::capture
