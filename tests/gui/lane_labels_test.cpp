// SPDX-License-Identifier: MIT
// Lane labels: the label column cuts long ones, so the tooltip over a label gives it whole and the column's
// border drags to widen it (without panning the timeline); and the exported picture's label column fits the
// utilization label with its window ("... % (gpu window)"), which the header's figures are read against.
#include "app/export/annotated_picture.h"
#include "app/mainwindow/main_window.h"
#include "app/timeline/timeline_state.h"
#include "app/timeline/timeline_view.h"
#include "gui/export_test_support.h"
#include "gui/main_window_test_support.h"

#include <QApplication>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>

#include <gtest/gtest.h>

#include <algorithm>

using namespace gapscope;

namespace {

const char* const kResNet = "kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";

const timeline::LayoutRow* utilizationRow(const timeline::LaneLayout& layout)
{
    for (const timeline::LayoutRow& row : layout.rows()) {
        if (row.kind == timeline::RowKind::UtilizationLane)
            return &row;
    }
    return nullptr;
}

class LaneLabels : public ::testing::Test {
protected:
    void SetUp() override
    {
        window.resize(1400, 900);
        window.show();
        QSignalSpy analysed(&window, &app::MainWindow::analysisShown);
        ASSERT_TRUE(test::openAndWait(window, { test::dataFile(kResNet) }));
        if (!window.analysis()) {
            ASSERT_TRUE(analysed.wait(60'000));
        }
    }

    app::MainWindow window;
};

TEST_F(LaneLabels, TooltipOverALabelGivesItWhole)
{
    timeline::TimelineView* view = window.timelineView();
    const timeline::TimelineScene scene = view->scene();
    const timeline::LayoutRow* row = utilizationRow(view->layout());
    ASSERT_NE(row, nullptr);
    const QString label = timeline::TimelinePainter::rowLabel(scene, *row);
    ASSERT_TRUE(label.contains(QStringLiteral("(gpu window)"))) << label.toStdString();
    const QPoint pos(20, timeline::TimelinePainter::contentYToScreen(scene, row->y) + row->height / 2);
    QWidget* viewport = view->viewport();
    QHelpEvent help(QEvent::ToolTip, pos, viewport->mapToGlobal(pos));
    QApplication::sendEvent(viewport, &help);
    EXPECT_EQ(QToolTip::text(), label);
}

TEST_F(LaneLabels, DraggingTheLabelColumnsBorderWidensItWithoutPanning)
{
    timeline::TimelineView* view = window.timelineView();
    QWidget* viewport = view->viewport();
    const auto mouse = [&](QEvent::Type type, QPoint pos, Qt::MouseButton button, Qt::MouseButtons buttons) {
        QMouseEvent event(type, pos, viewport->mapToGlobal(pos), button, buttons, {});
        QApplication::sendEvent(viewport, &event);
    };
    // The row whose label needs the most room (TimelinePainter: text from 6 + 12 per indent, 4 px spare).
    const QFontMetrics metrics(view->font());
    const timeline::LayoutRow* longest = nullptr;
    int needed = 0;
    QString label;
    for (const timeline::LayoutRow& row : view->layout().rows()) {
        const QString text = timeline::TimelinePainter::rowLabel(view->scene(), row);
        const int width = metrics.horizontalAdvance(text) + 6 + row.indent * 12 + 4;
        if (width > needed) {
            longest = &row;
            needed = width;
            label = text;
        }
    }
    ASSERT_NE(longest, nullptr);
    const int before = view->labelWidth();
    ASSERT_EQ(before, timeline::TimelineView::kDefaultLabelWidth);

    const timeline::TimeRange visible = view->state()->visibleRange();
    const timeline::TimelineScene scene = view->scene();
    const int y = timeline::TimelinePainter::contentYToScreen(scene, longest->y) + longest->height / 2;
    // Over the border, the cursor says it can be dragged.
    mouse(QEvent::MouseMove, QPoint(before + 1, y), Qt::NoButton, Qt::NoButton);
    EXPECT_EQ(viewport->cursor().shape(), Qt::SplitHCursor);
    const int wider = std::max(needed + 20, before + 120);
    mouse(QEvent::MouseButtonPress, QPoint(before + 1, y), Qt::LeftButton, Qt::LeftButton);
    mouse(QEvent::MouseMove, QPoint((before + wider) / 2, y), Qt::NoButton, Qt::LeftButton);
    mouse(QEvent::MouseMove, QPoint(wider, y), Qt::NoButton, Qt::LeftButton);
    mouse(QEvent::MouseButtonRelease, QPoint(wider, y), Qt::LeftButton, Qt::NoButton);

    EXPECT_EQ(view->labelWidth(), wider);
    EXPECT_EQ(view->scene().labelWidth, wider);
    EXPECT_EQ(view->state()->visibleRange(), visible) << "the drag panned the timeline";
    EXPECT_EQ(view->scene().axis.width, static_cast<double>(viewport->width() - wider));
    // The longest label fits now, and where the lanes were, the label column answers with the label.
    EXPECT_LE(needed, view->labelWidth()) << label.toStdString();
    const QPoint inWidened(before + 40, y);
    QHelpEvent help(QEvent::ToolTip, inWidened, viewport->mapToGlobal(inWidened));
    QApplication::sendEvent(viewport, &help);
    EXPECT_EQ(QToolTip::text(), label);

    // Never wider than leaves the lanes some room.
    mouse(QEvent::MouseButtonPress, QPoint(wider, y), Qt::LeftButton, Qt::LeftButton);
    mouse(QEvent::MouseMove, QPoint(viewport->width() - 5, y), Qt::NoButton, Qt::LeftButton);
    mouse(QEvent::MouseButtonRelease, QPoint(viewport->width() - 5, y), Qt::LeftButton, Qt::NoButton);
    EXPECT_LT(view->labelWidth(), viewport->width() - 100);
    EXPECT_EQ(view->state()->visibleRange(), visible);
}

TEST_F(LaneLabels, PictureLabelColumnFitsTheUtilizationLabelWithItsWindow)
{
    picture::PictureRequest request = test::viewRequest(window, 1200, 700);
    request.collapse.reset();
    const picture::PicturePlan plan = picture::planPicture(request);
    const timeline::LayoutRow* row = utilizationRow(*plan.layout);
    ASSERT_NE(row, nullptr);
    const QString label = timeline::TimelinePainter::rowLabel(plan.scene, *row);
    ASSERT_TRUE(label.endsWith(QStringLiteral("(gpu window)"))) << label.toStdString();
    const int textLeft = 6 + row->indent * 12;
    EXPECT_GE(plan.scene.labelWidth - textLeft - 4, QFontMetrics(picture::pictureFont()).horizontalAdvance(label))
        << "label column " << plan.scene.labelWidth << " px for \"" << label.toStdString() << "\"";
}

} // namespace
