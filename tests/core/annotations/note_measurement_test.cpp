// SPDX-License-Identifier: MIT
// The hypothesis loop end to end: a note written on the longest gap of the host-bound ResNet-50 run, measured
// against the run with four data-loader workers.
#include "core/annotations/annotation_json.h"
#include "core/annotations/gap_explanation.h"
#include "core/annotations/markdown_report.h"
#include "core/annotations/note_measurement.h"
#include "core/io/trace_file.h"
#include "tests/core/hand_trace.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

namespace gapscope {
namespace {

constexpr TimeNs kUs = 1000;
const std::string kResnet0 = test::kResnet50Trace;
const std::string kResnet4 = test::kResnet50Workers4Trace;

using test::load;

/// The note "Explain this gap…" pre-fills for the longest device gap.
Annotation noteOnLongestGap(const Trace& trace)
{
    const AnalysisResult result = analyze(trace, {});
    const std::vector<std::size_t> longest = longestDeviceGaps(result, 1);
    if (longest.empty())
        throw std::runtime_error("no gap");
    Annotation note = explainGap(trace, result, result.gaps[longest.front()]);
    note.id = "longest-gap";
    return note;
}

TEST(NoteMeasurement, MoreDataLoaderWorkersSupportTheHostGapHypothesis)
{
    const Trace before = load(kResnet0);
    const Trace after = load(kResnet4);
    Annotation note = noteOnLongestGap(before);
    ASSERT_TRUE(note.gap);
    // The data loader runs on the main thread: the longest gap waits for the host.
    EXPECT_EQ(note.gap->cause, "host");
    EXPECT_FALSE(note.record.hypothesis.empty());

    const AnalysisOptions options = noteComparisonOptions(before);
    EXPECT_EQ(options.window.kind, WindowKind::Steps);
    EXPECT_EQ(options.window.warmupSteps, 1);
    const NoteMeasurement m = measureNoteAgainst(before, after, note, options);
    // Steps 6-10 of each run (TensorBoard plugin durations; see compare_test.cpp): p50 175153 -> 126183 µs.
    EXPECT_EQ(m.steps.base.p50Ns, 175153 * kUs);
    EXPECT_EQ(m.steps.fresh.p50Ns, 126183 * kUs);
    EXPECT_NEAR(m.steps.test->pValue, 2.0 / 252.0, 1e-12);
    EXPECT_EQ(m.steps.verdict, Verdict::Faster);
    EXPECT_EQ(m.figure, "host idle");
    EXPECT_LT(m.figureAfterNs, m.figureBeforeNs);
    // Over the steps window (warm-up 1 excluded) on device 0: the five counted steps.
    EXPECT_EQ(m.windowBeforeNs, (175153 + 179733 + 174564 + 182172 + 165983) * kUs);
    EXPECT_EQ(m.proposedStatus, AnnotationStatus::Supported);

    const std::string& text = m.performanceChange;
    for (const std::string expected :
        { "over the steps window (warm-up 1 excluded)", "step p50 175.2 ms -> 126.2 ms (-48.97 ms, -27.96 %)",
            "p = 0.0079 (Mann-Whitney U, exact, 5 vs 5 steps): faster.", "Host idle ", "Caveat: one run per side",
            "Proposed status: supported (step time is faster for real and host idle fell" })
        EXPECT_NE(text.find(expected), std::string::npos) << expected << "\nin: " << text;

    applyNoteMeasurement(note, m, "../resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz");
    EXPECT_EQ(note.record.performanceChange, m.performanceChange);
    EXPECT_EQ(note.status, AnnotationStatus::Open); // proposed, not decided: the user confirms

    // The after trace survives the sidecar; a sidecar without it (written before it existed) still loads.
    AnnotationDocument document;
    document.annotations = { note };
    const auto reread = parseAnnotationDocument(serializeAnnotationDocument(document), "sidecar");
    ASSERT_TRUE(reread) << reread.error().toString();
    EXPECT_EQ(reread.value().annotations.front(), note);
    const auto old = parseAnnotationDocument(
        R"({"format": "gapscope-annotations", "version": 1, "annotations": [{"id": "a", "start": 1, "end": 2}]})",
        "old");
    ASSERT_TRUE(old);
    EXPECT_TRUE(old.value().annotations.front().afterTrace.empty());

    // The Markdown report carries the before/after table, the verdict and the proposal.
    MarkdownReportOptions report;
    report.measurements[note.id] = m;
    const std::string markdown = writeMarkdownReport(before, { note }, report);
    for (const std::string expected :
        { "- **After trace:** `../resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz`",
            "### Measured against the after trace", "| counted steps | 5 | 5 | |",
            "| step p50 | 175.2 ms | 126.2 ms | -48.97 ms (-28.0 %) |", "**Verdict:** faster (95 % interval",
            "p = 0.0079, Mann-Whitney U exact)", "**Proposed status:** supported", "the note's status is open" })
        EXPECT_NE(markdown.find(expected), std::string::npos) << expected;
}

TEST(NoteMeasurement, ATraceAgainstItselfRefutesTheNote)
{
    const Trace before = load(kResnet0);
    const Trace same = load(kResnet0);
    const Annotation note = noteOnLongestGap(before);
    const NoteMeasurement m = measureNoteAgainst(before, same, note, noteComparisonOptions(before));
    EXPECT_EQ(m.steps.verdict, Verdict::NoDetectableChange);
    EXPECT_EQ(m.figureBeforeNs, m.figureAfterNs);
    EXPECT_EQ(m.proposedStatus, AnnotationStatus::Refuted);
}

TEST(NoteMeasurement, AnUnreadableAfterTraceIsSaidInTheReport)
{
    const Trace before = load(kResnet0);
    Annotation note = noteOnLongestGap(before);
    note.afterTrace = "missing.json";
    MarkdownReportOptions report;
    report.measurementErrors[note.id] = "missing.json: cannot open: No such file or directory";
    const std::string markdown = writeMarkdownReport(before, { note }, report);
    EXPECT_NE(markdown.find("Not measured: missing.json: cannot open"), std::string::npos);
}

} // namespace
} // namespace gapscope
