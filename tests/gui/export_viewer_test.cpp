// SPDX-License-Identifier: MIT
// File › Export Image... in the viewer: the picture of the current view, drawn off the GUI thread.
#include "app/export/export_image_dialog.h"
#include "app/export/image_export_controller.h"
#include "app/export/picture_header.h"
#include "app/mainwindow/analysis_docks.h"
#include "app/mainwindow/gaps_dock.h"
#include "app/mainwindow/main_window.h"
#include "app/models/gap_model.h"
#include "app/timeline/timeline_palette.h"
#include "app/timeline/timeline_state.h"
#include "app/timeline/timeline_view.h"
#include "gui/export_test_support.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <QSignalSpy>

#include <gtest/gtest.h>

using namespace gapscope;

namespace {

const char* const kResNet = test::kResnet50Trace;

} // namespace

TEST(ExportViewerTest, CurrentViewOfTheLongestGapIsExportedWithItsBand)
{
    app::MainWindow window;
    window.resize(1400, 900);
    window.show();
    QSignalSpy shown(&window, &app::MainWindow::traceShown);
    QSignalSpy analysed(&window, &app::MainWindow::analysisShown);
    window.openFiles({ QString::fromStdString(test::dataPath(kResNet)) });
    ASSERT_TRUE(shown.wait(60'000));
    if (!window.analysis()) {
        ASSERT_TRUE(analysed.wait(60'000));
    }
    ASSERT_GT(window.analysisDocks()->gapsDock()->model()->rowCount(), 0);
    const std::size_t longest = window.analysisDocks()->gapsDock()->model()->gapAt(0);
    window.showGap(longest); // zooms the view onto it, with context on both sides
    const Gap gap = window.analysis()->gaps[longest];

    test::TempDir dir;
    picture::ExportImageChoice choice;
    choice.range = picture::PictureRange::Selection;
    choice.size = QSize(1000, 600);
    choice.path = QString::fromStdString(dir.file("view.png"));
    window.timelineState()->selectRange(std::nullopt);
    EXPECT_FALSE(window.imageExport()->exportTo(choice)); // no selected range: nothing to draw

    choice.range = picture::PictureRange::View;
    QSignalSpy exported(window.imageExport(), &app::ImageExportController::exported);
    ASSERT_TRUE(window.imageExport()->exportTo(choice));
    ASSERT_TRUE(exported.wait(30'000));
    EXPECT_EQ(exported.at(0).at(0).toString(), choice.path);
    EXPECT_EQ(exported.at(0).at(1).toString(), QString());
    const QImage image(choice.path);
    ASSERT_EQ(image.size(), QSize(1000, 600));

    // The same geometry: the view's range, its scene's index and gaps.
    const picture::PictureRequest request = test::viewRequest(window, 1000, 600);
    const picture::PicturePlan plan = picture::planPicture(request);
    ASSERT_LT(request.start, gap.start);
    ASSERT_GT(request.end, gap.end);
    const auto& rows = plan.layout->rows();
    const auto utilization = std::find_if(rows.begin(), rows.end(),
        [](const timeline::LayoutRow& row) { return row.kind == timeline::RowKind::UtilizationLane; });
    ASSERT_NE(utilization, rows.end());
    const int y = plan.timeline.top() + timeline::TimelinePainter::contentYToScreen(plan.scene, utilization->y)
        + utilization->height / 2;
    const double lanesWidth = 1000 - plan.scene.labelWidth;
    const int x = plan.scene.labelWidth
        + static_cast<int>(static_cast<double>((gap.start + gap.end) / 2 - request.start) * lanesWidth
            / static_cast<double>(request.end - request.start));
    const QColor pixel = image.pixelColor(x, y);
    const QColor band = picture::bandOnWhite(gap.cause);
    EXPECT_LE(std::max({ std::abs(pixel.red() - band.red()), std::abs(pixel.green() - band.green()),
                  std::abs(pixel.blue() - band.blue()) }),
        2)
        << pixel.name().toStdString() << " vs " << band.name().toStdString();
}
