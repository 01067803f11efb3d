// SPDX-License-Identifier: MIT
// Loading part of a trace (ReadFilter): only the GPU lanes, or only the events overlapping a time range, as a trace
// too large for the machine's memory is loaded (docs/hardening.md). What is kept must be exactly what a whole load
// holds of those lanes and that range, and the trace must say what was left out.

#include "cli/commands.h"
#include "core/analysis/analysis.h"
#include "core/io/chrome/chrome_trace_reader.h"
#include "core/io/trace_file.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <sstream>

namespace gapscope {
namespace {

const std::string kResnet = test::kResnet50Trace;

struct Counts {
    std::size_t events = 0;
    std::size_t gpuEvents = 0;
    std::size_t hostLanesWithEvents = 0;
};

Counts countOf(const Trace& trace, const ReadFilter& keep = {})
{
    Counts c;
    for (const Lane& lane : trace.lanes()) {
        std::size_t kept = 0;
        for (const Event& e : lane.events) {
            if (!keep.keeps(e.kind, e.start, e.end))
                continue;
            ++kept;
            c.gpuEvents += isGpuLaneKind(e.kind) ? 1 : 0;
        }
        c.events += kept;
        c.hostLanesWithEvents += lane.kind == LaneKind::GpuStream || kept == 0 ? 0 : 1;
    }
    return c;
}

Trace load(const std::string& path, const ReadFilter& filter = {})
{
    auto loaded = loadTraceFile(path, {}, filter);
    EXPECT_TRUE(loaded.ok()) << loaded.error().toString();
    return loaded.ok() ? std::move(loaded.value()) : Trace {};
}

TEST(ReadFilter, GpuOnlyKeepsEveryGpuEventAndTheirFigures)
{
    const std::string path = test::dataPath(kResnet);
    const Trace whole = load(path);
    ReadFilter gpuOnly;
    gpuOnly.gpuOnly = true;
    const Trace part = load(path, gpuOnly);

    const Counts all = countOf(whole);
    const Counts kept = countOf(part);
    EXPECT_EQ(kept.events, all.gpuEvents);
    EXPECT_EQ(kept.gpuEvents, all.gpuEvents);
    EXPECT_EQ(kept.hostLanesWithEvents, 0u);
    EXPECT_GT(all.events - all.gpuEvents, 10000u); // the demo's CPU ops and API calls: most of the file

    // The first warning says what was left out, with the count.
    ASSERT_FALSE(part.warnings().empty());
    EXPECT_EQ(part.warnings().front().place, "the whole file");
    EXPECT_EQ(part.warnings().front().message,
        "loaded only the GPU lanes: " + std::to_string(all.events - all.gpuEvents)
            + " events were not loaded, and every figure covers only what was loaded");
    EXPECT_EQ(part.skippedEvents(), whole.skippedEvents());
    // The dropped host events still name the process: the same pid and name as the whole load's.
    ASSERT_EQ(part.processes().size(), whole.processes().size());
    EXPECT_EQ(part.processes()[0].pid, whole.processes()[0].pid);
    EXPECT_EQ(part.processes()[0].name, whole.processes()[0].name);

    // Busy time, the GPU window and the gaps need only the GPU lanes: they are the whole load's.
    const AnalysisResult a = analyze(whole, AnalysisOptions {});
    const AnalysisResult b = analyze(part, AnalysisOptions {});
    ASSERT_EQ(a.devices.size(), 1u);
    ASSERT_EQ(b.devices.size(), 1u);
    EXPECT_EQ(b.devices[0].busyNs, a.devices[0].busyNs);
    EXPECT_EQ(b.devices[0].window.start(), a.devices[0].window.start());
    EXPECT_EQ(b.devices[0].window.end(), a.devices[0].window.end());
    EXPECT_EQ(b.gaps.size(), a.gaps.size());
}

TEST(ReadFilter, TimeRangeKeepsExactlyTheEventsOverlappingIt)
{
    const std::string path = test::dataPath(kResnet);
    const Trace whole = load(path);
    const auto span = whole.timeSpan();
    ASSERT_TRUE(span.has_value());
    // The middle third of the trace, on its own clock.
    ReadFilter range;
    range.from = span->first + (span->second - span->first) / 3;
    range.to = span->first + 2 * (span->second - span->first) / 3;
    const Trace part = load(path, range);

    const Counts expected = countOf(whole, range);
    const Counts kept = countOf(part);
    EXPECT_EQ(kept.events, expected.events);
    EXPECT_EQ(kept.gpuEvents, expected.gpuEvents);
    EXPECT_LT(kept.events, countOf(whole).events * 2 / 3);
    for (const Lane& lane : part.lanes()) {
        for (const Event& e : lane.events)
            ASSERT_TRUE(e.start < range.to && e.end > range.from) << e.start << " " << e.end;
    }
    ASSERT_FALSE(part.warnings().empty());
    EXPECT_NE(part.warnings().front().message.find("only events overlapping [" + std::to_string(range.from) + ", "
                  + std::to_string(range.to) + ") ns on the trace's clock"),
        std::string::npos)
        << part.warnings().front().message;
}

// A hand-built file: a launch at 10-15 µs linked by a flow to its kernel at 20-30 µs, a B/E step 0-100 µs around
// them, and a second kernel at 200-210 µs with its launch at 190-195 µs.
const char* kSmall = R"({"traceEvents": [
  {"ph": "B", "name": "ProfilerStep#1", "cat": "user_annotation", "pid": 1, "tid": 1, "ts": 0},
  {"ph": "X", "name": "cudaLaunchKernel", "cat": "cuda_runtime", "pid": 1, "tid": 1, "ts": 10, "dur": 5,
   "args": {"correlation": 7}},
  {"ph": "s", "id": 7, "cat": "ac2g", "pid": 1, "tid": 1, "ts": 10},
  {"ph": "X", "name": "k1", "cat": "kernel", "pid": 0, "tid": 7, "ts": 20, "dur": 10,
   "args": {"device": 0, "stream": 7, "correlation": 7}},
  {"ph": "f", "id": 7, "cat": "ac2g", "pid": 0, "tid": 7, "ts": 20, "bp": "e"},
  {"ph": "E", "pid": 1, "tid": 1, "ts": 100},
  {"ph": "X", "name": "cudaLaunchKernel", "cat": "cuda_runtime", "pid": 1, "tid": 1, "ts": 190, "dur": 5,
   "args": {"correlation": 9}},
  {"ph": "X", "name": "k2", "cat": "kernel", "pid": 0, "tid": 7, "ts": 200, "dur": 10,
   "args": {"device": 0, "stream": 7, "correlation": 9}}
]})";

TEST(ReadFilter, HandBuiltSlicesFlowsAndRanges)
{
    ChromeReadOptions gpu;
    gpu.filter.gpuOnly = true;
    auto gpuOnly = ChromeTraceReader::parse(kSmall, "small.json", gpu);
    ASSERT_TRUE(gpuOnly.ok()) << gpuOnly.error().toString();
    // Two kernels; the step's B/E pair and both launches dropped, no "E without B" or flow warning.
    EXPECT_EQ(countOf(gpuOnly.value()).events, 2u);
    EXPECT_EQ(countOf(gpuOnly.value()).gpuEvents, 2u);
    EXPECT_EQ(gpuOnly.value().skippedEvents(), 0u);
    ASSERT_EQ(gpuOnly.value().warnings().size(), 1u) << gpuOnly.value().warnings().back().toString();
    EXPECT_EQ(gpuOnly.value().warnings()[0].toString(),
        "small.json: the whole file: loaded only the GPU lanes: 3 events were not loaded, and every figure covers "
        "only what was loaded");

    // [150, 300) µs: the second launch and kernel; the step (0-100 µs) ends before it.
    ChromeReadOptions late;
    late.filter.from = 150'000;
    late.filter.to = 300'000;
    auto ranged = ChromeTraceReader::parse(kSmall, "small.json", late);
    ASSERT_TRUE(ranged.ok()) << ranged.error().toString();
    const Trace& trace = ranged.value();
    EXPECT_EQ(countOf(trace).events, 2u);
    EXPECT_EQ(countOf(trace).gpuEvents, 1u);
    EXPECT_EQ(trace.skippedEvents(), 0u);
    // The kept launch still links its kernel (correlation 9).
    for (const Lane& lane : trace.lanes()) {
        for (const Event& e : lane.events) {
            EXPECT_EQ(e.correlation, 9u);
            EXPECT_GE(e.start, 190'000);
        }
    }
    EXPECT_NE(trace.warnings()[0].message.find("3 events were not loaded"), std::string::npos);

    // [50, 60) µs: only the step overlaps (its end is known at "E"): the slice is kept whole.
    ChromeReadOptions inside;
    inside.filter.from = 50'000;
    inside.filter.to = 60'000;
    auto step = ChromeTraceReader::parse(kSmall, "small.json", inside);
    ASSERT_TRUE(step.ok());
    ASSERT_EQ(countOf(step.value()).events, 1u);
    for (const Lane& lane : step.value().lanes()) {
        for (const Event& e : lane.events) {
            EXPECT_EQ(e.start, 0);
            EXPECT_EQ(e.end, 100'000);
        }
    }
}

TEST(ReadFilter, NativeCaptureKeepsTheSameAsTheJsonItWasWrittenFrom)
{
    test::TempDir dir;
    const Trace whole = load(test::dataPath(kResnet));
    const std::string capture = dir.file("resnet.gapscope");
    ASSERT_TRUE(saveTraceFile(whole, capture).ok());
    ReadFilter gpuOnly;
    gpuOnly.gpuOnly = true;
    const Trace part = load(capture, gpuOnly);
    EXPECT_EQ(countOf(part).events, countOf(whole).gpuEvents);
    EXPECT_EQ(countOf(part).hostLanesWithEvents, 0u);
    ASSERT_FALSE(part.warnings().empty());
    EXPECT_EQ(part.warnings().front().message,
        "loaded only the GPU lanes: " + std::to_string(countOf(whole).events - countOf(whole).gpuEvents)
            + " events were not loaded, and every figure covers only what was loaded");
}

TEST(ReadFilter, NsysExportsRefuseAPartialLoadByName)
{
    const std::string path = test::dataPath("nsys/nsys-ai/mock.sqlite");
    ReadFilter gpuOnly;
    gpuOnly.gpuOnly = true;
    auto loaded = loadTraceFile(path, {}, gpuOnly);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().file, path);
    EXPECT_NE(loaded.error().message.find("an Nsight Systems export loads whole"), std::string::npos);
}

TEST(ReadFilter, ReportSaysWhatItLoaded)
{
    const std::string path = test::dataPath(kResnet);
    std::ostringstream whole, part, err;
    ASSERT_EQ(cli::runReport({ path }, whole, err), 0);
    ASSERT_EQ(cli::runReport({ "--gpu-only", path }, part, err), 0) << err.str();
    EXPECT_NE(part.str().find("launch threshold 30.00 µs, loaded only the GPU lanes\n"), std::string::npos)
        << part.str();
    // The device figures do not depend on the host lanes: the same lines as the whole load's.
    for (const char* line :
        { "  busy         603.6 ms     utilization 60.57 %", "  idle         392.9 ms     in 8285 gaps" }) {
        EXPECT_NE(whole.str().find(line), std::string::npos) << whole.str();
        EXPECT_NE(part.str().find(line), std::string::npos) << part.str();
    }
    EXPECT_NE(err.str().find(": the whole file: loaded only the GPU lanes: "), std::string::npos) << err.str();

    std::ostringstream json;
    ASSERT_EQ(
        cli::runReport({ "--json", "--load-range", "1623142623529248000:1623142624000000000", path }, json, err), 0);
    EXPECT_NE(json.str().find("\"loaded\": \"only events overlapping [1623142623529248000, 1623142624000000000) ns on "
                              "the trace's clock\""),
        std::string::npos)
        << json.str().substr(0, 400);

    std::ostringstream out, bad;
    EXPECT_EQ(cli::runReport({ "--load-range", "5ms:2ms", path }, out, bad), 2);
    EXPECT_NE(bad.str().find("--load-range must be T0:T1 with T0 < T1"), std::string::npos) << bad.str();
}

} // namespace
} // namespace gapscope
