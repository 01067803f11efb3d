// SPDX-License-Identifier: MIT
// File › Record… with Runs > 1: the program recorded N times into one folder, the runs manifest written as
// `gapscope record --runs N -o DIR` writes it, the progress naming run k of N, the last good run opened; a series
// whose every run fails opens nothing and says so. The collector records NVTX without a GPU.

#include "app/mainwindow/main_window.h"
#include "app/record/record_dialog.h"
#include "app/record/recording_offer.h"
#include "core/experiment/runs_manifest.h"
#include "core/io/trace_file.h"
#include "tests/temp_dir.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#if defined(GAPSCOPE_NVTX_CLIENT) && defined(GAPSCOPE_INJECT_LIBRARY)

using namespace gapscope;
using app::MainWindow;
using app::RecordDialog;

namespace {

/// The names in `folder`, sorted.
std::vector<std::string> entriesOf(const std::string& folder)
{
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

class RecordSeriesTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        qputenv("GAPSCOPE_INJECT_LIBRARY", GAPSCOPE_INJECT_LIBRARY);
        m_window.resize(1200, 800);
        m_window.show();
        for (QAction* action : m_window.menuBar()->actions().front()->menu()->actions()) {
            if (action->text() == QStringLiteral("&Record..."))
                action->trigger();
        }
        m_dialog = m_window.recording()->dialog();
        ASSERT_NE(m_dialog, nullptr);
    }

    /// Fills the form for `runs` runs into the folder `folder` and presses Record.
    void recordSeries(const QString& program, const QString& arguments, int runs, const std::string& folder)
    {
        m_dialog->programField()->setText(program);
        m_dialog->argumentsField()->setText(arguments);
        m_dialog->runsField()->setValue(runs);
        m_dialog->outputField()->setText(QString::fromStdString(folder));
        QTest::mouseClick(m_dialog->recordButton(), Qt::LeftButton);
        ASSERT_TRUE(m_dialog->isRecording()) << m_dialog->messageLabel()->text().toStdString();
    }

    test::TempDir m_dir;
    MainWindow m_window;
    RecordDialog* m_dialog = nullptr;
};

TEST_F(RecordSeriesTest, ThreeRunsGoIntoOneFolderWithTheirManifestAndTheLastOpens)
{
    QSignalSpy finished(m_dialog, &RecordDialog::recordingFinished);
    QSignalSpy shown(&m_window, &MainWindow::traceShown);
    const std::string folder = m_dir.file("runs");
    recordSeries(QStringLiteral(GAPSCOPE_NVTX_CLIENT), {}, 3, folder);
    EXPECT_TRUE(m_dialog->statusLabel()->text().startsWith(QStringLiteral("Run 1 of 3: Recording ")))
        << m_dialog->statusLabel()->text().toStdString();
    ASSERT_TRUE(finished.wait(120'000));
    ASSERT_EQ(finished.count(), 1); // once for the series, not once a run
    EXPECT_EQ(finished.front().front().toString().toStdString(), folder + "/run-3.gapscope");
    ASSERT_TRUE(!shown.isEmpty() || shown.wait(60'000));
    EXPECT_TRUE(m_window.windowTitle().startsWith(QStringLiteral("run-3.gapscope")))
        << m_window.windowTitle().toStdString();

    const std::vector<std::string> expected { "gapscope-runs.json", "run-1.gapscope", "run-2.gapscope",
        "run-3.gapscope" };
    EXPECT_EQ(entriesOf(folder), expected);
    const auto manifest = readRunsManifest(folder);
    ASSERT_TRUE(manifest) << manifest.error().toString();
    ASSERT_TRUE(manifest->has_value());
    const RunsManifest& m = **manifest;
    EXPECT_EQ(m.program, GAPSCOPE_NVTX_CLIENT);
    EXPECT_EQ(m.kinds, "all");
    EXPECT_FALSE(m.nvtxOnly());
    ASSERT_EQ(m.runs.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
        SCOPED_TRACE(k);
        EXPECT_EQ(m.runs[k].file, "run-" + std::to_string(k + 1) + ".gapscope");
        EXPECT_FALSE(m.runs[k].failed) << m.runs[k].failure;
        EXPECT_EQ(m.runs[k].exitCode, 0);
        EXPECT_GT(m.runs[k].wallSeconds, 0.0);
        if (k > 0)
            EXPECT_GE(m.runs[k].startNs, m.runs[k - 1].startNs); // one after the other
        // Each run is a whole recording of the client: its 10 ranges and 2 marks.
        auto trace = loadTraceFile(folder + "/" + m.runs[k].file);
        ASSERT_TRUE(trace) << trace.error().toString();
        std::size_t nvtx = 0;
        for (const Lane& lane : trace->lanes()) {
            for (const Event& e : lane.events)
                nvtx += e.kind == EventKind::NvtxRange || e.kind == EventKind::NvtxMark;
        }
        EXPECT_EQ(nvtx, 12u);
    }
    EXPECT_EQ(m.goodRunFiles(), (std::vector<std::string> { "run-1.gapscope", "run-2.gapscope", "run-3.gapscope" }));

    const std::string summary = m_dialog->summaryView()->toPlainText().toStdString();
    for (const char* line :
        { "Run 1 of 3: exited with code 0, ", "Run 2 of 3: exited with code 0, ", "Run 3 of 3: exited with code 0, " })
        EXPECT_NE(summary.find(line), std::string::npos) << summary;
    EXPECT_NE(summary.find("Recorded 3 of 3 runs into " + folder
                  + " (manifest gapscope-runs.json); compare two such folders with: gapscope diff BASE_DIR NEW_DIR"),
        std::string::npos)
        << summary;
    EXPECT_EQ(m_dialog->statusLabel()->text().toStdString(),
        "Recorded 3 of 3 runs into " + folder + ". The last good run opens in the viewer.");
    EXPECT_FALSE(m_dialog->isRecording());
    EXPECT_EQ(m_dialog->recordButton()->text(), QStringLiteral("&Record Again"));
}

TEST_F(RecordSeriesTest, ASeriesWhoseRunsAllFailOpensNothingAndNamesEachFailure)
{
    QSignalSpy failed(m_dialog, &RecordDialog::recordingFailed);
    QSignalSpy finished(m_dialog, &RecordDialog::recordingFinished);
    const std::string folder = m_dir.file("failing");
    // The shell loads no collector: nothing is recorded in either run.
    recordSeries(QStringLiteral("/bin/sh"), QStringLiteral("-c 'exit 3'"), 2, folder);
    ASSERT_TRUE(failed.wait(60'000));
    EXPECT_EQ(finished.count(), 0);
    EXPECT_FALSE(m_window.trace());

    EXPECT_EQ(entriesOf(folder), std::vector<std::string> { "gapscope-runs.json" });
    const auto manifest = readRunsManifest(folder);
    ASSERT_TRUE(manifest && manifest->has_value());
    const RunsManifest& m = **manifest;
    ASSERT_EQ(m.runs.size(), 2u);
    for (const ManifestRun& run : m.runs) {
        EXPECT_TRUE(run.failed);
        EXPECT_EQ(run.file, ""); // no trace was written
        EXPECT_EQ(run.failure.rfind("nothing was recorded: ", 0), 0u) << run.failure;
    }
    EXPECT_TRUE(m.goodRunFiles().empty());
    const std::string summary = m_dialog->summaryView()->toPlainText().toStdString();
    EXPECT_NE(summary.find("Recorded 2 of 2 runs into " + folder
                  + " (manifest gapscope-runs.json); 2 failed, left "
                    "out of comparisons: run 1 (nothing was recorded"),
        std::string::npos)
        << summary;
    EXPECT_EQ(m_dialog->statusLabel()->text(), QStringLiteral("Every run failed: nothing was opened."));
}

TEST_F(RecordSeriesTest, RunsAboveOneTakeAFolderAndNeverMixWithAnEarlierSeries)
{
    m_dialog->programField()->setText(QStringLiteral("sh"));
    m_dialog->workingDirectoryField()->setText(QString::fromStdString(m_dir.path().string()));
    m_dialog->runsField()->setValue(4);
    QString error;
    auto request = m_dialog->requestFromForm(error);
    ASSERT_TRUE(request) << error.toStdString();
    EXPECT_EQ(request->runs, 4);
    // The default is a fresh folder named for the time, in the working folder.
    const QString name = QFileInfo(request->outputFile).fileName();
    EXPECT_TRUE(name.startsWith(QStringLiteral("gapscope-")) && name.endsWith(QStringLiteral("-runs")))
        << name.toStdString();
    EXPECT_EQ(QFileInfo(request->outputFile).absolutePath().toStdString(), m_dir.path().string());

    // A folder that holds runs already gets a sibling, so one manifest never names runs of two settings.
    std::filesystem::create_directories(m_dir.file("base"));
    {
        std::ofstream(m_dir.file("base/gapscope-runs.json")) << "{}";
    }
    m_dialog->outputField()->setText(QStringLiteral("base"));
    request = m_dialog->requestFromForm(error);
    ASSERT_TRUE(request) << error.toStdString();
    EXPECT_EQ(request->outputFile.toStdString(), m_dir.file("base-2"));

    // A file is not a folder for runs.
    {
        std::ofstream(m_dir.file("a.gapscope")) << "x";
    }
    m_dialog->outputField()->setText(QStringLiteral("a.gapscope"));
    EXPECT_FALSE(m_dialog->requestFromForm(error));
    EXPECT_EQ(
        error.toStdString(), "The output " + m_dir.file("a.gapscope") + " is a file; with 4 runs, name a folder.");
}

} // namespace

#endif
