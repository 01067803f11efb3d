// SPDX-License-Identifier: MIT
// Notes per rank: two ranks of the DLRM job from facebookresearch/param (tests/data/NOTICE.md) opened together;
// each note is saved with the file whose lanes it was made on, and found again on those lanes when that file
// is opened alone or in the other order.
#include "core/annotations/notes_by_file.h"

#include "core/io/trace_file.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace gapscope {
namespace {

using test::TempDir;

const char* const kRank0 = "worker0_step_12.1694128201545.pt.trace.json.gz";
const char* const kRank1 = "worker1_step_12.1694128201556.pt.trace.json.gz";
// The host processes of the two files (their pids in the traces), and rank 1's compute stream:
// its kernels have pid 1 (the GPU), tid 7, args.device 1, args.stream 7.
constexpr std::int64_t kPid0 = 59811;
constexpr std::int64_t kPid1 = 59812;
const auto kClock = [] { return std::chrono::system_clock::from_time_t(1714566896); };

/// Copies of the two ranks in their own folders (so that their sidecars land in the test's folder).
struct TwoRanks {
    TempDir dir;
    std::string rank0;
    std::string rank1;

    TwoRanks()
    {
        std::filesystem::create_directory(dir.file("r0"));
        std::filesystem::create_directory(dir.file("r1"));
        rank0 = dir.file(std::string("r0/") + kRank0);
        rank1 = dir.file(std::string("r1/") + kRank1);
        std::filesystem::copy_file(test::dataPath(std::string("multirank/param_dlrm/") + kRank0), rank0);
        std::filesystem::copy_file(test::dataPath(std::string("multirank/param_dlrm/") + kRank1), rank1);
    }
};

Trace load(const std::vector<std::string>& paths)
{
    auto trace = loadTraceFiles(paths);
    EXPECT_TRUE(trace) << (trace ? "" : trace.error().toString());
    return trace ? std::move(trace.value()) : Trace {};
}

std::optional<int> rankOfLane(const Trace& trace, const LaneIdentity& identity)
{
    const auto lane = findLane(trace, identity);
    if (!lane)
        return std::nullopt;
    return trace.processes()[trace.lanes()[lane->value].process.value].rank;
}

/// Makes a note on rank 1's stream 7 and one over the whole job, opened in the order rank 0, rank 1; saves.
std::pair<std::string, std::string> makeNotes(const TwoRanks& files)
{
    const Trace trace = load({ files.rank0, files.rank1 });
    NotesByFile notes = NotesByFile::openForTraces({ files.rank0, files.rank1 }, &trace);
    notes.setClock(kClock);
    Annotation onRank1;
    onRank1.start = 1694128201422243000;
    onRank1.end = 1694128201432243000;
    onRank1.title = "rank 1 waits";
    onRank1.lanes = { LaneIdentity::gpuStream(kPid1, 1, 7) };
    EXPECT_EQ(rankOfLane(trace, onRank1.lanes[0]), 1);
    Annotation wholeJob;
    wholeJob.start = onRank1.start;
    wholeJob.end = onRank1.end;
    wholeJob.title = "whole job";
    const std::string id1 = notes.add(onRank1);
    const std::string idJob = notes.add(wholeJob);
    EXPECT_EQ(notes.fileOf(id1), 1u);
    EXPECT_EQ(notes.fileOf(idJob), 0u);
    EXPECT_TRUE(notes.dirty());
    EXPECT_TRUE(notes.save().empty());
    EXPECT_FALSE(notes.dirty());
    return { id1, idJob };
}

TEST(NotesByFileTest, ANoteOnRank1IsSavedInRank1sSidecarOnly)
{
    TwoRanks files;
    const auto [id1, idJob] = makeNotes(files);

    auto sidecar1 = AnnotationStore::readFile(AnnotationStore::sidecarPathFor(files.rank1));
    ASSERT_TRUE(sidecar1) << sidecar1.error().toString();
    ASSERT_EQ(sidecar1.value().annotations.size(), 1u);
    EXPECT_EQ(sidecar1.value().annotations[0].id, id1);
    EXPECT_EQ(sidecar1.value().annotations[0].lanes, std::vector { LaneIdentity::gpuStream(kPid1, 1, 7) });
    EXPECT_EQ(sidecar1.value().traceName, kRank1);

    // The note over the whole job (no lane) goes to the first file.
    auto sidecar0 = AnnotationStore::readFile(AnnotationStore::sidecarPathFor(files.rank0));
    ASSERT_TRUE(sidecar0) << sidecar0.error().toString();
    ASSERT_EQ(sidecar0.value().annotations.size(), 1u);
    EXPECT_EQ(sidecar0.value().annotations[0].id, idJob);
    EXPECT_TRUE(sidecar0.value().annotations[0].lanes.empty());
}

TEST(NotesByFileTest, Rank1AloneHasItsNoteOnItsLane)
{
    TwoRanks files;
    const auto [id1, idJob] = makeNotes(files);

    const Trace trace = load({ files.rank1 });
    const NotesByFile notes = NotesByFile::openForTraces({ files.rank1 }, &trace);
    ASSERT_EQ(notes.annotations().size(), 1u);
    const Annotation& note = notes.annotations()[0];
    EXPECT_EQ(note.id, id1);
    EXPECT_EQ(note.title, "rank 1 waits");
    ASSERT_EQ(note.lanes.size(), 1u);
    EXPECT_EQ(rankOfLane(trace, note.lanes[0]), 1);
    EXPECT_EQ(notes.fileOfPid(kPid1), 0u);
    EXPECT_EQ(notes.fileOfPid(kPid0), std::nullopt);
}

TEST(NotesByFileTest, TheOtherOrderPutsEachNoteOnItsRank)
{
    TwoRanks files;
    const auto [id1, idJob] = makeNotes(files);

    const Trace trace = load({ files.rank1, files.rank0 });
    NotesByFile notes = NotesByFile::openForTraces({ files.rank1, files.rank0 }, &trace);
    notes.setClock(kClock);
    ASSERT_EQ(notes.annotations().size(), 2u);
    // File by file, in the order given: rank 1's note first.
    EXPECT_EQ(notes.annotations()[0].id, id1);
    EXPECT_EQ(notes.annotations()[1].id, idJob);
    EXPECT_EQ(notes.fileOf(id1), 0u);
    EXPECT_EQ(notes.fileOf(idJob), 1u);
    EXPECT_EQ(rankOfLane(trace, notes.find(id1)->lanes[0]), 1);
    EXPECT_EQ(notes.fileOfPid(kPid0), 1u);
    EXPECT_EQ(notes.fileOfPid(kPid1), 0u);

    // A new note on rank 0's lanes goes to rank 0's file, the second one now; editing the whole-job note keeps it
    // with the file it was read from.
    Annotation onRank0;
    onRank0.start = 1694128201422243000;
    onRank0.end = 1694128201423243000;
    onRank0.title = "rank 0 launches late";
    onRank0.lanes = { LaneIdentity::thread(kPid0, kPid0) };
    const std::string id0 = notes.add(onRank0);
    EXPECT_EQ(notes.fileOf(id0), 1u);
    Annotation edited = *notes.find(idJob);
    edited.record.hypothesis = "rank 3 is slow";
    ASSERT_TRUE(notes.update(edited));
    EXPECT_FALSE(notes.store(0).dirty());
    EXPECT_TRUE(notes.store(1).dirty());
    EXPECT_TRUE(notes.save().empty());

    auto sidecar0 = AnnotationStore::readFile(AnnotationStore::sidecarPathFor(files.rank0));
    ASSERT_TRUE(sidecar0);
    ASSERT_EQ(sidecar0.value().annotations.size(), 2u);
    EXPECT_EQ(sidecar0.value().annotations[0].id, idJob);
    EXPECT_EQ(sidecar0.value().annotations[0].record.hypothesis, "rank 3 is slow");
    EXPECT_EQ(sidecar0.value().annotations[1].id, id0);
    auto sidecar1 = AnnotationStore::readFile(AnnotationStore::sidecarPathFor(files.rank1));
    ASSERT_TRUE(sidecar1);
    EXPECT_EQ(sidecar1.value().annotations.size(), 1u);
}

TEST(NotesByFileTest, UndoOfARemovalPutsTheNoteBackInItsFileAndPlace)
{
    TwoRanks files;
    const auto [id1, idJob] = makeNotes(files);
    const Trace trace = load({ files.rank1, files.rank0 });
    NotesByFile notes = NotesByFile::openForTraces({ files.rank1, files.rank0 }, &trace);
    const Annotation removed = *notes.find(idJob);
    const auto position = notes.indexOf(idJob);
    ASSERT_EQ(position, 1u);
    ASSERT_TRUE(notes.remove(idJob));
    EXPECT_EQ(notes.annotations().size(), 1u);
    EXPECT_FALSE(notes.remove(idJob));
    // A note without lanes would go to the first file when new; it was read from rank 0's file, the second.
    notes.restore(removed, position);
    EXPECT_EQ(notes.fileOf(idJob), 1u);
    EXPECT_EQ(notes.indexOf(idJob), 1u);
    EXPECT_EQ(*notes.find(idJob), removed);
}

TEST(NotesByFileTest, AFailedSaveKeepsThatFilesNotesAndNamesIt)
{
    TwoRanks files;
    const Trace trace = load({ files.rank0, files.rank1 });
    NotesByFile notes = NotesByFile::openForTraces({ files.rank0, files.rank1 }, &trace);
    Annotation onRank0;
    onRank0.lanes = { LaneIdentity::gpuStream(kPid0, 0, 7) };
    Annotation onRank1;
    onRank1.lanes = { LaneIdentity::gpuStream(kPid1, 1, 7) };
    notes.add(onRank0);
    notes.add(onRank1);
    // Rank 0's folder goes away: its save fails, rank 1's succeeds.
    std::filesystem::remove_all(files.dir.file("r0"));
    const auto failures = notes.save();
    ASSERT_EQ(failures.size(), 1u);
    EXPECT_EQ(failures[0].file, 0u);
    EXPECT_EQ(failures[0].error.file, AnnotationStore::sidecarPathFor(files.rank0));
    EXPECT_TRUE(notes.store(0).dirty());
    EXPECT_FALSE(notes.store(1).dirty());
    EXPECT_EQ(notes.annotations().size(), 2u);
    EXPECT_TRUE(std::filesystem::exists(AnnotationStore::sidecarPathFor(files.rank1)));
}

TEST(NotesByFileTest, IdsAreUniqueAcrossFiles)
{
    TwoRanks files;
    const Trace trace = load({ files.rank0, files.rank1 });
    NotesByFile notes = NotesByFile::openForTraces({ files.rank0, files.rank1 }, &trace);
    Annotation a;
    a.id = "same";
    Annotation b = a;
    b.lanes = { LaneIdentity::gpuStream(kPid1, 1, 7) };
    EXPECT_EQ(notes.add(a), "same");
    const std::string other = notes.add(b);
    EXPECT_NE(other, "same");
    EXPECT_EQ(notes.fileOf("same"), 0u);
    EXPECT_EQ(notes.fileOf(other), 1u);
}

} // namespace
} // namespace gapscope
