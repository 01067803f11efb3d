// SPDX-License-Identifier: MIT
// Kineto's `[memory]` instant events and Chrome `C` counter events as counter tracks: on TraceLens' BERT trace
// (PyTorch 2.x, `Total Allocated` and `Total Reserved` in every event) and the TensorBoard plugin's ResNet-50
// sample (PyTorch 1.8, 2021: only `Bytes`), tests/data/NOTICE.md, with the figures computed from the files by a
// Python pass over their events (quoted beside each); and on a trace made here whose figures are worked out.
#include "core/analysis/analysis.h"
#include "core/analysis/counter_figures.h"
#include "core/analysis/gap_evidence.h"
#include "core/io/chrome/chrome_trace_reader.h"
#include "tests/core/hand_trace.h"
#include "tests/core/model/counter_track_named.h"
#include "tests/temp_dir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

namespace gapscope {
namespace {

using test::counterTrackNamed;

using test::load;

double maxValue(const CounterTrack& track)
{
    double m = track.points.front().value;
    for (const CounterPoint& p : track.points)
        m = std::max(m, p.value);
    return m;
}

TEST(ChromeMemoryCounters, BertGpuLaneMaximumIsTheLargestTotalAllocatedOfItsGpuEvents)
{
    const Trace trace = load("tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz");
    // 236 [memory] events: 218 with Device Type 1, Device Id 0, and 18 of the CPU (Device Type 0, Id -1).
    const CounterTrack* allocated = counterTrackNamed(trace, "memory allocated");
    const CounterTrack* reserved = counterTrackNamed(trace, "memory reserved");
    ASSERT_NE(allocated, nullptr);
    ASSERT_NE(reserved, nullptr);
    ASSERT_TRUE(allocated->device.has_value());
    EXPECT_EQ(trace.devices()[allocated->device->value].id, 0);
    EXPECT_EQ(allocated->unit, "bytes");
    EXPECT_TRUE(allocated->note.empty()); // the trace's own totals
    EXPECT_EQ(allocated->points.size(), 218u);
    // max(Total Allocated) of the GPU events: 101,305,344; max(Total Reserved): 121,634,816.
    EXPECT_EQ(maxValue(*allocated), 101'305'344.0);
    EXPECT_EQ(maxValue(*reserved), 121'634'816.0);
    const CounterTrack* cpu = counterTrackNamed(trace, "memory allocated (CPU)");
    ASSERT_NE(cpu, nullptr);
    EXPECT_FALSE(cpu->device.has_value());
    EXPECT_EQ(cpu->points.size(), 18u);
    // Over the whole track (from before its first point to after its last) the figures are the points' own.
    const auto figures = counterFigures(*allocated, allocated->points.front().time, allocated->points.back().time + 1);
    ASSERT_TRUE(figures.has_value());
    EXPECT_EQ(figures->max, 101'305'344.0);
    EXPECT_EQ(figures->min, 91'360'768.0); // min(Total Allocated) of the GPU events
}

TEST(ChromeMemoryCounters, ResNet50OnlyBytesGiveTheRunningSumAndAGapNamesTheFreeInsideIt)
{
    const Trace trace = load("kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
    const CounterTrack* allocated = counterTrackNamed(trace, "memory allocated");
    ASSERT_NE(allocated, nullptr);
    EXPECT_EQ(counterTrackNamed(trace, "memory reserved"), nullptr); // no Total Reserved in the file
    EXPECT_NE(allocated->note.find("running sum"), std::string::npos) << allocated->note;
    // 8,220 GPU events; their Bytes summed in time order peak at 2,791,636,480 and end at 0.
    ASSERT_EQ(allocated->points.size(), 8220u);
    EXPECT_EQ(maxValue(*allocated), 2'791'636'480.0);
    EXPECT_EQ(allocated->points.back().value, 0.0);
    EXPECT_EQ(allocated->points.front().value, 19'267'584.0); // the first event allocates 19,267,584 bytes

    // The device gap [1623142623531272, 1623142623531625) µs holds a free of 19,267,584 bytes at ...531285 µs,
    // the first [memory] event of the GPU inside it.
    const AnalysisResult result = analyze(trace, {});
    std::optional<Gap> found;
    for (const Gap gap : result.gaps) {
        if (!gap.stream && gap.start == 1'623'142'623'531'272'000)
            found = gap;
    }
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->end, 1'623'142'623'531'625'000);
    const GapEvidence evidence = gapEvidence(trace, *found, result.options.launchThresholdNs);
    ASSERT_TRUE(evidence.memoryChange.has_value());
    const CounterPoint& point
        = trace.counters().tracks()[evidence.memoryChange->track].points[evidence.memoryChange->point];
    EXPECT_EQ(point.time, 1'623'142'623'531'285'000);
    EXPECT_NE(evidence.summary.find("a free of 19267584 bytes on the device at +13.0"), std::string::npos)
        << evidence.summary;
}

TEST(ChromeCounterEvents, EachArgumentOfACounterIsATrackSteppedOverTheWindow)
{
    test::TempDir dir;
    const std::string path = dir.file("counters.json");
    std::ofstream(path) << R"({"traceEvents": [
        {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 0, "dur": 100,
         "args": {"device": 0, "stream": 7}},
        {"ph": "C", "name": "queue", "pid": 1, "tid": 1, "ts": 10, "args": {"depth": 2, "bytes": 100}},
        {"ph": "C", "name": "queue", "pid": 1, "tid": 1, "ts": 30, "args": {"depth": 6, "bytes": 50}},
        {"ph": "C", "name": "power", "pid": 1, "tid": 1, "ts": 50, "args": {"value": 300.5}}
    ]})";
    auto loaded = ChromeTraceReader::readFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    const Trace& trace = loaded.value();
    ASSERT_EQ(trace.counters().tracks().size(), 3u);
    const CounterTrack* depth = counterTrackNamed(trace, "queue depth");
    const CounterTrack* bytes = counterTrackNamed(trace, "queue bytes");
    const CounterTrack* power = counterTrackNamed(trace, "power");
    ASSERT_NE(depth, nullptr);
    ASSERT_NE(bytes, nullptr);
    ASSERT_NE(power, nullptr);
    ASSERT_EQ(depth->points.size(), 2u);
    EXPECT_EQ(depth->points[1].time, 30'000);
    EXPECT_EQ(depth->points[1].value, 6.0);
    // Over [0, 100) µs: depth 2 for [10, 30), 6 for [30, 100): mean (2·20 + 6·70) / 90 = 460 / 90.
    const auto figures = counterFigures(*depth, 0, 100'000);
    ASSERT_TRUE(figures.has_value());
    EXPECT_EQ(figures->min, 2.0);
    EXPECT_EQ(figures->max, 6.0);
    EXPECT_DOUBLE_EQ(figures->mean, 460.0 / 90.0);
    EXPECT_EQ(figures->coveredNs, 90'000);
    // Over [40, 60) µs only the value 6 holds (from the point at 30 before it).
    const auto later = counterFigures(*depth, 40'000, 60'000);
    ASSERT_TRUE(later.has_value());
    EXPECT_EQ(later->min, 6.0);
    EXPECT_EQ(later->max, 6.0);
    EXPECT_EQ(later->mean, 6.0);
    // Before the first point nothing is known.
    EXPECT_FALSE(counterFigures(*depth, 0, 10'000).has_value());
    EXPECT_EQ(power->points.front().value, 300.5);
}

} // namespace
} // namespace gapscope
