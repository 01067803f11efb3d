// SPDX-License-Identifier: MIT
#include "core/annotations/annotation_store.h"

#include "tests/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include <unistd.h>

namespace gapscope {
namespace {

using test::readWholeFile;
using test::TempDir;
using test::writeWholeFile;

// 2024-05-01T12:34:56Z and one hour later.
const auto kCreatedAt = std::chrono::system_clock::from_time_t(1714566896);
const auto kEditedAt = kCreatedAt + std::chrono::hours(1);

/// A note with every field set, including text that JSON must escape and ns beyond 2^53.
Annotation fullAnnotation()
{
    Annotation a;
    a.id = "note-1";
    a.start = 1623143089861123457;
    a.end = 1623143090049071457;
    a.lanes = { LaneIdentity::thread(4242, 4243), LaneIdentity::gpuStream(4242, 1, 7) };
    a.gap = GapOrigin { 4242, 1, 7, 1623143089900000000, 1623143089912345678, "host" };
    a.title = "Data loading starves the GPU — \"num_workers=0\"";
    a.record.problem = "GPU idle 12.3 ms per step\nwhile the loader runs";
    a.record.baseline = "step p50 180 ms; utilization 55.5 %";
    a.record.hypothesis = "CPU-side `enumerate(DataLoader)` starves the GPU";
    a.record.change = "num_workers=4, pin_memory=True";
    a.record.correctnessCheck = "loss curve identical over 100 steps";
    a.record.performanceChange = "step p50 180 ms -> 95 ms";
    a.record.sideEffects = "+2.1 GB host memory; tab\there";
    a.status = AnnotationStatus::Supported;
    a.colour = "#12abEF";
    a.created = "2024-05-01T12:34:56Z";
    a.modified = "2024-05-02T08:00:00Z";
    return a;
}

/// A note with only the required fields.
Annotation bareAnnotation()
{
    Annotation a;
    a.id = "note-2";
    a.start = -5; // before the trace's clock origin: allowed, it is only a time
    a.end = -5;
    a.status = AnnotationStatus::Inconclusive;
    a.created = "2024-05-01T12:34:56Z";
    a.modified = "2024-05-01T12:34:56Z";
    return a;
}

class AnnotationStoreTest : public ::testing::Test {
protected:
    TempDir dir;
    std::string trace = dir.file("worker0.pt.trace.json.gz");
    std::string sidecar = trace + ".gapscope.json";

    AnnotationStore open()
    {
        AnnotationStore store = AnnotationStore::openForTrace(trace);
        store.setClock([] { return kCreatedAt; });
        return store;
    }
};

TEST_F(AnnotationStoreTest, SidecarPathsSitNextToTheTrace)
{
    EXPECT_EQ(AnnotationStore::sidecarPathFor("/data/run.json.gz"), "/data/run.json.gz.gapscope.json");
    EXPECT_EQ(AnnotationStore::alternatePathFor("/data/run.json.gz", 2), "/data/run.json.gz.gapscope-2.json");
    const AnnotationStore store = open();
    EXPECT_EQ(store.sidecarPath(), sidecar);
    EXPECT_EQ(store.savePath(), sidecar);
    EXPECT_FALSE(store.savesElsewhere());
    EXPECT_FALSE(store.loadError());
    EXPECT_TRUE(store.annotations().empty());
    EXPECT_EQ(store.loadedFrom(), "");
}

TEST_F(AnnotationStoreTest, RoundTripKeepsEveryField)
{
    AnnotationStore store = open();
    EXPECT_EQ(store.add(fullAnnotation()), "note-1");
    EXPECT_EQ(store.add(bareAnnotation()), "note-2");
    EXPECT_TRUE(store.dirty());
    ASSERT_TRUE(store.save().ok());
    EXPECT_FALSE(store.dirty());

    const std::string text = readWholeFile(sidecar);
    EXPECT_NE(text.find("\"format\": \"gapscope-annotations\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"version\": 1"), std::string::npos);
    EXPECT_NE(text.find("\"trace\": \"worker0.pt.trace.json.gz\""), std::string::npos);
    EXPECT_NE(text.find("1623143089861123457"), std::string::npos); // exact int64, not a double

    const AnnotationStore reopened = open();
    EXPECT_FALSE(reopened.loadError());
    EXPECT_EQ(reopened.loadedFrom(), sidecar);
    ASSERT_EQ(reopened.annotations().size(), 2u);
    EXPECT_EQ(reopened.annotations()[0], fullAnnotation());
    EXPECT_EQ(reopened.annotations()[1], bareAnnotation());
    EXPECT_FALSE(reopened.annotations()[1].gap.has_value());
    EXPECT_TRUE(reopened.annotations()[1].lanes.empty());
}

TEST_F(AnnotationStoreTest, AddAssignsIdsAndTimesAndUpdateTouchesModified)
{
    AnnotationStore store = open();
    Annotation a;
    a.start = 300;
    a.end = 100; // reversed by a right-to-left drag: put in order
    const std::string first = store.add(a);
    const std::string second = store.add(a);
    const std::regex uuid("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
    EXPECT_TRUE(std::regex_match(first, uuid)) << first;
    EXPECT_NE(first, second);
    a.id = first; // taken: a fresh one is given
    EXPECT_NE(store.add(a), first);
    EXPECT_EQ(store.annotations().size(), 3u);

    const Annotation* added = store.find(first);
    ASSERT_NE(added, nullptr);
    EXPECT_EQ(added->start, 100);
    EXPECT_EQ(added->end, 300);
    EXPECT_EQ(added->created, "2024-05-01T12:34:56Z");
    EXPECT_EQ(added->modified, "2024-05-01T12:34:56Z");
    EXPECT_EQ(added->status, AnnotationStatus::Open);
    EXPECT_EQ(added->colour, "#e69f00");

    store.setClock([] { return kEditedAt; });
    Annotation edited = *added;
    edited.title = "edited";
    EXPECT_TRUE(store.update(edited));
    EXPECT_EQ(store.find(first)->title, "edited");
    EXPECT_EQ(store.find(first)->created, "2024-05-01T12:34:56Z");
    EXPECT_EQ(store.find(first)->modified, "2024-05-01T13:34:56Z");
    edited.id = "absent";
    EXPECT_FALSE(store.update(edited));

    // Delete, then undo the delete: the note comes back where it was, times untouched.
    const Annotation before = *store.find(first);
    const auto index = store.indexOf(first);
    ASSERT_EQ(index, std::optional<std::size_t>(0));
    EXPECT_TRUE(store.remove(first));
    EXPECT_FALSE(store.remove(first));
    EXPECT_EQ(store.find(first), nullptr);
    store.restore(before, index);
    EXPECT_EQ(store.indexOf(first), std::optional<std::size_t>(0));
    EXPECT_EQ(*store.find(first), before);
}

TEST_F(AnnotationStoreTest, SaveKeepsThePreviousVersionAsBackup)
{
    AnnotationStore store = open();
    store.add(fullAnnotation());
    ASSERT_TRUE(store.save().ok());
    const std::string first = readWholeFile(sidecar);
    EXPECT_FALSE(std::filesystem::exists(sidecar + ".bak")); // nothing to keep the first time

    Annotation edited = fullAnnotation();
    edited.status = AnnotationStatus::Refuted;
    ASSERT_TRUE(store.update(edited));
    ASSERT_TRUE(store.save().ok());
    EXPECT_EQ(readWholeFile(sidecar + ".bak"), first);
    EXPECT_NE(readWholeFile(sidecar).find("\"status\": \"refuted\""), std::string::npos);
    // No temporary file left behind.
    EXPECT_EQ(dir.entries(),
        (std::vector<std::string> {
            "worker0.pt.trace.json.gz.gapscope.json", "worker0.pt.trace.json.gz.gapscope.json.bak" }));
}

TEST_F(AnnotationStoreTest, FailedSaveKeepsThePreviousFileAndTheNotes)
{
    AnnotationStore store = open();
    store.add(fullAnnotation());
    ASSERT_TRUE(store.save().ok());
    const std::string saved = readWholeFile(sidecar);

    // Make the save fail even as root (where a 0555 folder does not stop writes): the backup's name is
    // taken by a folder that cannot be replaced, so the commit stops before the rename.
    std::filesystem::create_directories(sidecar + ".bak/blocker");
    store.add(bareAnnotation());
    const auto failed = store.save();
    ASSERT_FALSE(failed.ok());
    EXPECT_EQ(failed.error().file, sidecar);
    EXPECT_NE(failed.error().message.find("kept in memory"), std::string::npos) << failed.error().message;
    ASSERT_TRUE(store.lastSaveError());
    EXPECT_EQ(store.lastSaveError()->message, failed.error().message);
    EXPECT_EQ(readWholeFile(sidecar), saved); // the previous file, byte for byte
    EXPECT_TRUE(store.dirty());
    ASSERT_EQ(store.annotations().size(), 2u); // the notes stay in memory
    EXPECT_EQ(store.annotations()[1], bareAnnotation());
    EXPECT_EQ(dir.entries(),
        (std::vector<std::string> {
            "worker0.pt.trace.json.gz.gapscope.json", "worker0.pt.trace.json.gz.gapscope.json.bak" }));

    // Once the obstacle is gone the next save writes both notes.
    std::filesystem::remove_all(sidecar + ".bak");
    ASSERT_TRUE(store.save().ok());
    EXPECT_FALSE(store.dirty());
    EXPECT_FALSE(store.lastSaveError());
    EXPECT_EQ(readWholeFile(sidecar + ".bak"), saved);
    EXPECT_EQ(open().annotations().size(), 2u);
}

TEST_F(AnnotationStoreTest, SaveIntoAnUnwritablePlaceFailsAndSaveAsElsewhereWorks)
{
    AnnotationStore store = open();
    store.add(fullAnnotation());
    // A path under a regular file: no folder to write in, whoever runs the test.
    writeWholeFile(dir.file("plain-file"), "x");
    const std::string impossible = dir.file("plain-file") + "/notes.gapscope.json";
    const auto failed = store.saveAs(impossible);
    ASSERT_FALSE(failed.ok());
    EXPECT_EQ(failed.error().file, impossible);
    EXPECT_NE(failed.error().message.find("cannot save the notes"), std::string::npos) << failed.error().message;
    EXPECT_EQ(store.savePath(), sidecar); // unchanged
    EXPECT_TRUE(store.dirty());
    EXPECT_EQ(store.annotations().size(), 1u);

    const std::string elsewhere = dir.file("elsewhere.gapscope.json");
    ASSERT_TRUE(store.saveAs(elsewhere).ok());
    EXPECT_EQ(store.savePath(), elsewhere);
    EXPECT_TRUE(store.savesElsewhere());
    EXPECT_FALSE(store.dirty());
    const auto read = AnnotationStore::readFile(elsewhere);
    ASSERT_TRUE(read.ok()) << read.error().toString();
    ASSERT_EQ(read.value().annotations.size(), 1u);
    EXPECT_EQ(read.value().annotations[0], fullAnnotation());
    EXPECT_FALSE(std::filesystem::exists(sidecar));
}

TEST_F(AnnotationStoreTest, ReadOnlyFolderGivesAClearErrorAndKeepsTheNotes)
{
    if (::geteuid() == 0)
        GTEST_SKIP() << "root writes into a 0555 folder; FailedSaveKeepsThePreviousFileAndTheNotes and "
                        "SaveIntoAnUnwritablePlaceFailsAndSaveAsElsewhereWorks force the failure another way";
    AnnotationStore store = open();
    store.add(fullAnnotation());
    std::filesystem::permissions(dir.path(), std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    const auto failed = store.save();
    std::filesystem::permissions(dir.path(), std::filesystem::perms::owner_all);
    ASSERT_FALSE(failed.ok());
    EXPECT_EQ(failed.error().file, sidecar);
    EXPECT_NE(failed.error().message.find("Permission denied"), std::string::npos) << failed.error().message;
    EXPECT_NE(failed.error().message.find("the notes are kept in memory"), std::string::npos);
    EXPECT_TRUE(store.dirty());
    EXPECT_EQ(store.annotations().size(), 1u);
    EXPECT_FALSE(std::filesystem::exists(sidecar));
}

TEST_F(AnnotationStoreTest, CorruptSidecarIsPreservedReportedAndNotesGoToANewFile)
{
    // Cut off in the middle of the second annotation, as an editor crash might leave it.
    const std::string corrupt = "{\"format\": \"gapscope-annotations\", \"version\": 1, \"annotations\": [\n"
                                "  {\"id\": \"a\", \"start\": 1, \"end\": 2},\n  {\"id\": \"b\", \"sta";
    writeWholeFile(sidecar, corrupt);

    AnnotationStore store = open();
    ASSERT_TRUE(store.loadError());
    EXPECT_EQ(store.loadError()->file, sidecar);
    // The text ends inside a string: nlohmann stops at the end of the input.
    EXPECT_EQ(store.loadError()->byteOffset, std::optional<std::uint64_t>(corrupt.size()));
    EXPECT_NE(store.loadError()->message.find("not valid JSON"), std::string::npos) << store.loadError()->message;
    EXPECT_TRUE(store.annotations().empty());
    EXPECT_TRUE(store.savesElsewhere());
    EXPECT_EQ(store.savePath(), trace + ".gapscope-1.json");

    store.add(fullAnnotation());
    ASSERT_TRUE(store.save().ok());
    EXPECT_EQ(readWholeFile(sidecar), corrupt); // untouched, byte for byte
    EXPECT_FALSE(std::filesystem::exists(sidecar + ".bak"));

    // The next session finds the notes in the new file while the sidecar stays broken.
    const AnnotationStore reopened = open();
    ASSERT_TRUE(reopened.loadError());
    EXPECT_EQ(reopened.loadedFrom(), trace + ".gapscope-1.json");
    EXPECT_EQ(reopened.savePath(), trace + ".gapscope-1.json");
    ASSERT_EQ(reopened.annotations().size(), 1u);
    EXPECT_EQ(reopened.annotations()[0], fullAnnotation());
    EXPECT_EQ(readWholeFile(sidecar), corrupt);
}

TEST_F(AnnotationStoreTest, BrokenAlternatesAreSkippedAndLeftAlone)
{
    writeWholeFile(sidecar, "not json");
    writeWholeFile(trace + ".gapscope-1.json", "{\"format\": \"something-else\"}");
    AnnotationStore store = open();
    EXPECT_EQ(store.savePath(), trace + ".gapscope-2.json");
    store.add(bareAnnotation());
    ASSERT_TRUE(store.save().ok());
    EXPECT_EQ(readWholeFile(sidecar), "not json");
    EXPECT_EQ(readWholeFile(trace + ".gapscope-1.json"), "{\"format\": \"something-else\"}");
    EXPECT_EQ(open().annotations().size(), 1u);
}

TEST_F(AnnotationStoreTest, NewerVersionIsRefusedWithAClearMessageAndLeftUnchanged)
{
    const std::string newer = "{\n  \"format\": \"gapscope-annotations\",\n  \"version\": 2,\n"
                              "  \"annotations\": [{\"id\": \"x\", \"range\": {\"from\": 1, \"to\": 2}}]\n}\n";
    writeWholeFile(sidecar, newer);
    AnnotationStore store = open();
    ASSERT_TRUE(store.loadError());
    EXPECT_EQ(store.loadError()->byteOffset, std::optional<std::uint64_t>(newer.find("\"version\"")));
    EXPECT_EQ(store.loadError()->toString(),
        sidecar
            + ": at byte 40: written by a newer GapScope (annotation format version 2; this build reads "
              "version 1): left unchanged, update GapScope to edit these notes");
    EXPECT_TRUE(store.annotations().empty());
    store.add(bareAnnotation());
    ASSERT_TRUE(store.save().ok());
    EXPECT_EQ(readWholeFile(sidecar), newer);
    EXPECT_TRUE(std::filesystem::exists(trace + ".gapscope-1.json"));
}

TEST_F(AnnotationStoreTest, ASidecarThatIsAFolderIsReportedNotRead)
{
    std::filesystem::create_directory(sidecar);
    AnnotationStore store = open();
    ASSERT_TRUE(store.loadError());
    EXPECT_EQ(store.loadError()->message, "not a regular file");
    EXPECT_EQ(store.savePath(), trace + ".gapscope-1.json");
}

} // namespace
} // namespace gapscope
