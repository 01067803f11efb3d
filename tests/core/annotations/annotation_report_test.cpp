// SPDX-License-Identifier: MIT
#include "core/annotations/annotation_figures.h"
#include "core/annotations/markdown_report.h"
#include "core/io/trace_file.h"
#include "core/model/time_format.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace gapscope {
namespace {

std::string percentText(double fraction)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f %%", fraction * 100.0);
    return buffer;
}

/// The table rows of the report that start with `label`, in order.
std::vector<std::string> rowsOf(const std::string& markdown, const std::string& label)
{
    std::vector<std::string> rows;
    const std::string prefix = "| " + label + " |";
    for (std::size_t at = markdown.find(prefix); at != std::string::npos; at = markdown.find(prefix, at + 1))
        rows.push_back(markdown.substr(at, markdown.find('\n', at) - at));
    return rows;
}

/// One GPU (pid 1, device 0, stream 7) with kernels [0, 100) and [150, 200), and a memcpy [60, 120).
Trace smallTrace()
{
    TraceBuilder trace;
    const ProcessIndex p = trace.addProcess({ .pid = 1 });
    const LaneIndex stream = trace.streamLane(trace.device(p, 0), 7);
    const auto add = [&](EventKind kind, const char* name, TimeNs start, TimeNs end) {
        Event e;
        e.kind = kind;
        e.name = trace.strings().intern(name);
        e.start = start;
        e.end = end;
        trace.lanes()[stream.value].events.push_back(e);
    };
    add(EventKind::Kernel, "k1", 0, 100);
    add(EventKind::Memcpy, "Memcpy DtoH", 60, 120);
    add(EventKind::Kernel, "k2", 150, 200);
    return std::move(trace).finish();
}

TEST(MarkdownReport, HandBuiltRangeGivesTheWorkedOutFigures)
{
    const Trace trace = smallTrace();
    Annotation a;
    a.id = "n1";
    a.start = 50;
    a.end = 200;
    a.title = "Copy | compute overlap";
    a.record.problem = "The copy waits";
    a.status = AnnotationStatus::Refuted;
    a.lanes = { LaneIdentity::gpuStream(1, 0, 7) };
    a.created = "2024-05-01T12:34:56Z";
    a.modified = "2024-05-01T13:00:00Z";
    const std::string md = writeMarkdownReport(trace, { a }, { "small.json", "small.json.gapscope.json", {} });

    // [50, 200): busy = [50, 120) ∪ [150, 200) = 120 ns, idle [120, 150) = 30 ns, 80.0 %, one gap.
    // Exposed: compute [50, 100) + [150, 200) = 100, memcpy [100, 120) = 20 (overlapped part not counted),
    // idle 30: sums to the 150 ns window.
    EXPECT_EQ(rowsOf(md, "GPU 0"),
        (std::vector<std::string> { "| GPU 0 | 150 ns | 120 ns | 30 ns | 80.0 % | 1 |",
            "| GPU 0 | 0 ns | 0 ns | 0 ns | 0 ns | 30 ns |", "| GPU 0 | 100 ns | 0 ns | 20 ns | 30 ns |" }))
        << md;
    EXPECT_NE(md.find("# GapScope hypotheses: small.json\n"), std::string::npos);
    EXPECT_NE(md.find("1 note from `small.json.gapscope.json`."), std::string::npos);
    EXPECT_NE(md.find("## 1. Copy \\| compute overlap\n"), std::string::npos) << md; // a | would end a cell
    EXPECT_NE(md.find("- **Status:** refuted\n"), std::string::npos);
    EXPECT_NE(md.find("- **Range:** +50 ns to +200 ns (150 ns), [50, 200) ns on the trace clock\n"), std::string::npos);
    EXPECT_NE(md.find("- **Lanes:** pid 1 GPU 0 stream 7\n"), std::string::npos);
    EXPECT_NE(md.find("- **Created:** 2024-05-01T12:34:56Z; **modified:** 2024-05-01T13:00:00Z\n"), std::string::npos);
    EXPECT_NE(md.find("**Problem.** The copy waits\n"), std::string::npos);
    EXPECT_NE(md.find("**Baseline.** _(not filled in)_\n"), std::string::npos);
}

TEST(MarkdownReport, ZeroLengthAndForeignDeviceNotesSayWhyTheyHaveNoFigures)
{
    const Trace trace = smallTrace();
    Annotation point;
    point.id = "p";
    point.start = point.end = 120;
    point.title = "A moment";
    Annotation other;
    other.id = "o";
    other.start = 0;
    other.end = 200;
    other.title = "Another GPU";
    other.lanes = { LaneIdentity::gpuStream(1, 3, 7) };
    const std::string md = writeMarkdownReport(trace, { point, other }, {});
    EXPECT_NE(md.find("# GapScope hypotheses\n\n2 notes. "), std::string::npos) << md;
    EXPECT_NE(md.find("## 1. A moment\n"), std::string::npos);
    EXPECT_NE(md.find("A zero-length range: nothing to measure."), std::string::npos);
    EXPECT_NE(md.find("## 2. Another GPU\n"), std::string::npos);
    EXPECT_NE(md.find("No GPU that this note concerns is in the trace."), std::string::npos);
    EXPECT_TRUE(rowsOf(md, "pid 1 GPU 0").empty());
}

TEST(MarkdownReport, FiguresOfARealStepMatchAnalyzeOverThatRange)
{
    const std::string path = test::dataPath(test::kResnet50Trace);
    auto loaded = loadTraceFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    const Trace& trace = loaded.value();

    // ProfilerStep#6: 175153 µs, as the TensorBoard plugin reports it (tests/data SOURCES.md).
    const TimeNs stepStart = 1623142623648120000;
    const TimeNs stepEnd = 1623142623823273000;
    ASSERT_EQ(stepEnd - stepStart, 175153000);
    const std::vector<Step> steps = findSteps(trace, "", 0);
    const auto step6
        = std::find_if(steps.begin(), steps.end(), [](const Step& s) { return s.name == "ProfilerStep#6"; });
    ASSERT_NE(step6, steps.end());
    EXPECT_EQ(step6->start, stepStart);
    EXPECT_EQ(step6->end, stepEnd);

    Annotation note;
    note.id = "step6";
    note.start = stepStart;
    note.end = stepEnd;
    note.title = "Step 6 waits for the data loader";
    note.lanes = { LaneIdentity::gpuStream(trace.processes()[0].pid, 0, 7) };
    note.record.problem = "The GPU idles while the main thread loads the next batch";
    note.record.baseline = "step 175 ms";
    note.record.hypothesis = "num_workers=0 starves the GPU";
    note.record.change = "num_workers=4";
    note.record.correctnessCheck = "same loss";
    note.record.performanceChange = "see resnet50_num_workers_4";
    note.record.sideEffects = "more host memory";
    note.status = AnnotationStatus::Supported;
    note.created = note.modified = "2024-05-01T12:34:56Z";
    const std::string md = writeMarkdownReport(trace, { note }, { "worker0.1623143089861.pt.trace.json.gz", "", {} });

    AnalysisOptions options;
    options.window = { WindowKind::Explicit, 0, stepStart, stepEnd };
    const AnalysisResult expected = analyze(trace, options);
    ASSERT_EQ(expected.devices.size(), 1u);
    const DeviceFigures& d = expected.devices[0];
    ASSERT_EQ(d.spanNs, 175153000);
    ASSERT_GT(d.busyNs, 0);
    ASSERT_GT(d.idleNs, 0);
    ASSERT_GT(d.gapCount, 0u);

    const std::string label = "GPU 0 \u00b7 " + trace.devices()[0].name;
    std::string causes = "| " + label + " |";
    for (TimeNs idle : d.idleByCause)
        causes += " " + formatDuration(idle) + " |";
    EXPECT_EQ(rowsOf(md, label),
        (std::vector<std::string> { "| " + label + " | 175.2 ms | " + formatDuration(d.busyNs) + " | "
                + formatDuration(d.idleNs) + " | " + percentText(d.utilization) + " | " + std::to_string(d.gapCount)
                + " |",
            causes,
            "| " + label + " | " + formatDuration(d.exposed.compute) + " | " + formatDuration(d.exposed.communication)
                + " | " + formatDuration(d.exposed.memcpy) + " | " + formatDuration(d.exposed.idle) + " |" }))
        << md;
    // measureAnnotation() is the same computation the viewer shows.
    const AnnotationFigures figures = measureAnnotation(trace, note);
    ASSERT_EQ(figures.devices.size(), 1u);
    EXPECT_EQ(figures.devices[0].busyNs, d.busyNs);
    EXPECT_EQ(figures.devices[0].idleByCause, d.idleByCause);
    EXPECT_EQ(figures.devices[0].gapCount, d.gapCount);

    for (const char* part : { "# GapScope hypotheses: worker0.1623143089861.pt.trace.json.gz\n",
             "## 1. Step 6 waits for the data loader\n", "- **Status:** supported\n",
             "- **Range:** +188.1 ms to +363.3 ms (175.2 ms), [1623142623648120000, 1623142623823273000) ns",
             "### Optimization record\n", "**Problem.** The GPU idles while the main thread loads the next batch\n",
             "**Baseline.** step 175 ms\n", "**Hypothesis.** num_workers=0 starves the GPU\n",
             "**Change.** num_workers=4\n", "**Correctness check.** same loss\n",
             "**Performance change.** see resnet50_num_workers_4\n", "**Side effects.** more host memory\n",
             "### Measured over this range\n" })
        EXPECT_NE(md.find(part), std::string::npos) << "missing: " << part << "\n" << md;
}

} // namespace
} // namespace gapscope
