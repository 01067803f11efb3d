// SPDX-License-Identifier: MIT
// A launch call 30 levels deep (TraceLens' owlv2 has the copy that ends its longest
// gap at depth 26) is drawn, with both ends of its flow, when its gap is selected; deep threads open folded so
// that the GPU lanes are in view; a thread folds and unfolds on its own, and a process folds its threads only.
#include "app/timeline/timeline_palette.h"
#include "app/timeline/timeline_view.h"
#include "tests/make_event.h"

#include <QApplication>
#include <QMouseEvent>

#include <gtest/gtest.h>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

constexpr int kLevels = 30;

// One thread (lane 0) with 29 nested Python frames, the innermost holding cudaMemcpyAsync (depth 29, the
// 30th level) at [50000, 50100) ns, correlation 1; stream 7 (lane 1) runs kernel k0 [2000, 3000) and the
// copy [80000, 81000) that the call launched. The device's longest gap is [3000, 80000), ended by the copy.
Trace makeDeepTrace()
{
    TraceBuilder trace;
    Process process;
    process.pid = 7;
    process.name = "python";
    const ProcessIndex p = trace.addProcess(process);
    const LaneIndex thread = trace.threadLane(p, 1);
    const LaneIndex stream = trace.streamLane(trace.device(p, 0), 7);
    auto& cpu = trace.lanes()[thread.value].events;
    for (int d = 0; d + 1 < kLevels; ++d)
        cpu.push_back(test::makeEvent(
            trace, EventKind::PythonFunction, "frame_" + std::to_string(d), 1000 + d * 10, 100'000 - d * 10));
    cpu.push_back(test::makeEvent(trace, EventKind::RuntimeApi, "cudaMemcpyAsync", 50'000, 50'100, 1));
    auto& gpu = trace.lanes()[stream.value].events;
    gpu.push_back(test::makeEvent(trace, EventKind::Kernel, "k0", 2000, 3000));
    Event copy = test::makeEvent(trace, EventKind::Memcpy, "Memcpy HtoD", 80'000, 81'000, 1);
    copy.copyKind = CopyKind::HtoD;
    copy.bytes = 4096;
    gpu.push_back(copy);
    return std::move(trace).finish();
}

class DeepStackTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_trace = std::make_shared<const Trace>(makeDeepTrace());
        m_index = std::make_shared<const TimelineIndex>(TimelineIndex::build(*m_trace));
        m_view = std::make_unique<TimelineView>(&m_state);
        m_view->resize(1300, 800);
        m_view->show();
        m_view->setTrace(LoadedTrace { m_trace, m_index, {} });
        m_view->setAnalysis(makeAnalysisSnapshot(*m_trace, analyze(*m_trace, AnalysisOptions {})));
        QApplication::processEvents();
    }

    const LayoutRow& threadRow() const { return m_view->layout().rows()[*m_view->layout().rowOfLane(LaneIndex { 0 })]; }

    std::size_t longestGap() const
    {
        const AnalysisResult& result = *m_view->scene().analysis;
        for (std::size_t i = 0; i < result.gaps.size(); ++i) {
            if (!result.gaps[i].stream && result.gaps[i].start == 3000 && result.gaps[i].end == 80'000)
                return i;
        }
        ADD_FAILURE() << "no device gap [3000, 80000)";
        return 0;
    }

    TimelineState m_state;
    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const TimelineIndex> m_index;
    std::unique_ptr<TimelineView> m_view;
};

TEST_F(DeepStackTest, DeepThreadOpensFoldedWithTheGpuLanesInView)
{
    ASSERT_EQ(m_index->depthCount(LaneIndex { 0 }), kLevels);
    const LayoutRow& row = threadRow();
    EXPECT_TRUE(row.foldable);
    EXPECT_TRUE(row.collapsed);
    EXPECT_EQ(row.depthRows, m_view->layout().metrics().foldedDepthRows);
    EXPECT_EQ(TimelinePainter::rowLabel(m_view->scene(), row), QStringLiteral("thread 1 (4 of 30 levels)"));
    // The device's lanes are on screen without scrolling.
    const TimelineScene scene = m_view->scene();
    const auto band = m_view->layout().deviceBand(DeviceIndex { 0 });
    ASSERT_TRUE(band);
    EXPECT_LE(TimelinePainter::contentYToScreen(scene, band->second), scene.height);
}

TEST_F(DeepStackTest, SelectedGapShowsItsLaunchCallThirtyLevelsDeepAndTheFlow)
{
    const std::size_t gap = longestGap();
    m_state.selectGap(gap);
    m_view->revealFlow();
    QApplication::processEvents();
    // The lane unfolded to every level: the launch call at depth 29 has a place on screen (with the old limit
    // of 24 rows it was never drawn, nor the arrow from it).
    EXPECT_EQ(threadRow().depthRows, kLevels);
    EXPECT_FALSE(threadRow().collapsed);
    const TimelineScene scene = m_view->scene();
    ASSERT_EQ(scene.flows.size(), 1u);
    const auto [launch, op] = scene.flows.front();
    EXPECT_EQ(m_trace->event(launch).depth, kLevels - 1);
    EXPECT_EQ(m_trace->name(m_trace->event(launch)), "cudaMemcpyAsync");
    const auto launchRect = TimelinePainter::eventRect(scene, launch);
    const auto opRect = TimelinePainter::eventRect(scene, op);
    ASSERT_TRUE(launchRect);
    ASSERT_TRUE(opRect);
    // Both ends inside the lanes area: both are painted.
    const QRect lanes = TimelinePainter::lanesRect(scene);
    EXPECT_TRUE(lanes.contains(launchRect->center())) << launchRect->top();
    EXPECT_TRUE(lanes.contains(opRect->center())) << opRect->top();
    const QImage image = m_view->canvas()->grab().toImage();
    // The call is narrower than a pixel here: its column has its colour in the middle of its row (the
    // arrow starts at its left edge, so look one pixel to the right of the ellipse's centre row).
    const QColor launchColour = eventColor(m_trace->event(launch));
    bool found = false;
    for (int x = launchRect->left() - 1; x <= launchRect->right() + 1; ++x)
        found = found || image.pixelColor(x, launchRect->bottom() - 1) == launchColour;
    EXPECT_TRUE(found) << "no pixel of the launch call's colour at depth 29";
}

TEST_F(DeepStackTest, AThreadFoldsOnItsOwnAndAProcessFoldsItsThreadsOnly)
{
    // A click on the thread's label unfolds it, another folds it back.
    const TimelineScene scene = m_view->scene();
    const QPoint label(30, TimelinePainter::contentYToScreen(scene, threadRow().y) + 5);
    const auto click = [&](QPoint pos) {
        QMouseEvent press(
            QEvent::MouseButtonPress, pos, m_view->viewport()->mapToGlobal(pos), Qt::LeftButton, Qt::LeftButton, {});
        QApplication::sendEvent(m_view->viewport(), &press);
        QMouseEvent release(
            QEvent::MouseButtonRelease, pos, m_view->viewport()->mapToGlobal(pos), Qt::LeftButton, Qt::NoButton, {});
        QApplication::sendEvent(m_view->viewport(), &release);
    };
    click(label);
    EXPECT_EQ(threadRow().depthRows, kLevels);
    click(label);
    EXPECT_EQ(threadRow().depthRows, 4);

    // Folding the process hides its thread; its GPU keeps its own group: device header, utilization, stream.
    const QPoint processHeader(20, TimelinePainter::contentYToScreen(scene, 0) + 5);
    click(processHeader);
    const auto& rows = m_view->layout().rows();
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[0].kind, RowKind::ProcessHeader);
    EXPECT_TRUE(rows[0].collapsed);
    EXPECT_EQ(rows[1].kind, RowKind::DeviceHeader);
    EXPECT_EQ(rows[3].kind, RowKind::StreamLane);
    EXPECT_EQ(m_view->layout().rowOfLane(LaneIndex { 0 }), std::nullopt);
}

} // namespace
