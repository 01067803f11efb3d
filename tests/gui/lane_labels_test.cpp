// SPDX-License-Identifier: MIT
// Lane labels: the label column cuts long ones, so the tooltip over a label gives it whole; and the exported
// picture's label column fits the utilization label with its window ("... % (gpu window)"), which the header's
// figures are read against.
#include "app/export/annotated_picture.h"
#include "app/mainwindow/main_window.h"
#include "app/timeline/timeline_state.h"
#include "app/timeline/timeline_view.h"
#include "gui/export_test_support.h"
#include "gui/main_window_test_support.h"

#include <QApplication>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QScrollBar>
#include <QToolTip>

#include <gtest/gtest.h>

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
