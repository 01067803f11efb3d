// SPDX-License-Identifier: MIT
// File › Export Image… of a comparison: the header gives each side's figures over its own analysis window,
// labelled Base and New in that order, the same figures each block's utilization lane shows, and the Diff dock's
// verdict line.
#include "app/compare/comparison_controller.h"
#include "app/compare/diff_dock.h"
#include "app/export/picture_export_job.h"
#include "app/export/picture_header.h"
#include "app/mainwindow/main_window.h"
#include "app/timeline/timeline_view.h"
#include "gui/export_test_support.h"
#include "gui/main_window_test_support.h"
#include "tests/temp_dir.h"

#include <QImage>
#include <QLabel>
#include <QSignalSpy>

#include <gtest/gtest.h>

using namespace gapscope;

namespace {

const char* const kBase = "kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";
const char* const kNew = "kineto/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz";

class CompareExportTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_window.resize(1500, 900);
        m_window.show();
        ASSERT_TRUE(test::openAndWait(m_window, { test::dataFile(kBase) }));
        QSignalSpy shown(&m_window, &app::MainWindow::traceShown);
        QSignalSpy diffShown(m_window.comparison(), &app::ComparisonController::diffShown);
        m_window.comparison()->compareWith({ test::dataFile(kNew) });
        ASSERT_TRUE(shown.wait(60'000));
        ASSERT_TRUE(diffShown.count() > 0 || diffShown.wait(60'000));
        ASSERT_NE(m_window.comparison()->dock()->diff(), nullptr);
    }

    /// What File › Export Image… › The analysis window draws, made from what the window shows.
    picture::PictureRequest analysisWindowRequest(picture::ViewPictureSource& source)
    {
        source.loaded = m_window.loadedTrace();
        source.analysis.result = m_window.analysis();
        source.analysis.gaps
            = std::make_shared<timeline::GapOverlay>(*source.analysis.result, source.loaded.trace->devices().size());
        source.comparisonLines = m_window.comparison()->dock()->summaryLines();
        picture::ExportImageChoice choice;
        choice.range = picture::PictureRange::AnalysisWindow;
        choice.size = QSize(1600, 900);
        auto request = picture::viewPictureRequest(source, choice);
        EXPECT_TRUE(request.has_value());
        return request.value_or(picture::PictureRequest {});
    }

    app::MainWindow m_window;
};

TEST_F(CompareExportTest, HeaderGivesEachSidesFiguresOverItsOwnWindowLabelledBaseAndNew)
{
    picture::ViewPictureSource source;
    const picture::PictureRequest request = analysisWindowRequest(source);
    const std::vector<picture::DeviceSummary> devices = picture::summarizeDevices(request);
    ASSERT_EQ(devices.size(), 2u);
    EXPECT_TRUE(devices[0].label.startsWith(QStringLiteral("Base: "))) << devices[0].label.toStdString();
    EXPECT_TRUE(devices[1].label.startsWith(QStringLiteral("New: "))) << devices[1].label.toStdString();

    // The figures of each block's utilization lane: each process over its own (gpu) window.
    const auto compared = m_window.loadedTrace().comparison;
    ASSERT_NE(compared, nullptr);
    const DeviceFigures* base = nullptr;
    const DeviceFigures* fresh = nullptr;
    for (const DeviceFigures& d : m_window.analysis()->devices)
        (d.process.value < compared->newFirstProcess ? base : fresh) = &d;
    ASSERT_TRUE(base && fresh);
    EXPECT_EQ(devices[0].spanNs, base->spanNs);
    EXPECT_EQ(devices[0].busyNs, base->busyNs);
    EXPECT_EQ(devices[1].spanNs, fresh->spanNs);
    EXPECT_EQ(devices[1].busyNs, fresh->busyNs);
    EXPECT_EQ(devices[1].spanNs - devices[1].busyNs, fresh->idleNs);
    EXPECT_EQ(devices[0].outsideWindowNs, 0);
    EXPECT_EQ(devices[1].outsideWindowNs, 0);
    // Four data-loader workers keep the GPU busier: NEW's utilization is the higher, 76.65 % against 60.57 %.
    EXPECT_NEAR(100.0 * devices[0].utilization(), 60.57, 0.005);
    EXPECT_NEAR(100.0 * devices[1].utilization(), 76.65, 0.005);

    // What the reader sees: Base's line, then New's, each with its window, then the verdict line word for word.
    const QStringList lines = picture::headerLines(request);
    qsizetype baseLine = -1;
    qsizetype newLine = -1;
    qsizetype verdictLine = -1;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines[i].startsWith(QStringLiteral("Base: ")))
            baseLine = i;
        else if (lines[i].startsWith(QStringLiteral("New: ")))
            newLine = i;
        else if (lines[i] == m_window.comparison()->dock()->verdictLabel()->text())
            verdictLine = i;
    }
    ASSERT_GE(baseLine, 0) << lines.join('\n').toStdString();
    ASSERT_GT(newLine, baseLine) << lines.join('\n').toStdString();
    ASSERT_GT(verdictLine, newLine) << lines.join('\n').toStdString();
    EXPECT_TRUE(lines[newLine].contains(QStringLiteral("utilization 76.65 %"))) << lines[newLine].toStdString();
    EXPECT_TRUE(lines[newLine].contains(QStringLiteral("over its own window"))) << lines[newLine].toStdString();
    EXPECT_TRUE(m_window.comparison()->dock()->verdictLabel()->text().startsWith(QStringLiteral("Verdict: ")));
}

TEST_F(CompareExportTest, ExportedPictureHasTheHeaderWithTheVerdictLine)
{
    picture::ViewPictureSource source;
    const picture::PictureRequest request = analysisWindowRequest(source);
    picture::PictureRequest withoutVerdict = request;
    withoutVerdict.comparisonLines.clear();
    const picture::PicturePlan plan = picture::planPicture(request);
    ASSERT_GT(plan.header.height(), picture::planPicture(withoutVerdict).header.height());

    test::TempDir dir;
    picture::ExportImageChoice choice;
    choice.range = picture::PictureRange::AnalysisWindow;
    choice.size = QSize(1600, 900);
    choice.path = QString::fromStdString(dir.file("compare.png"));
    const QImage image = test::exportThroughWindow(m_window, choice);
    ASSERT_EQ(image.size(), choice.size);
    // The header's bottom rule lies where a header with the verdict lines ends: the whole row is the rule's grey.
    const int y = plan.header.bottom();
    for (int x = 0; x < image.width(); x += 50)
        ASSERT_EQ(image.pixelColor(x, y), QColor(0xb0, 0xb5, 0xbb)) << "x " << x << " y " << y;
}

} // namespace
