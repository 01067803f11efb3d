// SPDX-License-Identifier: MIT
// Whole recordings through File › Record… into a MainWindow, without a GPU (the collector still
// records NVTX): the NVTX client's threads and ranges open in the viewer, Stop ends the long client
// and its partial trace opens, closing the dialog while recording asks and stops, and a chatty
// program that records nothing shows its (bounded, coalesced) output and opens nothing.

#include "app/mainwindow/main_window.h"
#include "app/record/record_dialog.h"
#include "app/record/recording_offer.h"
#include "capture/launcher/program_lookup.h"
#include "tests/temp_dir.h"

#include <QAction>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>

#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <functional>

#if defined(GAPSCOPE_NVTX_CLIENT) && defined(GAPSCOPE_LONG_CLIENT) && defined(GAPSCOPE_INJECT_LIBRARY)

using namespace gapscope;
using app::MainWindow;
using app::RecordDialog;
using app::RecordingOutcome;

namespace {

bool waitUntil(const std::function<bool()>& condition, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    while (!condition()) {
        if (clock.elapsed() > timeoutMs)
            return false;
        QTest::qWait(10);
    }
    return true;
}

/// Saves a picture of a widget when GAPSCOPE_TEST_GRAB_DIR names a folder, to look at it by hand.
void grabForInspection(QWidget& widget, const QString& name)
{
    const QString folder = qEnvironmentVariable("GAPSCOPE_TEST_GRAB_DIR");
    if (folder.isEmpty())
        return;
    QTest::qWait(100); // what the user sees once the layout has settled
    widget.grab().save(folder + QLatin1Char('/') + name + QStringLiteral(".png"));
}

/// A main window with the record dialog opened from File › Record…, the collector built next to
/// the tests found as the viewer finds it ($GAPSCOPE_INJECT_LIBRARY).
class RecordRecordingTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        qputenv("GAPSCOPE_INJECT_LIBRARY", GAPSCOPE_INJECT_LIBRARY);
        m_window.resize(1200, 800);
        m_window.show();
        QAction* record = nullptr;
        for (QAction* action : m_window.menuBar()->actions().front()->menu()->actions()) {
            if (action->text() == QStringLiteral("&Record..."))
                record = action;
        }
        ASSERT_NE(record, nullptr);
        EXPECT_EQ(record->shortcut(), QKeySequence(QStringLiteral("Ctrl+R")));
        record->trigger();
        m_dialog = m_window.recording()->dialog();
        ASSERT_NE(m_dialog, nullptr);
        EXPECT_TRUE(m_dialog->isVisible());
    }

    /// Fills the form, presses Record and keeps what the session reports.
    void record(const QString& program, const QString& arguments = {})
    {
        m_dialog->programField()->setText(program);
        m_dialog->argumentsField()->setText(arguments);
        m_dialog->outputField()->setText(QString::fromStdString(m_output));
        QTest::mouseClick(m_dialog->recordButton(), Qt::LeftButton);
        ASSERT_TRUE(m_dialog->isRecording()) << m_dialog->messageLabel()->text().toStdString();
        EXPECT_FALSE(m_dialog->recordButton()->isEnabled());
        EXPECT_TRUE(m_dialog->stopButton()->isEnabled());
        QObject::connect(m_dialog->session(), &app::RecordSession::finished, m_dialog,
            [this](std::shared_ptr<const RecordingOutcome> outcome) { m_outcome = std::move(outcome); });
    }

    test::TempDir m_dir;
    std::string m_output = m_dir.file("recording.gapscope");
    MainWindow m_window;
    RecordDialog* m_dialog = nullptr;
    std::shared_ptr<const RecordingOutcome> m_outcome;
};

/// The events of a kind on a lane, "name@depth" each, in time order.
std::vector<std::string> shapeOf(const Trace& trace, const Lane& lane, EventKind kind)
{
    std::vector<std::string> shape;
    for (const Event& e : lane.events) {
        if (e.kind == kind)
            shape.push_back(std::string(trace.name(e)) + "@" + std::to_string(e.depth));
    }
    return shape;
}

const Lane* threadNamed(const Trace& trace, std::string_view name)
{
    for (const Lane& lane : trace.lanes()) {
        if (lane.kind == LaneKind::CpuThread && lane.name == name)
            return &lane;
    }
    return nullptr;
}

TEST_F(RecordRecordingTest, NvtxClientOpensWithItsThreadsAndRanges)
{
    QSignalSpy shown(&m_window, &MainWindow::traceShown);
    record(QStringLiteral(GAPSCOPE_NVTX_CLIENT));
    grabForInspection(*m_dialog, QStringLiteral("record-dialog-running"));
    ASSERT_TRUE(!shown.isEmpty() || shown.wait(60'000));
    ASSERT_TRUE(m_outcome);
    EXPECT_TRUE(m_outcome->succeeded) << m_outcome->error.toStdString();
    EXPECT_EQ(m_outcome->exit.exitCode, 0);
    EXPECT_EQ(m_outcome->outputFile, QString::fromStdString(m_output));

    // What tests/capture/record_nvtx_test.cpp finds in the same client's recording.
    const std::shared_ptr<const Trace> trace = m_window.trace();
    ASSERT_TRUE(trace);
    ASSERT_EQ(trace->processes().size(), 1u);
    EXPECT_EQ(trace->processes()[0].name, "gapscope_nvtx_client");
    const Lane* main = threadNamed(*trace, "nvtx-main");
    const Lane* a = threadNamed(*trace, "worker-a");
    const Lane* b = threadNamed(*trace, "worker-b");
    ASSERT_NE(main, nullptr);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(main->tid, trace->processes()[0].pid);
    EXPECT_EQ(
        shapeOf(*trace, *main, EventKind::NvtxRange), (std::vector<std::string> { "main:setup@0", "main:load@1" }));
    EXPECT_EQ(shapeOf(*trace, *main, EventKind::NvtxMark), (std::vector<std::string> { "main:loaded@2" }));
    EXPECT_EQ(shapeOf(*trace, *a, EventKind::NvtxRange),
        (std::vector<std::string> { "a:outer@0", "a:inner-1@1", "a:inner-2@1" }));
    EXPECT_EQ(shapeOf(*trace, *a, EventKind::NvtxMark), (std::vector<std::string> { "a:mark@2" }));
    EXPECT_EQ(shapeOf(*trace, *b, EventKind::NvtxRange),
        (std::vector<std::string> { "async:shared@0", "b:outer@1", "b:middle@2", "b:inner@3", "b:domain-range@1" }));
    std::size_t nvtxEvents = 0;
    for (const Lane& lane : trace->lanes()) {
        for (const Event& e : lane.events)
            nvtxEvents += e.kind == EventKind::NvtxRange || e.kind == EventKind::NvtxMark;
    }
    EXPECT_EQ(nvtxEvents, 12u); // 10 ranges, 2 marks
    EXPECT_TRUE(m_window.windowTitle().startsWith(QStringLiteral("recording.gapscope")))
        << m_window.windowTitle().toStdString();

    // The last progress report counts every record of the file, and the panel shows it.
    const capture::RecordProgress& progress = m_dialog->session()->lastProgress();
    EXPECT_EQ(progress.records, trace->eventCount());
    EXPECT_GE(progress.records, 12u);
    EXPECT_EQ(progress.droppedRecords, 0u);
    EXPECT_EQ(m_dialog->recordsLabel()->text(), QLocale().toString(static_cast<qulonglong>(trace->eventCount())));
    EXPECT_EQ(m_dialog->droppedLabel()->text(), QStringLiteral("0"));
    EXPECT_NE(m_dialog->elapsedLabel()->text(), QStringLiteral("-"));

    // The summary `gapscope record` prints, with the no-driver note.
    const std::string summary = m_dialog->summaryView()->toPlainText().toStdString();
    EXPECT_TRUE(m_dialog->summaryView()->isVisible());
    EXPECT_NE(summary.find("The program exited with code 0"), std::string::npos) << summary;
    EXPECT_NE(summary.find("Processes: 1"), std::string::npos) << summary;
    EXPECT_NE(summary.find("Records by kind: nvtx_range 10, nvtx_mark 2,"), std::string::npos) << summary;
    EXPECT_NE(summary.find("Dropped records: 0"), std::string::npos) << summary;
    EXPECT_NE(summary.find("Collector overhead: "), std::string::npos) << summary;
    EXPECT_NE(summary.find("Wrote " + m_output), std::string::npos) << summary;
    if (!capture::nvidiaDriverPresent()) {
        EXPECT_NE(summary.find("only NVTX and CPU ranges were recorded"), std::string::npos) << summary;
    }
    EXPECT_FALSE(m_dialog->isRecording());
    EXPECT_EQ(m_dialog->recordButton()->text(), QStringLiteral("&Record Again"));
    EXPECT_FALSE(m_dialog->stopButton()->isEnabled());
    EXPECT_FALSE(m_dialog->messageLabel()->isVisible());
    grabForInspection(*m_dialog, QStringLiteral("record-dialog-finished"));
    grabForInspection(m_window, QStringLiteral("record-main-window"));
}

TEST_F(RecordRecordingTest, StopEndsTheLongClientAndItsPartialTraceOpens)
{
    QSignalSpy shown(&m_window, &MainWindow::traceShown);
    record(QStringLiteral(GAPSCOPE_LONG_CLIENT));
    // The client says "ready" once its mark is made; its output reaches the view while it runs.
    ASSERT_TRUE(
        waitUntil([&] { return m_dialog->outputView()->toPlainText().contains(QStringLiteral("ready")); }, 20'000));
    EXPECT_EQ(m_dialog->outputView()->toPlainText(), QStringLiteral("ready\n"));
    // And the collector's background flush gets the mark into its file: progress counts it.
    ASSERT_TRUE(waitUntil([&] { return m_dialog->session()->lastProgress().records >= 1; }, 20'000));
    EXPECT_TRUE(m_dialog->isRecording());
    grabForInspection(*m_dialog, QStringLiteral("record-dialog-long-running"));

    QTest::mouseClick(m_dialog->stopButton(), Qt::LeftButton);
    EXPECT_EQ(m_dialog->session()->stopRequests(), 1);
    EXPECT_EQ(m_dialog->stopButton()->text(), QStringLiteral("&Terminate"));
    EXPECT_EQ(
        m_dialog->statusLabel()->text(), QStringLiteral("Stopping the program: SIGINT sent to its process group."));
    ASSERT_TRUE(shown.wait(30'000));
    ASSERT_TRUE(m_outcome);
    EXPECT_TRUE(m_outcome->succeeded) << m_outcome->error.toStdString();
    EXPECT_EQ(m_outcome->exit.signal, SIGINT);
    ASSERT_EQ(m_outcome->summary.processes.size(), 1u);
    // The collector's SIGINT handler ran the exit flush before the signal ended the program.
    EXPECT_TRUE(m_outcome->summary.processes[0].closedCleanly);
    EXPECT_LT(m_outcome->wallSeconds, 30.0);
    EXPECT_EQ(m_dialog->stopButton()->text(), QStringLiteral("&Stop")); // ready for the next run

    const std::shared_ptr<const Trace> trace = m_window.trace();
    ASSERT_TRUE(trace);
    std::vector<std::string> marks;
    for (const Lane& lane : trace->lanes()) {
        for (const Event& e : lane.events) {
            if (e.kind == EventKind::NvtxMark)
                marks.emplace_back(trace->name(e));
        }
    }
    EXPECT_EQ(marks, (std::vector<std::string> { "started" }));
    EXPECT_NE(m_dialog->summaryView()->toPlainText().indexOf(QStringLiteral("was ended by signal 2")), -1);
}

TEST_F(RecordRecordingTest, ClosingWhileRecordingAsksThenStopsAndOpensWhatWasRecorded)
{
    QSignalSpy shown(&m_window, &MainWindow::traceShown);
    record(QStringLiteral(GAPSCOPE_LONG_CLIENT));
    ASSERT_TRUE(waitUntil([&] { return m_dialog->session()->lastProgress().records >= 1; }, 20'000));

    m_dialog->close();
    // Still there and still recording: the question is up, not blocking the viewer.
    EXPECT_TRUE(m_dialog->isVisible());
    EXPECT_TRUE(m_dialog->isRecording());
    QMessageBox* question = m_dialog->stopQuestion();
    ASSERT_NE(question, nullptr);
    EXPECT_TRUE(question->isVisible());
    EXPECT_EQ(m_dialog->session()->stopRequests(), 0);

    QAbstractButton* stop = nullptr;
    for (QAbstractButton* button : question->buttons()) {
        if (button->text() == QStringLiteral("Stop and Close"))
            stop = button;
    }
    ASSERT_NE(stop, nullptr);
    QTest::mouseClick(stop, Qt::LeftButton);
    EXPECT_FALSE(m_dialog->isVisible());
    EXPECT_EQ(m_dialog->session()->stopRequests(), 1);
    ASSERT_TRUE(shown.wait(30'000));
    ASSERT_TRUE(m_outcome);
    EXPECT_EQ(m_outcome->exit.signal, SIGINT);
    EXPECT_EQ(m_window.trace()->processes().size(), 1u);
}

TEST(RecordRecordingTeardownTest, ClosingTheViewerWhileRecordingEndsTheProgramWithoutHanging)
{
    qputenv("GAPSCOPE_INJECT_LIBRARY", GAPSCOPE_INJECT_LIBRARY);
    test::TempDir dir;
    auto window = std::make_unique<MainWindow>();
    RecordDialog* dialog = window->recording()->showDialog();
    dialog->programField()->setText(QStringLiteral(GAPSCOPE_LONG_CLIENT));
    dialog->outputField()->setText(QString::fromStdString(dir.file("out.gapscope")));
    ASSERT_TRUE(dialog->startRecording()) << dialog->messageLabel()->text().toStdString();
    ASSERT_TRUE(
        waitUntil([&] { return dialog->outputView()->toPlainText().contains(QStringLiteral("ready")); }, 20'000));
    const pid_t pid = static_cast<pid_t>(dialog->session()->pid());
    ASSERT_EQ(::kill(pid, 0), 0); // running; it would sleep for a minute

    QElapsedTimer clock;
    clock.start();
    window.reset(); // the viewer goes away: the program is killed, not waited for
    EXPECT_LT(clock.elapsed(), 5'000);
    EXPECT_EQ(::kill(pid, 0), -1); // gone and reaped
    EXPECT_EQ(errno, ESRCH);
}

TEST_F(RecordRecordingTest, ChattyProgramThatRecordsNothingShowsItsOutputAndOpensNothing)
{
    QSignalSpy shown(&m_window, &MainWindow::traceShown);
    QSignalSpy failed(m_dialog, &RecordDialog::recordingFailed);
    // 20,000 lines, one write each (the shell's echo), then one on stderr; the shell loads no collector.
    record(QStringLiteral("/bin/sh"),
        QStringLiteral(R"(-c 'i=0; while [ $i -lt 20000 ]; do echo "line $i"; i=$((i+1)); done; echo done >&2')"));
    int outputSignals = 0;
    QObject::connect(m_dialog->session(), &app::RecordSession::outputReceived, m_dialog, [&] { ++outputSignals; });
    QElapsedTimer clock;
    clock.start();
    ASSERT_TRUE(failed.wait(60'000));
    const qint64 elapsedMs = clock.elapsed();

    ASSERT_TRUE(m_outcome);
    EXPECT_FALSE(m_outcome->succeeded);
    EXPECT_EQ(m_outcome->error.toStdString(),
        "nothing was recorded: no process of the program used CUDA or NVTX, so nothing loaded the collector (GapScope "
        "records CUDA activity and NVTX ranges, not a program's CPU time: mark its CPU work with NVTX ranges, or "
        "open a PyTorch profiler trace for its CPU ops)");
    EXPECT_EQ(m_dialog->messageLabel()->text(),
        QStringLiteral("The recording failed: %1. Nothing was opened.").arg(m_outcome->error));
    EXPECT_TRUE(m_dialog->messageLabel()->isVisible());
    EXPECT_EQ(shown.count(), 0);
    EXPECT_FALSE(m_window.trace());
    EXPECT_FALSE(m_window.isLoading());
    EXPECT_EQ(m_dir.entries(), std::vector<std::string> {});

    // Coalesced: output reaches the GUI at most every 50 ms (a stdout and a stderr piece at most per
    // delivery), not once per write.
    EXPECT_LE(outputSignals, 2 * (elapsedMs / app::RecordSession::kOutputIntervalMs + 2)) << elapsedMs << " ms";
    EXPECT_LT(outputSignals, 2000);
    EXPECT_EQ(m_dialog->session()->droppedOutputBytes(), 0u);
    // Bounded: the view keeps the newest lines; the last is the stderr one, then the empty block.
    const QTextDocument* document = m_dialog->outputView()->document();
    ASSERT_EQ(document->blockCount(), RecordDialog::kOutputLines);
    EXPECT_EQ(document->firstBlock().text(), QStringLiteral("line %1").arg(20000 - (RecordDialog::kOutputLines - 2)));
    EXPECT_EQ(document->lastBlock().text(), QString());
    EXPECT_EQ(document->lastBlock().previous().text(), QStringLiteral("done"));
    EXPECT_EQ(document->lastBlock().previous().previous().text(), QStringLiteral("line 19999"));
    grabForInspection(*m_dialog, QStringLiteral("record-dialog-failed"));
    // stderr in red, stdout in the view's own colour.
    const auto colourOf = [](const QTextBlock& block) { return block.begin().fragment().charFormat().foreground(); };
    EXPECT_EQ(colourOf(document->lastBlock().previous()).color(), QColor(0xb0, 0x00, 0x00));
    EXPECT_EQ(colourOf(document->firstBlock()).style(), Qt::NoBrush);
}

} // namespace

#endif
