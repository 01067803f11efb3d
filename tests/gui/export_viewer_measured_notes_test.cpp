// SPDX-License-Identifier: MIT
// File › Export Image… of a note measured against its after trace: the viewer's picture carries the measured
// verdict and step p50s, drawn from the same measurement `gapscope export --png` makes of the same sidecar.
#include "app/annotations/annotation_controller.h"
#include "app/annotations/annotation_session.h"
#include "app/export/picture_export_job.h"
#include "app/export/picture_header.h"
#include "app/mainwindow/main_window.h"
#include "app/timeline/timeline_state.h"
#include "app/timeline/timeline_view.h"
#include "core/annotations/after_trace_measurements.h"
#include "core/annotations/annotation_store.h"
#include "core/annotations/gap_explanation.h"
#include "core/io/trace_file.h"
#include "gui/export_test_support.h"
#include "gui/main_window_test_support.h"
#include "tests/temp_dir.h"

#include <QFileInfo>
#include <QImage>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <filesystem>

using namespace gapscope;

namespace {

const char* const kBase = "kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";
const char* const kNew = "kineto/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz";

TEST(ExportViewerMeasuredNotes, PictureCarriesTheMeasuredVerdictAsTheCommandLineDoes)
{
    test::TempDir dir;
    const std::string before = test::copyWithMeasurableNote(dir, kBase, kNew);
    ASSERT_FALSE(before.empty());
    auto base = loadTraceFile(before);
    ASSERT_TRUE(base.ok());

    app::MainWindow window;
    window.resize(1400, 900);
    window.show();
    QSignalSpy analysed(&window, &app::MainWindow::analysisShown);
    ASSERT_TRUE(test::openAndWait(window, { QString::fromStdString(before) }));
    if (!window.analysis()) {
        ASSERT_TRUE(analysed.wait(60'000));
    }
    ASSERT_EQ(window.annotations()->controller()->annotations().size(), 1u);

    picture::ExportImageChoice choice;
    choice.range = picture::PictureRange::AnalysisWindow;
    choice.size = QSize(1920, 1080);
    choice.path = QString::fromStdString(dir.file("viewer.png"));
    const QImage drawn = test::exportThroughWindow(window, choice);
    ASSERT_EQ(drawn.size(), choice.size);

    // The same request as the window's, with the measurement `gapscope export` makes of this sidecar.
    picture::ViewPictureSource source;
    source.loaded = window.loadedTrace();
    source.analysis.result = window.analysis();
    source.analysis.gaps
        = std::make_shared<timeline::GapOverlay>(*source.analysis.result, source.loaded.trace->devices().size());
    source.annotations = window.annotations()->controller()->annotations();
    source.gapThreshold = window.timelineView()->gapThreshold();
    source.origin = window.timelineState()->origin();
    source.traceName = QFileInfo(QString::fromStdString(before)).fileName();
    auto request = picture::viewPictureRequest(source, choice);
    ASSERT_TRUE(request.has_value());
    const picture::PictureRequest unmeasured = *request;
    const NoteMeasurements cli = measureNotesAgainstAfterTraces(base.value(), before, source.annotations);
    ASSERT_EQ(cli.measurements.size(), 1u);
    request->measurements = cli.measurements;

    const QStringList lines = picture::measuredNoteLines(*request);
    ASSERT_EQ(lines.size(), 1);
    EXPECT_TRUE(lines[0].contains(QStringLiteral("verdict faster"))) << lines[0].toStdString();
    EXPECT_TRUE(lines[0].contains(QStringLiteral("step p50 175.2 ms \u2192 126.2 ms"))) << lines[0].toStdString();
    EXPECT_TRUE(picture::measuredNoteLines(unmeasured)[0].endsWith(QStringLiteral("not measured in this picture")));

    EXPECT_EQ(drawn, picture::renderPicture(*request).convertToFormat(drawn.format()));
    EXPECT_NE(drawn, picture::renderPicture(unmeasured).convertToFormat(drawn.format()));
}

} // namespace
