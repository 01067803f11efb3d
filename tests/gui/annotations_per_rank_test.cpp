// SPDX-License-Identifier: MIT
// Notes per rank in the viewer: two ranks of the DLRM job from facebookresearch/param (tests/data/NOTICE.md)
// opened side by side. A note made on rank 1's lanes is saved with rank 1's file only, is there when rank 1 is
// opened alone, and each note is on its own rank's lanes when the files are opened in the other order.
#include "annotations_test_support.h"

#include "app/timeline/timeline_state.h"
#include "core/annotations/annotation.h"
#include "tests/test_paths.h"

#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QUndoStack>

using namespace gapscope;
using namespace gapscope::test;

namespace {

const char* const kRank0 = "worker0_step_12.1694128201545.pt.trace.json.gz";
const char* const kRank1 = "worker1_step_12.1694128201556.pt.trace.json.gz";
// Host pids of the two files; each rank's compute stream is stream 7 of its own GPU (device 0 and 1).
constexpr std::int64_t kPid0 = 59811;
constexpr std::int64_t kPid1 = 59812;
// 10 ms from the first kernel of rank 1 (ts 1694128201422243 us).
constexpr TimeNs kStart = 1'694'128'201'422'243'000;
constexpr TimeNs kEnd = kStart + 10'000'000;

QString copyRank(const QTemporaryDir& dir, const char* name)
{
    const QString copy = dir.filePath(QString::fromLatin1(name));
    const QString source = QString::fromStdString(dataPath(std::string("multirank/param_dlrm/") + name));
    return QFile::copy(source, copy) ? copy : QString();
}

bool openFilesAndWait(app::MainWindow& window, const QStringList& files)
{
    QSignalSpy shown(&window, &app::MainWindow::traceShown);
    window.openFiles(files);
    return shown.wait(60'000);
}

std::optional<int> rankOfLane(const app::MainWindow& window, const LaneIdentity& identity)
{
    const Trace* trace = window.trace().get();
    const auto lane = trace ? findLane(*trace, identity) : std::nullopt;
    if (!lane)
        return std::nullopt;
    return trace->processes()[trace->lanes()[lane->value].process.value].rank;
}

/// Selects [kStart, end) as drawn on the lane `identity` and annotates it with Annotate Selection (Ctrl+M).
QString annotateOnLane(app::MainWindow& window, const LaneIdentity& identity, TimeNs end)
{
    const Trace* trace = window.trace().get();
    const auto lane = findLane(*trace, identity);
    EXPECT_TRUE(lane.has_value());
    window.timelineState()->selectRange(std::make_pair(kStart, end), lane);
    QAction* annotate = window.annotations()->annotateSelectionAction();
    EXPECT_TRUE(annotate->isEnabled());
    annotate->trigger();
    return window.annotations()->controller()->selectedId();
}

} // namespace

TEST(AnnotationsPerRankTest, ANoteIsSavedWithTheRankItWasMadeOnAndFoundThereAgain)
{
    QTemporaryDir dir;
    const QString rank0 = copyRank(dir, kRank0);
    const QString rank1 = copyRank(dir, kRank1);
    ASSERT_FALSE(rank0.isEmpty());
    ASSERT_FALSE(rank1.isEmpty());
    const QString sidecar0 = rank0 + QStringLiteral(".gapscope.json");
    const QString sidecar1 = rank1 + QStringLiteral(".gapscope.json");
    QString onRank1;
    QString onRank0;
    {
        app::MainWindow window;
        window.resize(1400, 900);
        ASSERT_TRUE(openFilesAndWait(window, { rank0, rank1 }));
        app::AnnotationController* controller = window.annotations()->controller();
        ASSERT_EQ(rankOfLane(window, LaneIdentity::gpuStream(kPid1, 1, 7)), 1);

        onRank1 = annotateOnLane(window, LaneIdentity::gpuStream(kPid1, 1, 7), kEnd);
        ASSERT_FALSE(onRank1.isEmpty());
        EXPECT_EQ(controller->find(onRank1)->lanes, std::vector { LaneIdentity::gpuStream(kPid1, 1, 7) });
        // Rank 1's sidecar only: nothing was written next to rank 0.
        ASSERT_EQ(readNotes(sidecar1).size(), 1u);
        EXPECT_EQ(QString::fromStdString(readNotes(sidecar1)[0].id), onRank1);
        EXPECT_FALSE(QFileInfo::exists(sidecar0));
        EXPECT_EQ(controller->savePaths(), (QStringList { sidecar0, sidecar1 }));

        onRank0 = annotateOnLane(window, LaneIdentity::gpuStream(kPid0, 0, 7), kEnd + 5'000'000);
        ASSERT_EQ(readNotes(sidecar0).size(), 1u);
        EXPECT_EQ(QString::fromStdString(readNotes(sidecar0)[0].id), onRank0);
        EXPECT_EQ(readNotes(sidecar1).size(), 1u);

        // Undo takes rank 0's note out of rank 0's file, redo puts it back; rank 1's file is not touched.
        controller->undoStack()->undo();
        EXPECT_TRUE(readNotes(sidecar0).empty());
        EXPECT_EQ(readNotes(sidecar1).size(), 1u);
        controller->undoStack()->redo();
        ASSERT_EQ(readNotes(sidecar0).size(), 1u);
        EXPECT_EQ(QString::fromStdString(readNotes(sidecar0)[0].id), onRank0);
    }
    {
        app::MainWindow window;
        ASSERT_TRUE(openFilesAndWait(window, { rank1 }));
        const auto& notes = window.annotations()->controller()->annotations();
        ASSERT_EQ(notes.size(), 1u);
        EXPECT_EQ(QString::fromStdString(notes[0].id), onRank1);
        EXPECT_EQ(notes[0].start, kStart);
        EXPECT_EQ(notes[0].end, kEnd);
        ASSERT_EQ(notes[0].lanes.size(), 1u);
        EXPECT_EQ(rankOfLane(window, notes[0].lanes[0]), 1);
    }
    {
        app::MainWindow window;
        ASSERT_TRUE(openFilesAndWait(window, { rank1, rank0 }));
        app::AnnotationController* controller = window.annotations()->controller();
        const auto& notes = controller->annotations();
        ASSERT_EQ(notes.size(), 2u);
        // File by file in the order opened: rank 1's note, then rank 0's, each on its own rank's lanes.
        EXPECT_EQ(QString::fromStdString(notes[0].id), onRank1);
        EXPECT_EQ(QString::fromStdString(notes[1].id), onRank0);
        EXPECT_EQ(rankOfLane(window, notes[0].lanes.at(0)), 1);
        EXPECT_EQ(rankOfLane(window, notes[1].lanes.at(0)), 0);
        EXPECT_EQ(notes[1].end, kEnd + 5'000'000);
        EXPECT_EQ(controller->savePaths(), (QStringList { sidecar1, sidecar0 }));

        // An edit of rank 0's note is written to rank 0's file.
        Annotation edited = notes[1];
        edited.record.hypothesis = "rank 0 launches its all-reduce late";
        ASSERT_TRUE(controller->edit(edited, QStringLiteral("Edit hypothesis")));
        ASSERT_EQ(readNotes(sidecar0).size(), 1u);
        EXPECT_EQ(readNotes(sidecar0)[0].record.hypothesis, "rank 0 launches its all-reduce late");
        EXPECT_EQ(readNotes(sidecar1).size(), 1u);
    }
}

TEST(AnnotationsPerRankTest, AFailedSaveNamesTheRanksFileAndSaveNotesAsWritesThatRanksNotes)
{
    QTemporaryDir dir;
    QTemporaryDir elsewhere;
    ASSERT_TRUE(QDir(dir.path()).mkpath(QStringLiteral("r0")));
    ASSERT_TRUE(QDir(dir.path()).mkpath(QStringLiteral("r1")));
    const QString rank0 = dir.filePath(QStringLiteral("r0/") + QString::fromLatin1(kRank0));
    const QString rank1 = dir.filePath(QStringLiteral("r1/") + QString::fromLatin1(kRank1));
    ASSERT_TRUE(QFile::copy(QString::fromStdString(dataPath(std::string("multirank/param_dlrm/") + kRank0)), rank0));
    ASSERT_TRUE(QFile::copy(QString::fromStdString(dataPath(std::string("multirank/param_dlrm/") + kRank1)), rank1));
    const QString sidecar0 = rank0 + QStringLiteral(".gapscope.json");
    const QString sidecar1 = rank1 + QStringLiteral(".gapscope.json");

    app::MainWindow window;
    ASSERT_TRUE(openFilesAndWait(window, { rank0, rank1 }));
    app::AnnotationController* controller = window.annotations()->controller();
    // Rank 0's folder goes away after the load: its notes cannot be written, rank 1's can.
    ASSERT_TRUE(QDir(dir.filePath(QStringLiteral("r0"))).removeRecursively());
    const QString onRank0 = annotateOnLane(window, LaneIdentity::gpuStream(kPid0, 0, 7), kEnd);
    ASSERT_FALSE(onRank0.isEmpty());
    EXPECT_TRUE(controller->hasUnsavedChanges());
    EXPECT_TRUE(controller->lastProblem().contains(sidecar0)) << controller->lastProblem().toStdString();
    EXPECT_TRUE(controller->lastProblem().contains(QStringLiteral("kept in memory")));
    QMessageBox* message = window.annotations()->messageBox();
    ASSERT_NE(message, nullptr);
    EXPECT_TRUE(message->informativeText().contains(sidecar0));

    const QString onRank1 = annotateOnLane(window, LaneIdentity::gpuStream(kPid1, 1, 7), kEnd);
    ASSERT_EQ(readNotes(sidecar1).size(), 1u);
    EXPECT_EQ(QString::fromStdString(readNotes(sidecar1)[0].id), onRank1);
    EXPECT_TRUE(controller->hasUnsavedChanges()); // rank 0's note still waits

    // Save Notes As writes the notes of the file that failed: rank 0's note only.
    const QString other = elsewhere.filePath(QStringLiteral("rank0-notes.gapscope.json"));
    EXPECT_EQ(controller->savePath(), sidecar0);
    ASSERT_TRUE(controller->saveAs(other));
    EXPECT_FALSE(controller->hasUnsavedChanges());
    ASSERT_EQ(readNotes(other).size(), 1u);
    EXPECT_EQ(QString::fromStdString(readNotes(other)[0].id), onRank0);
    EXPECT_EQ(controller->savePaths(), (QStringList { other, sidecar1 }));
}
