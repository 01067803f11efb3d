// SPDX-License-Identifier: MIT
// ChromeTraceReader with its events mapped on a second thread (core/io/chrome/event_pipeline.h): the trace, its
// warnings and its errors are those of a single-threaded read, whatever the window size, so that events, strings
// and B/E pairs that straddle window buffers (and so the pipeline's batches) come out whole.
#include "core/io/chrome/chrome_trace_reader.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

namespace gapscope {
namespace {

ChromeReadOptions withThreads(unsigned threads, std::size_t windowBytes)
{
    ChromeReadOptions options;
    options.threads = threads;
    options.windowBytes = windowBytes;
    return options;
}

/// Every field of the model and every warning equal.
void expectSameTrace(const Trace& a, const Trace& b)
{
    EXPECT_EQ(a.skippedEvents(), b.skippedEvents());
    ASSERT_EQ(a.warnings().size(), b.warnings().size());
    for (std::size_t i = 0; i < a.warnings().size(); ++i)
        EXPECT_EQ(a.warnings()[i].toString(), b.warnings()[i].toString());
    ASSERT_EQ(a.processes().size(), b.processes().size());
    for (std::size_t i = 0; i < a.processes().size(); ++i) {
        EXPECT_EQ(a.processes()[i].pid, b.processes()[i].pid);
        EXPECT_EQ(a.processes()[i].name, b.processes()[i].name);
        EXPECT_EQ(a.processes()[i].rank, b.processes()[i].rank);
        EXPECT_EQ(a.processes()[i].fileMetadataJson, b.processes()[i].fileMetadataJson);
    }
    ASSERT_EQ(a.devices().size(), b.devices().size());
    for (std::size_t i = 0; i < a.devices().size(); ++i) {
        EXPECT_EQ(a.devices()[i].id, b.devices()[i].id);
        EXPECT_EQ(a.devices()[i].name, b.devices()[i].name);
        EXPECT_EQ(a.devices()[i].propertiesJson, b.devices()[i].propertiesJson);
    }
    ASSERT_EQ(a.strings().size(), b.strings().size());
    for (std::uint32_t i = 0; i < a.strings().size(); ++i)
        EXPECT_EQ(a.strings().view(StringId { i }), b.strings().view(StringId { i }));
    ASSERT_EQ(a.args().size(), b.args().size());
    ASSERT_EQ(a.lanes().size(), b.lanes().size());
    for (std::size_t l = 0; l < a.lanes().size(); ++l) {
        const Lane& x = a.lanes()[l];
        const Lane& y = b.lanes()[l];
        EXPECT_EQ(x.kind, y.kind);
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.tid, y.tid);
        EXPECT_EQ(x.stream, y.stream);
        EXPECT_EQ(x.sortIndex, y.sortIndex);
        ASSERT_EQ(x.events.size(), y.events.size()) << "lane " << l;
        for (std::size_t i = 0; i < x.events.size(); ++i) {
            const Event& e = x.events[i];
            const Event& f = y.events[i];
            EXPECT_EQ(e.start, f.start);
            EXPECT_EQ(e.end, f.end);
            EXPECT_EQ(e.name, f.name);
            EXPECT_EQ(e.kind, f.kind);
            EXPECT_EQ(e.correlation, f.correlation);
            EXPECT_EQ(e.bytes, f.bytes);
            EXPECT_EQ(e.copyKind, f.copyKind);
            EXPECT_EQ(e.depth, f.depth);
            EXPECT_EQ(a.argsJson(e), b.argsJson(f));
        }
    }
}

// --- Real traces: the same trace on one thread and two, for tiny and default windows.

struct RealCase {
    const char* file;
    std::size_t events; // (tests/core/chrome_trace_reader_test.cpp, RealTraceTest)
    std::size_t kernels;
};

class PipelineRealTraceTest : public ::testing::TestWithParam<std::tuple<RealCase, std::size_t>> { };

TEST_P(PipelineRealTraceTest, SameTraceOnOneThreadAndTwo)
{
    const auto& [c, windowBytes] = GetParam();
    const std::string path = test::dataPath(c.file);
    auto one = ChromeTraceReader::readFile(path, withThreads(1, windowBytes));
    auto two = ChromeTraceReader::readFile(path, withThreads(2, windowBytes));
    ASSERT_TRUE(one.ok()) << one.error().toString();
    ASSERT_TRUE(two.ok()) << two.error().toString();
    EXPECT_EQ(two.value().eventCount(), c.events);
    std::size_t kernels = 0;
    for (const Lane& lane : two.value().lanes()) {
        for (const Event& e : lane.events)
            kernels += e.kind == EventKind::Kernel;
    }
    EXPECT_EQ(kernels, c.kernels);
    expectSameTrace(one.value(), two.value());
}

INSTANTIATE_TEST_SUITE_P(TestData, PipelineRealTraceTest,
    ::testing::Combine(
        ::testing::Values(
            RealCase { "hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz", 840, 79 },
            RealCase { "hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", 45422, 4350 },
            RealCase { "hta/trace_filter/sampled_rank-0.json.gz", 4811, 1154 },
            RealCase { "kineto/derived/tb_plugin_test_gpu_utilization.json", 11, 5 },
            RealCase { test::kResnet50Trace, 57506, 8772 }),
        ::testing::Values(std::size_t { 16 }, std::size_t { 4096 }, std::size_t { 1 } << 20)));

// --- Hand-built: what straddles a batch boundary, with the answers worked out by hand.

// A step opened by "B" at the start and closed by "E" near the end, with the events between it in other window
// buffers; a name and args holding "},{" and escaped quotes (a split at a guessed "},{" would land inside them);
// a launch and its kernel linked by flows; an event without "ts" (skipped, with a warning at its offset) and a
// "B" that never ends (a warning at its offset).
const std::string kStraddling = R"({"traceEvents": [
{"ph": "B", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 1},
{"ph": "X", "cat": "cpu_op", "name": "a \"quoted\" },{\"ph\": \"E\"} name", "pid": 1, "tid": 1, "ts": 2, "dur": 1,
 "args": {"note": "},{\"ph\":\"E\", \"ts\": 9}"}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 3, "dur": 1,
 "args": {"correlation": 7}},
{"ph": "s", "id": 7, "pid": 1, "tid": 1, "ts": 3, "cat": "ac2g", "name": "ac2g"},
{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 4, "dur": 2,
 "args": {"device": 0, "stream": 7}},
{"ph": "f", "id": 7, "pid": 0, "tid": 7, "ts": 4, "cat": "ac2g", "name": "ac2g", "bp": "e"},
{"ph": "X", "name": "no ts", "pid": 1, "tid": 1},
{"ph": "E", "pid": 1, "tid": 1, "ts": 5.5},
{"ph": "B", "cat": "user_annotation", "name": "open", "pid": 1, "tid": 2, "ts": 6}
]})";

class PipelineBoundaryTest : public ::testing::TestWithParam<std::tuple<unsigned, std::size_t>> { };

TEST_P(PipelineBoundaryTest, SlicesStringsAndFlowsAcrossBatches)
{
    const auto& [threads, windowBytes] = GetParam();
    const auto result = ChromeTraceReader::parse(kStraddling, "straddling.json", withThreads(threads, windowBytes));
    ASSERT_TRUE(result.ok()) << result.error().toString();
    const Trace& trace = result.value();
    ASSERT_EQ(trace.eventCount(), 4u); // the step, the quoted op, the launch, the kernel
    // Thread 1, thread 2 (its only event, the "B" that never ends, is dropped), stream 7.
    ASSERT_EQ(trace.lanes().size(), 3u);
    const Lane& thread = trace.lanes()[0];
    ASSERT_EQ(thread.kind, LaneKind::CpuThread);
    EXPECT_EQ(thread.tid, 1);
    EXPECT_EQ(trace.lanes()[1].tid, 2);
    EXPECT_TRUE(trace.lanes()[1].events.empty());
    ASSERT_EQ(thread.events.size(), 3u);
    EXPECT_EQ(trace.name(thread.events[0]), "ProfilerStep#1");
    EXPECT_EQ(thread.events[0].start, 1000);
    EXPECT_EQ(thread.events[0].end, 5500);
    EXPECT_EQ(trace.name(thread.events[1]), R"(a "quoted" },{"ph": "E"} name)");
    EXPECT_EQ(thread.events[1].start, 2000);
    EXPECT_EQ(thread.events[1].end, 3000);
    EXPECT_EQ(thread.events[1].depth, 1);
    EXPECT_EQ(trace.argsJson(thread.events[1]), R"({"note": "},{\"ph\":\"E\", \"ts\": 9}"})");
    EXPECT_EQ(trace.name(thread.events[2]), "cudaLaunchKernel");
    const Lane& stream = trace.lanes()[2];
    ASSERT_EQ(stream.kind, LaneKind::GpuStream);
    EXPECT_EQ(stream.stream, 7);
    ASSERT_EQ(stream.events.size(), 1u);
    EXPECT_EQ(stream.events[0].start, 4000);
    EXPECT_EQ(stream.events[0].end, 6000);
    EXPECT_EQ(stream.events[0].correlation, 7u); // from the "f" flow: the kernel's args have none
    const auto launch = trace.launchOf(EventRef { LaneIndex { 2 }, 0 });
    ASSERT_TRUE(launch);
    EXPECT_EQ(trace.event(*launch).start, 3000);

    EXPECT_EQ(trace.skippedEvents(), 2u);
    ASSERT_EQ(trace.warnings().size(), 2u);
    EXPECT_EQ(trace.warnings()[0].byteOffset, kStraddling.find(R"({"ph": "X", "name": "no ts")"));
    EXPECT_EQ(trace.warnings()[0].message, "event skipped: it has no \"ts\"");
    EXPECT_EQ(
        trace.warnings()[1].byteOffset, kStraddling.find(R"({"ph": "B", "cat": "user_annotation", "name": "open")"));
    EXPECT_EQ(trace.warnings()[1].message, "\"B\" event without a matching \"E\" event");
}

TEST_P(PipelineBoundaryTest, ASyntaxErrorInALaterBatchIsAtItsOffset)
{
    const auto& [threads, windowBytes] = GetParam();
    std::string json = kStraddling;
    const std::size_t at = json.find(R"(, "pid": 1, "tid": 2)");
    json.insert(at, "\"x\""); // `"name": "open""x", "pid"`: a second string where ',' or '}' must come
    const auto result = ChromeTraceReader::parse(json, "bad.json", withThreads(threads, windowBytes));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().byteOffset, at);
    EXPECT_EQ(result.error().message, "not valid JSON: expected ',' or '}' in an event inside the traceEvents array");
}

TEST_P(PipelineBoundaryTest, AFileCutAfterTheKernelLoadsTheEventsBeforeTheCut)
{
    const auto& [threads, windowBytes] = GetParam();
    const std::size_t cut = kStraddling.find(R"({"ph": "X", "name": "no ts")");
    const auto result = ChromeTraceReader::parse(
        std::string_view(kStraddling).substr(0, cut), "cut.json", withThreads(threads, windowBytes));
    ASSERT_TRUE(result.ok()) << result.error().toString();
    const Trace& trace = result.value();
    EXPECT_EQ(trace.eventCount(), 3u); // the quoted op, the launch and the kernel; the step never ended
    ASSERT_EQ(trace.warnings().size(), 2u);
    EXPECT_EQ(trace.warnings()[0].byteOffset, cut);
    EXPECT_EQ(trace.warnings()[0].message,
        "the file ends early (truncated?): loaded the 6 complete events before the cut (the JSON ends early "
        "(truncated file?): the end came inside the traceEvents array)");
    EXPECT_EQ(trace.warnings()[1].byteOffset, kStraddling.find(R"({"ph": "B")"));
    EXPECT_EQ(trace.warnings()[1].message, "\"B\" event without a matching \"E\" event");
}

INSTANTIATE_TEST_SUITE_P(ThreadsAndWindows, PipelineBoundaryTest,
    ::testing::Combine(::testing::Values(1u, 2u),
        ::testing::Values(std::size_t { 16 }, std::size_t { 37 }, std::size_t { 200 }, std::size_t { 1 } << 20)));

TEST(PipelineTest, ACanceledReadStopsWithTwoThreads)
{
    std::stop_source stop;
    stop.request_stop();
    ChromeReadOptions options = withThreads(2, 16);
    options.stop = stop.get_token();
    const auto result = ChromeTraceReader::parse(kStraddling, "canceled.json", options);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().message, "canceled");
}

} // namespace
} // namespace gapscope
