// SPDX-License-Identifier: MIT
// Nothing is drawn over the lanes' data but what belongs to it: the gap legend
// lives in the Gaps dock (it hid kernels at the bottom right), search matches are outlined, and a frame
// says when the timeline has the keyboard focus.
#include "app/mainwindow/gaps_dock.h"
#include "app/timeline/timeline_palette.h"
#include "app/timeline/timeline_view.h"
#include "tests/make_event.h"
#include "timeline/timeline_test_traces.h"

#include <QApplication>
#include <QLabel>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

// makeSmallTrace(): thread 1 is lane 0, stream 7 is lane 1 with k1 [2000, 3000) and k2 [7000, 7500).
class TimelineOverlaysTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_trace = std::make_shared<const Trace>(test::makeSmallTrace());
        m_index = std::make_shared<const TimelineIndex>(TimelineIndex::build(*m_trace));
        m_view = std::make_unique<TimelineView>(&m_state);
        // Just tall enough for every row: the stream lane is the bottom row, where the legend box was.
        m_view->resize(1300, 166);
        m_view->show();
        m_view->setTrace(LoadedTrace { m_trace, m_index, {} });
        m_view->setAnalysis(makeAnalysisSnapshot(*m_trace, analyze(*m_trace, AnalysisOptions {})));
        QApplication::processEvents();
    }

    TimelineState m_state;
    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const TimelineIndex> m_index;
    std::unique_ptr<TimelineView> m_view;
};

TEST(TimelineLegend, KernelAtTheBottomRightIsNotHiddenByALegend)
{
    // makeSmallTrace's lanes and five more threads above the stream, so that the stream lane can sit at the
    // bottom of the lanes, where the legend box was drawn over them: [right - 478, right - 8] x
    // [bottom - 30, bottom - 8].
    TraceBuilder built(test::makeSmallTrace());
    for (int t = 0; t < 5; ++t) {
        const LaneIndex lane = built.threadLane(ProcessIndex { 0 }, 50 + t);
        built.lanes()[lane.value].events.push_back(test::makeEvent(built, EventKind::CpuOp, "busy", 1000, 2000));
    }
    const auto trace = std::make_shared<const Trace>(std::move(built).finish());
    const auto index = std::make_shared<const TimelineIndex>(TimelineIndex::build(*trace));
    TimelineState state;
    TimelineView view(&state);
    view.resize(1300, 600);
    view.show();
    view.setTrace(LoadedTrace { trace, index, {} });
    view.setAnalysis(makeAnalysisSnapshot(*trace, analyze(*trace, AnalysisOptions {})));
    std::uint32_t stream = 0;
    while (trace->lanes()[stream].kind != LaneKind::GpuStream)
        ++stream;
    const EventRef k2 { LaneIndex { stream }, 1 };
    // Shrink the view until the stream lane's middle is 19 px above the lanes' bottom (inside the old box).
    const auto middleOfK2 = [&] { return TimelinePainter::eventRect(view.scene(), k2)->center().y(); };
    view.resize(1300, view.height() - (TimelinePainter::lanesRect(view.scene()).bottom() - 19 - middleOfK2()));
    QApplication::processEvents();
    view.zoomToRange(1000, 7500, 0.0); // k2 [7000, 7500) fills the right end of the view
    const TimelineScene scene = view.scene();
    const QRect lanes = TimelinePainter::lanesRect(scene);
    const auto rect = TimelinePainter::eventRect(scene, k2);
    ASSERT_TRUE(rect);
    ASSERT_GE(rect->center().y(), lanes.bottom() - 30);
    ASSERT_LE(rect->bottom(), lanes.bottom() - 8);
    const QImage image = view.canvas()->grab().toImage();
    const QColor k2Colour = eventColor(trace->event(k2));
    // Columns off the ruler's major ticks, whose faint grid lines cross the lanes.
    std::vector<int> grid;
    for (const RulerTick& tick : rulerTicks(scene.axis, scene.origin, 90.0)) {
        if (tick.major)
            grid.push_back(static_cast<int>(std::floor(tick.x)) + scene.labelWidth);
    }
    int checked = 0;
    for (int x = std::max(rect->left() + 2, lanes.right() - 470); x < std::min(rect->right() - 2, lanes.right() - 10);
         x += 3) {
        if (std::find(grid.begin(), grid.end(), x) != grid.end())
            continue;
        // The bottom row of k2's rectangle: under its name's text, inside where the box was.
        EXPECT_EQ(image.pixelColor(x, rect->bottom()), k2Colour) << "x " << x;
        ++checked;
    }
    EXPECT_GT(checked, 15);
}

TEST(GapsDockLegend, NamesEveryCauseInItsBandColour)
{
    app::GapsDock dock;
    const QString html = dock.legend()->text();
    for (int c = 0; c < kGapCauseCount; ++c) {
        const auto cause = static_cast<GapCause>(c);
        const std::string_view name = gapCauseName(cause);
        EXPECT_TRUE(html.contains(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()))));
        // The swatch is the colour a band has over a lane.
        EXPECT_TRUE(html.contains(blendOver(laneBackground(false), gapBandColor(cause, false)).name()));
    }
    dock.setLegendVisible(false);
    EXPECT_TRUE(dock.legend()->isHidden());
}

TEST_F(TimelineOverlaysTest, SearchMatchesAreOutlinedAndFocusIsFramed)
{
    // Outline k1 and k2 (the names matching "k"), not the launch calls.
    std::vector<bool> names(m_trace->strings().size(), false);
    names[m_trace->lanes()[1].events[0].name.value] = true;
    names[m_trace->lanes()[1].events[1].name.value] = true;
    m_view->setHighlightedNames(names);
    m_view->zoomToRange(1000, 9000, 0.0);
    const TimelineScene scene = m_view->scene();
    const auto k1 = TimelinePainter::eventRect(scene, EventRef { LaneIndex { 1 }, 0 });
    ASSERT_TRUE(k1);
    QImage image = m_view->canvas()->grab().toImage();
    // The outline is 2 px inside the event's rectangle; its middle keeps the event's colour.
    EXPECT_EQ(image.pixelColor(k1->center().x(), k1->top() + 1), searchMatchColor());
    EXPECT_EQ(image.pixelColor(k1->center()), eventColor(m_trace->lanes()[1].events[0]));
    // A launch call is not outlined.
    const auto launch = TimelinePainter::eventRect(scene, EventRef { LaneIndex { 0 }, 1 });
    ASSERT_TRUE(launch);
    EXPECT_NE(image.pixelColor(launch->left() + 1, launch->top() + 1), searchMatchColor());

    // Without the focus no frame; with it, a frame around the lanes.
    const QRect lanes = TimelinePainter::lanesRect(scene);
    m_view->clearFocus();
    QApplication::processEvents();
    image = m_view->canvas()->grab().toImage();
    EXPECT_FALSE(m_view->scene().focused);
    EXPECT_NE(image.pixelColor(lanes.left() + 1, lanes.center().y()), focusFrameColor());
    m_view->activateWindow();
    m_view->setFocus();
    QApplication::processEvents();
    if (!m_view->hasFocus())
        GTEST_SKIP() << "the platform gives no focus to the widget";
    EXPECT_TRUE(m_view->scene().focused);
    image = m_view->canvas()->grab().toImage();
    EXPECT_EQ(image.pixelColor(lanes.left() + 1, lanes.center().y()), focusFrameColor());
}

} // namespace
