// SPDX-License-Identifier: MIT
// ChromeTraceReader on the real traces under tests/data. Figures marked (SOURCES) are the peers' own numbers
// from tests/data/NOTICE.md / ../shared/data/traces/SOURCES.md; figures marked (counted) were counted
// independently in the JSON with Python's json module (X events of that `cat`; events = X + i entries).
#include "core/io/chrome/chrome_trace_reader.h"
#include "tests/core/hand_trace.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>

namespace gapscope {
namespace {

using test::countKind;

std::optional<LaneIndex> findGpuLane(const Trace& trace, int deviceId, std::int64_t stream)
{
    for (std::uint32_t i = 0; i < trace.lanes().size(); ++i) {
        const Lane& lane = trace.lanes()[i];
        if (lane.kind == LaneKind::GpuStream && trace.devices()[lane.device.value].id == deviceId
            && lane.stream == stream)
            return LaneIndex { i };
    }
    return std::nullopt;
}

std::optional<LaneIndex> findThreadLane(const Trace& trace, std::int64_t pid, std::int64_t tid)
{
    for (std::uint32_t i = 0; i < trace.lanes().size(); ++i) {
        const Lane& lane = trace.lanes()[i];
        if (lane.kind == LaneKind::CpuThread && trace.processes()[lane.process.value].pid == pid && lane.tid == tid)
            return LaneIndex { i };
    }
    return std::nullopt;
}

/// The event of a lane that starts at `start` (the lane is sorted by start).
std::optional<EventRef> eventAt(const Trace& trace, LaneIndex lane, TimeNs start)
{
    const auto& events = trace.lanes()[lane.value].events;
    const auto it
        = std::partition_point(events.begin(), events.end(), [start](const Event& e) { return e.start < start; });
    if (it == events.end() || it->start != start)
        return std::nullopt;
    return EventRef { lane, static_cast<std::uint32_t>(it - events.begin()) };
}

using test::load;

struct RealTraceCase {
    const char* path;
    std::int64_t hostPid;
    std::optional<int> rank;
    std::size_t devices;
    std::size_t events; // X + i entries (counted)
    std::size_t kernels;
    std::size_t memcpys;
    std::size_t memsets;
    std::size_t syncs;
    std::size_t runtimeCalls;
    std::size_t kernelsWithLaunch; // kernels whose correlation id has a runtime/driver call (counted)
};

void PrintTo(const RealTraceCase& c, std::ostream* os)
{
    *os << c.path;
}

class RealTraceTest : public ::testing::TestWithParam<RealTraceCase> { };

TEST_P(RealTraceTest, LoadsWithTheCountsItsSourceStates)
{
    const RealTraceCase& c = GetParam();
    const Trace trace = load(c.path);
    EXPECT_EQ(trace.skippedEvents(), 0u);
    EXPECT_TRUE(trace.warnings().empty()) << trace.warnings().front().message;
    ASSERT_EQ(trace.processes().size(), 1u);
    EXPECT_EQ(trace.processes()[0].pid, c.hostPid);
    EXPECT_EQ(trace.processes()[0].rank, c.rank);
    EXPECT_EQ(trace.processes()[0].sourceFile, test::dataPath(c.path));
    EXPECT_EQ(trace.devices().size(), c.devices);
    EXPECT_EQ(trace.eventCount(), c.events);
    EXPECT_EQ(countKind(trace, EventKind::Kernel), c.kernels);
    EXPECT_EQ(countKind(trace, EventKind::Memcpy), c.memcpys);
    EXPECT_EQ(countKind(trace, EventKind::Memset), c.memsets);
    EXPECT_EQ(countKind(trace, EventKind::Sync), c.syncs);
    EXPECT_EQ(countKind(trace, EventKind::RuntimeApi), c.runtimeCalls);

    std::size_t withLaunch = 0;
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        const Lane& lane = trace.lanes()[l];
        for (std::uint32_t i = 0; i < lane.events.size(); ++i) {
            // GPU-lane kinds live on stream lanes and only there.
            EXPECT_EQ(isGpuLaneKind(lane.events[i].kind), lane.kind == LaneKind::GpuStream);
            if (lane.events[i].kind != EventKind::Kernel)
                continue;
            if (const auto launch = trace.launchOf({ LaneIndex { l }, i })) {
                ++withLaunch;
                EXPECT_EQ(trace.event(*launch).correlation, lane.events[i].correlation);
            }
        }
    }
    EXPECT_EQ(withLaunch, c.kernelsWithLaunch);
}

INSTANTIATE_TEST_SUITE_P(TestData, RealTraceTest,
    ::testing::Values(
        // 79 kernels, 16 memcpys, 41 cuda_sync (SOURCES); the rest counted.
        RealTraceCase { "hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz", 493459, 0, 1,
            840, 79, 16, 3, 41, 331, 79 },
        RealTraceCase {
            "hta/critical_path/cuda_event_sync/event_sync_trace.json.gz", 948300, 0, 1, 35, 4, 1, 0, 4, 12, 4 },
        RealTraceCase { "hta/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz", 3727853, 0, 1, 59, 3,
            0, 3, 5, 39, 3 },
        RealTraceCase { "hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", 1102, 0, 1, 45422, 4350,
            1600, 145, 0, 15329, 4350 },
        // CPU-only: no GPU at all (SOURCES).
        RealTraceCase { "hta/rank_non_gpu/rank_non_gpu.json.gz", 3113936, 0, 0, 2467, 0, 0, 0, 0, 0, 0 },
        // distributedInfo.rank 0 and 1 (SOURCES).
        RealTraceCase { "hta/trace_filter/sampled_rank-0.json.gz", 4037, 0, 1, 4811, 1154, 40, 10, 0, 1204, 1154 },
        RealTraceCase { "hta/trace_filter/sampled_rank-1.json.gz", 4045, 1, 1, 4676, 1104, 40, 10, 0, 1154, 1104 },
        // Five kernels on streams 7 and 8 of device 1 (SOURCES).
        RealTraceCase {
            "kineto/derived/tb_plugin_test_gpu_utilization.json", 13721, std::nullopt, 1, 11, 5, 0, 0, 0, 4, 5 },
        // 736 of its kernels have no Runtime call with their correlation id in the file (counted).
        RealTraceCase { test::kResnet50LegacyTrace, 67844, std::nullopt, 1, 63167, 9538, 12, 377, 0, 10800, 8802 },
        // 8,772 kernels (SOURCES).
        RealTraceCase { test::kResnet50Trace, 25738, std::nullopt, 1, 57506, 8772, 12, 312, 0, 11923, 8772 },
        RealTraceCase { test::kResnet50Workers4Trace, 5555, std::nullopt, 1, 52888, 8868, 12, 378, 0, 12085, 8868 },
        // 154 and 60 kernels (SOURCES).
        RealTraceCase { "tracelens/h100/Falconsai_nsfw_image_detection__1016002.json.gz", 5617, std::nullopt, 1, 4539,
            154, 0, 2, 0, 334, 154 },
        RealTraceCase { "tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz", 19392, std::nullopt, 1, 2298,
            60, 1, 0, 0, 110, 60 }));

class WindowSizeTest : public ::testing::TestWithParam<std::size_t> { };

TEST_P(WindowSizeTest, ItemsAcrossWindowBoundariesParseTheSame)
{
    // The reader parses in a sliding window and re-parses an item that runs past its end. A window of a few
    // bytes makes nearly every event do so; the trace must come out identical to the default window's.
    const std::string path
        = test::dataPath("hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz");
    const Trace reference = load("hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz");
    ChromeReadOptions options;
    options.windowBytes = GetParam();
    auto result = ChromeTraceReader::readFile(path, options);
    ASSERT_TRUE(result.ok()) << result.error().toString();
    const Trace& trace = result.value();
    EXPECT_EQ(trace.warnings().size(), 0u);
    ASSERT_EQ(trace.lanes().size(), reference.lanes().size());
    ASSERT_EQ(trace.processes().size(), reference.processes().size());
    EXPECT_EQ(trace.processes()[0].fileMetadataJson, reference.processes()[0].fileMetadataJson);
    ASSERT_EQ(trace.devices().size(), reference.devices().size());
    EXPECT_EQ(trace.devices()[0].propertiesJson, reference.devices()[0].propertiesJson);
    for (std::size_t l = 0; l < trace.lanes().size(); ++l) {
        const Lane& a = trace.lanes()[l];
        const Lane& b = reference.lanes()[l];
        EXPECT_EQ(a.name, b.name);
        ASSERT_EQ(a.events.size(), b.events.size());
        for (std::size_t i = 0; i < a.events.size(); ++i) {
            EXPECT_EQ(a.events[i].start, b.events[i].start);
            EXPECT_EQ(a.events[i].end, b.events[i].end);
            EXPECT_EQ(a.events[i].correlation, b.events[i].correlation);
            EXPECT_EQ(trace.name(a.events[i]), reference.name(b.events[i]));
            EXPECT_EQ(trace.argsJson(a.events[i]), reference.argsJson(b.events[i]));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Sizes, WindowSizeTest, ::testing::Values(16u, 61u, 4096u));

TEST(ChromeTraceReaderRealTest, SimpleAddLinksKernelToItsLaunchWithHtaDelayAndGap)
{
    const Trace trace = load("hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz");
    // traceEvents[1051]: kernel on stream 20, ts 1694040010076734 µs, dur 63; its cudaLaunchKernel is
    // traceEvents[1053] at ts 1694040010076707: HTA's launch delay is 27 µs, and the next kernel on stream 20
    // (traceEvents[1067], ts 1694040010076804) leaves a 7 µs gap (SOURCES).
    const auto stream20 = findGpuLane(trace, 0, 20);
    ASSERT_TRUE(stream20);
    const auto kernel = eventAt(trace, *stream20, 1694040010076734000);
    ASSERT_TRUE(kernel);
    const Event& k = trace.event(*kernel);
    EXPECT_EQ(k.kind, EventKind::Kernel);
    EXPECT_EQ(k.end, 1694040010076797000);
    EXPECT_EQ(k.correlation, 5597u);
    const auto launch = trace.launchOf(*kernel);
    ASSERT_TRUE(launch);
    const Event& l = trace.event(*launch);
    EXPECT_EQ(trace.name(l), "cudaLaunchKernel");
    EXPECT_EQ(l.kind, EventKind::RuntimeApi);
    EXPECT_EQ(k.start - l.start, 27000);
    EXPECT_EQ(trace.lanes()[launch->lane.value].tid, 493459);
    const auto ops = trace.gpuOpsOf(*launch);
    ASSERT_EQ(ops.size(), 1u);
    EXPECT_EQ(ops[0], *kernel);
    const Event& next = trace.lanes()[stream20->value].events[kernel->index + 1];
    EXPECT_EQ(trace.name(next), "ampere_gcgemm_64x64_nt");
    EXPECT_EQ(next.start - k.end, 7000);
}

TEST(ChromeTraceReaderRealTest, SimpleAddKeepsProcessDeviceMemcpyAndFileMetadata)
{
    const Trace trace = load("hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz");
    ASSERT_EQ(trace.processes().size(), 1u);
    EXPECT_EQ(trace.processes()[0].name, "python3.10");
    EXPECT_EQ(trace.processes()[0].sortIndex, 493459);
    ASSERT_EQ(trace.devices().size(), 1u); // deviceProperties lists 8 GPUs; only device 0 has events
    EXPECT_EQ(trace.devices()[0].id, 0);
    EXPECT_EQ(trace.devices()[0].name, "NVIDIA A100-PG509-200");
    const auto props = nlohmann::json::parse(trace.devices()[0].propertiesJson);
    EXPECT_EQ(props["id"], 0);
    EXPECT_EQ(props["numSms"], 108);

    const auto meta = nlohmann::json::parse(trace.processes()[0].fileMetadataJson);
    EXPECT_FALSE(meta.contains("traceEvents"));
    EXPECT_EQ(meta["schemaVersion"], 1);
    EXPECT_EQ(meta["distributedInfo"]["rank"], 0);
    EXPECT_EQ(meta["deviceProperties"].size(), 8u);
    EXPECT_EQ(meta["traceName"], "benchmark_result_493459_1694039959_trace.json");

    // The first memcpy: "Memcpy HtoD (Pageable -> Device)", ts 1694039994071305, dur 11, 92928 bytes, stream 7.
    const auto stream7 = findGpuLane(trace, 0, 7);
    ASSERT_TRUE(stream7);
    EXPECT_EQ(trace.lanes()[stream7->value].name, "stream 7 ");
    const auto memcpy = eventAt(trace, *stream7, 1694039994071305000);
    ASSERT_TRUE(memcpy);
    const Event& m = trace.event(*memcpy);
    EXPECT_EQ(m.kind, EventKind::Memcpy);
    EXPECT_EQ(m.copyKind, CopyKind::HtoD);
    EXPECT_EQ(m.bytes, 92928u);
    EXPECT_EQ(m.duration(), 11000);
    const auto args = nlohmann::json::parse(trace.argsJson(m));
    EXPECT_EQ(args["External id"], 14);
    EXPECT_EQ(args["memory bandwidth (GB/s)"], 7.827493261455525);

    const auto host = findThreadLane(trace, 493459, 493459);
    ASSERT_TRUE(host);
    EXPECT_EQ(trace.lanes()[host->value].name, "thread 493459 (python3.10)");
}

TEST(ChromeTraceReaderRealTest, CudaEventSyncHasThreeSyncsOnStreamMinusOne)
{
    // SOURCES: exactly 3 cuda_sync events carry stream −1 (2 "Event Sync", 1 "Context Sync"); one "Stream Sync"
    // is on stream 7.
    const Trace trace = load("hta/critical_path/cuda_event_sync/event_sync_trace.json.gz");
    const auto noStream = findGpuLane(trace, 0, -1);
    ASSERT_TRUE(noStream);
    const auto& events = trace.lanes()[noStream->value].events;
    ASSERT_EQ(events.size(), 3u);
    std::vector<std::string_view> names;
    for (const Event& e : events) {
        EXPECT_EQ(e.kind, EventKind::Sync);
        names.push_back(trace.name(e));
    }
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string_view> { "Context Sync", "Event Sync", "Event Sync" }));
    const auto stream7 = findGpuLane(trace, 0, 7);
    ASSERT_TRUE(stream7);
    std::vector<std::string_view> syncs7;
    for (const Event& e : trace.lanes()[stream7->value].events) {
        if (e.kind == EventKind::Sync)
            syncs7.push_back(trace.name(e));
    }
    EXPECT_EQ(syncs7, (std::vector<std::string_view> { "Stream Sync" }));
}

TEST(ChromeTraceReaderRealTest, LegacyArrayFormatReadsStreamTidsAndNumericStringTids)
{
    const Trace trace = load(test::kResnet50LegacyTrace);
    // GPU events are written under tid "stream 7": one lane, device 0 stream 7, 9538 + 12 + 377 events (counted).
    const auto stream7 = findGpuLane(trace, 0, 7);
    ASSERT_TRUE(stream7);
    EXPECT_EQ(trace.lanes()[stream7->value].events.size(), 9538u + 12u + 377u);
    EXPECT_TRUE(trace.processes()[0].fileMetadataJson.empty()); // a bare array has no top-level keys
    EXPECT_EQ(trace.processes()[0].name, "python");
    // Host tids are numeric strings ("4093687616") and thread_name metadata names them.
    const auto thread1 = findThreadLane(trace, 67844, 4093687616);
    ASSERT_TRUE(thread1);
    EXPECT_EQ(trace.lanes()[thread1->value].name, "thread 1 (python)");
    const auto thread0 = findThreadLane(trace, 67844, 2662278912);
    ASSERT_TRUE(thread0);
    EXPECT_EQ(trace.lanes()[thread0->value].name, "thread 0 (python)");
    // The first kernel of the file: ts 1606910596288085, dur 379, correlation 60032.
    const auto kernel = eventAt(trace, *stream7, 1606910596288085000);
    ASSERT_TRUE(kernel);
    EXPECT_EQ(trace.event(*kernel).duration(), 379000);
    EXPECT_EQ(trace.event(*kernel).correlation, 60032u);
}

TEST(ChromeTraceReaderRealTest, NsResolutionTraceKeepsMicrosecondUnitsAndFractions)
{
    // displayTimeUnit "ns" is a display hint: ts stays µs. The file's text has kernel "ts": 1712195495505582.988,
    // "dur": 4.928 on stream 7, launched by cudaLaunchKernel "ts": 1712195495505543.140, "dur": 41.768
    // (correlation 135071). A double cannot hold these: Python's json reads them as …583.0 and …543.2.
    const Trace trace = load("hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
    EXPECT_EQ(nlohmann::json::parse(trace.processes()[0].fileMetadataJson)["displayTimeUnit"], "ns");
    const auto stream7 = findGpuLane(trace, 0, 7);
    ASSERT_TRUE(stream7);
    const auto kernel = eventAt(trace, *stream7, 1712195495505582988);
    ASSERT_TRUE(kernel);
    EXPECT_EQ(trace.event(*kernel).end, 1712195495505587916);
    EXPECT_EQ(trace.event(*kernel).correlation, 135071u);
    const auto launch = trace.launchOf(*kernel);
    ASSERT_TRUE(launch);
    EXPECT_EQ(trace.event(*launch).start, 1712195495505543140);
    EXPECT_EQ(trace.event(*launch).end, 1712195495505584908);
    EXPECT_EQ(countKind(trace, EventKind::GpuUserAnnotation), 15u); // counted
}

TEST(ChromeTraceReaderRealTest, ResNetHasSixProfilerSteps)
{
    // SOURCES: 6 ProfilerStep# ranges (steps 5–10).
    const Trace trace = load(test::kResnet50Trace);
    std::vector<std::string_view> steps;
    for (const Lane& lane : trace.lanes()) {
        for (const Event& e : lane.events) {
            if (trace.name(e).starts_with("ProfilerStep#"))
                steps.push_back(trace.name(e));
        }
    }
    std::sort(steps.begin(), steps.end());
    EXPECT_EQ(steps,
        (std::vector<std::string_view> { "ProfilerStep#10", "ProfilerStep#5", "ProfilerStep#6", "ProfilerStep#7",
            "ProfilerStep#8", "ProfilerStep#9" }));
}

TEST(ChromeTraceReaderRealTest, SampledRanksPutGpuEventsOnTheirOwnDevice)
{
    // Rank 1 runs on GPU 1: its GPU events are under pid 1 with args.device 1. Five streams each (counted).
    for (const auto& [file, rank] : { std::pair { "hta/trace_filter/sampled_rank-0.json.gz", 0 },
             std::pair { "hta/trace_filter/sampled_rank-1.json.gz", 1 } }) {
        const Trace trace = load(file);
        ASSERT_EQ(trace.devices().size(), 1u);
        EXPECT_EQ(trace.devices()[0].id, rank);
        EXPECT_EQ(trace.devices()[0].process.value, 0u);
        const auto gpuLanes = std::count_if(
            trace.lanes().begin(), trace.lanes().end(), [](const Lane& l) { return l.kind == LaneKind::GpuStream; });
        EXPECT_EQ(gpuLanes, 5);
        EXPECT_EQ(nlohmann::json::parse(trace.processes()[0].fileMetadataJson)["distributedInfo"]["world_size"], 128);
    }
}

TEST(ChromeTraceReaderRealTest, CpuOnlyTraceHasNoDevicesAndNoGpuLanes)
{
    const Trace trace = load("hta/rank_non_gpu/rank_non_gpu.json.gz");
    EXPECT_TRUE(trace.devices().empty());
    for (const Lane& lane : trace.lanes())
        EXPECT_EQ(lane.kind, LaneKind::CpuThread);
    EXPECT_EQ(countKind(trace, EventKind::CpuOp), 2424u); // counted
    EXPECT_EQ(countKind(trace, EventKind::UserAnnotation), 43u); // counted
}

TEST(ChromeTraceReaderRealTest, PythonTracerEventsUnderGpuPidBelongToTheHostProcess)
{
    // TraceLens' bert trace has 5 python_function events under pid 0 / tid 0 (the GPU's pid); they are host
    // events of the profiled process, on a thread lane named by the file's thread_name metadata.
    const Trace trace = load("tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz");
    ASSERT_EQ(trace.processes().size(), 1u);
    const auto lane = findThreadLane(trace, 19392, 0);
    ASSERT_TRUE(lane);
    EXPECT_EQ(trace.lanes()[lane->value].name, "thread 0 (python3)");
    EXPECT_EQ(trace.lanes()[lane->value].events.size(), 5u);
    EXPECT_EQ(countKind(trace, EventKind::PythonFunction), 1385u); // counted
    EXPECT_EQ(countKind(trace, EventKind::DriverApi), 22u); // counted
}

} // namespace
} // namespace gapscope
