// SPDX-License-Identifier: MIT
#include "app/timeline/timeline_view.h"
#include "timeline/timeline_test_traces.h"

#include <QApplication>
#include <QMouseEvent>
#include <QTest>
#include <QWheelEvent>

#include <gtest/gtest.h>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

// makeSmallTrace(): bounds [1000, 9000); thread 1 is lane 0 (step, two launches, a sync), stream 7
// is lane 1 (k1 [2000, 3000) launched by lane 0 event 1, k2 [7000, 7500) launched by lane 0 event 2).
class TimelineViewTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_trace = std::make_shared<const Trace>(test::makeSmallTrace());
        m_index = std::make_shared<const TimelineIndex>(TimelineIndex::build(*m_trace));
        m_view = std::make_unique<TimelineView>(&m_state);
        m_view->resize(1300, 500);
        m_view->show();
        m_view->setTrace(LoadedTrace { m_trace, m_index, {} });
        QApplication::processEvents();
    }

    TimeAxis axis() const { return m_view->scene().axis; }
    int labelWidth() const { return m_view->scene().labelWidth; }
    // Viewport point at axis x and the middle of nesting row `depth` of a lane.
    QPoint pointAt(double axisX, LaneIndex lane, int depth) const
    {
        const TimelineScene scene = m_view->scene();
        const int top = *m_view->layout().laneDepthTop(lane, depth);
        return QPoint(static_cast<int>(axisX) + scene.labelWidth,
            TimelinePainter::contentYToScreen(scene, top) + m_view->layout().metrics().depthRowHeight / 2);
    }
    QPoint pointAtTime(TimeNs t, LaneIndex lane, int depth) const
    {
        return pointAt(axis().timeToX(t) + 0.5, lane, depth);
    }

    void mouse(QEvent::Type type, QPoint pos, Qt::MouseButton button, Qt::MouseButtons buttons,
        Qt::KeyboardModifiers modifiers = {})
    {
        QMouseEvent event(type, pos, m_view->viewport()->mapToGlobal(pos), button, buttons, modifiers);
        QApplication::sendEvent(m_view->viewport(), &event);
    }
    void drag(QPoint from, QPoint to, Qt::KeyboardModifiers modifiers = {})
    {
        mouse(QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton, modifiers);
        mouse(QEvent::MouseMove, (from + to) / 2, Qt::NoButton, Qt::LeftButton, modifiers);
        mouse(QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton, modifiers);
        mouse(QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton, modifiers);
    }
    void key(Qt::Key k, Qt::KeyboardModifiers modifiers = {}) { QTest::keyClick(m_view.get(), k, modifiers); }

    TimelineState m_state;
    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const TimelineIndex> m_index;
    std::unique_ptr<TimelineView> m_view;
};

TEST_F(TimelineViewTest, StartsShowingTheWholeTrace)
{
    EXPECT_EQ(m_state.visibleRange(), (TimeRange { 1000, 9000 }));
    EXPECT_EQ(m_state.bounds(), (TimeRange { 1000, 9000 }));
    EXPECT_FALSE(m_state.canGoBack());
}

TEST_F(TimelineViewTest, WheelZoomsAroundTheCursor)
{
    const double x = 250.0;
    const TimeNs underCursor = axis().xToTime(x);
    const QPoint pos(labelWidth() + static_cast<int>(x), 100);
    QWheelEvent wheel(pos, m_view->viewport()->mapToGlobal(pos), {}, QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
        Qt::NoScrollPhase, false);
    QApplication::sendEvent(m_view->viewport(), &wheel);
    // One notch zooms by 2^(1/4): 8000 ns become 6727 ns, and the time under the cursor stays there.
    EXPECT_EQ(m_state.visibleRange().second - m_state.visibleRange().first, 6727);
    EXPECT_NEAR(static_cast<double>(axis().xToTime(x)), static_cast<double>(underCursor), 1.0);
    EXPECT_TRUE(m_state.canGoBack());
}

TEST_F(TimelineViewTest, KeysZoomAndPanLikeOtherViewers)
{
    // The cursor is outside the lanes: W and S zoom around the middle (t 5000).
    key(Qt::Key_W);
    EXPECT_EQ(m_state.visibleRange(), (TimeRange { 1800, 8200 }));
    key(Qt::Key_S);
    EXPECT_EQ(m_state.visibleRange(), (TimeRange { 1000, 9000 }));
    // D pans later by a tenth of the span (800 ns), stopped by the 5 % margin after the end (9400).
    key(Qt::Key_D);
    EXPECT_EQ(m_state.visibleRange(), (TimeRange { 1400, 9400 }));
    key(Qt::Key_A);
    EXPECT_EQ(m_state.visibleRange(), (TimeRange { 600, 8600 }));
}

TEST_F(TimelineViewTest, BackAndForwardThroughZoomHistory)
{
    m_view->zoomToRange(2000, 3000, 0.0);
    m_view->zoomToRange(7000, 7500, 0.0);
    EXPECT_EQ(m_state.visibleRange(), (TimeRange { 7000, 7500 }));
    m_state.goBack();
    EXPECT_EQ(m_state.visibleRange(), (TimeRange { 2000, 3000 }));
    m_state.goBack();
    EXPECT_EQ(m_state.visibleRange(), (TimeRange { 1000, 9000 }));
    EXPECT_FALSE(m_state.canGoBack());
    m_state.goForward();
    EXPECT_EQ(m_state.visibleRange(), (TimeRange { 2000, 3000 }));
    // A new jump clears what was ahead.
    m_view->zoomToRange(5000, 5100, 0.0);
    EXPECT_FALSE(m_state.canGoForward());
}

TEST_F(TimelineViewTest, ClickSelectsTheEventAndDrawsItsLaunchFlow)
{
    const QPoint onK1 = pointAtTime(2500, LaneIndex { 1 }, 0);
    mouse(QEvent::MouseButtonPress, onK1, Qt::LeftButton, Qt::LeftButton);
    mouse(QEvent::MouseButtonRelease, onK1, Qt::LeftButton, Qt::NoButton);
    ASSERT_EQ(m_state.selectedEvent(), (EventRef { LaneIndex { 1 }, 0 }));
    // k1's launch is the cudaLaunchKernel at [1000, 1100) (lane 0, index 1), by correlation id 1.
    const auto flows = m_view->scene().flows;
    ASSERT_EQ(flows.size(), 1u);
    EXPECT_EQ(flows[0].first, (EventRef { LaneIndex { 0 }, 1 }));
    EXPECT_EQ(flows[0].second, (EventRef { LaneIndex { 0 + 1 }, 0 }));
    // And vice versa: selecting the launch draws the flow to k1.
    const QPoint onLaunch = pointAtTime(5050, LaneIndex { 0 }, 1);
    mouse(QEvent::MouseButtonPress, onLaunch, Qt::LeftButton, Qt::LeftButton);
    mouse(QEvent::MouseButtonRelease, onLaunch, Qt::LeftButton, Qt::NoButton);
    ASSERT_EQ(m_state.selectedEvent(), (EventRef { LaneIndex { 0 }, 2 }));
    ASSERT_EQ(m_view->scene().flows.size(), 1u);
    EXPECT_EQ(m_view->scene().flows[0].second, (EventRef { LaneIndex { 1 }, 1 }));
    // A click on empty lane space clears the selection.
    const QPoint empty = pointAtTime(4000, LaneIndex { 1 }, 0);
    mouse(QEvent::MouseButtonPress, empty, Qt::LeftButton, Qt::LeftButton);
    mouse(QEvent::MouseButtonRelease, empty, Qt::LeftButton, Qt::NoButton);
    EXPECT_EQ(m_state.selectedEvent(), std::nullopt);
}

TEST_F(TimelineViewTest, DoubleClickAndFFitTheEvent)
{
    const QPoint onK2 = pointAtTime(7200, LaneIndex { 1 }, 0);
    mouse(QEvent::MouseButtonDblClick, onK2, Qt::LeftButton, Qt::LeftButton);
    // k2 [7000, 7500) with a quarter of its length on each side.
    EXPECT_EQ(m_state.visibleRange(), (TimeRange { 6875, 7625 }));
    EXPECT_EQ(m_state.selectedEvent(), (EventRef { LaneIndex { 1 }, 1 }));
    m_view->fitAll();
    m_state.selectEvent(EventRef { LaneIndex { 1 }, 0 });
    key(Qt::Key_F);
    EXPECT_EQ(m_state.visibleRange(), (TimeRange { 1750, 3250 }));
    key(Qt::Key_F, Qt::ShiftModifier);
    EXPECT_EQ(m_state.visibleRange(), (TimeRange { 1000, 9000 }));
}

TEST_F(TimelineViewTest, DragPansAndShiftDragSelectsARange)
{
    m_view->zoomToRange(4000, 6000, 0.0);
    const double nsPerPixel = axis().nsPerPixel();
    const QPoint from = pointAt(500, LaneIndex { 1 }, 0);
    drag(from, from + QPoint(100, 0));
    // The content follows the mouse: 100 px later on screen is 100 px of time earlier in view.
    EXPECT_NEAR(static_cast<double>(m_state.visibleRange().first), 4000.0 - 100.0 * nsPerPixel, 1.0);
    EXPECT_EQ(m_state.selectedRange(), std::nullopt);

    const TimeAxis before = axis();
    drag(pointAt(100, LaneIndex { 1 }, 0), pointAt(300, LaneIndex { 1 }, 0), Qt::ShiftModifier);
    ASSERT_TRUE(m_state.selectedRange().has_value());
    EXPECT_EQ(*m_state.selectedRange(), (TimeRange { before.xToTime(100), before.xToTime(300) }));
    // The lane it was drawn on comes with it (a note made from the range concerns that lane).
    EXPECT_EQ(m_state.selectedRangeLane(), LaneIndex { 1 });
    EXPECT_EQ(m_view->laneAtPoint(pointAt(100, LaneIndex { 1 }, 0)), LaneIndex { 1 });
    EXPECT_EQ(axis(), before); // selecting does not pan
}

TEST_F(TimelineViewTest, ClickingAGroupHeaderCollapsesIt)
{
    const auto rowsBefore = m_view->layout().rows().size();
    ASSERT_EQ(rowsBefore, 5u); // process, thread, device, utilization, stream
    const int headerY = m_view->scene().rulerHeight + 5;
    mouse(QEvent::MouseButtonPress, QPoint(20, headerY), Qt::LeftButton, Qt::LeftButton);
    mouse(QEvent::MouseButtonRelease, QPoint(20, headerY), Qt::LeftButton, Qt::NoButton);
    // The process's thread folds away; its GPU is a group of its own and stays: device, utilization, stream.
    ASSERT_EQ(m_view->layout().rows().size(), 4u);
    EXPECT_TRUE(m_view->layout().rows()[0].collapsed);
    EXPECT_EQ(m_view->layout().rows()[1].kind, RowKind::DeviceHeader);
    EXPECT_EQ(m_view->layout().rows()[3].kind, RowKind::StreamLane);
    mouse(QEvent::MouseButtonPress, QPoint(20, headerY), Qt::LeftButton, Qt::LeftButton);
    EXPECT_EQ(m_view->layout().rows().size(), rowsBefore);
}

} // namespace
