// SPDX-License-Identifier: MIT
#include "core/annotations/notes_folders.h"

#include "core/annotations/annotation_store.h"
#include "tests/scoped_environment.h"
#include "tests/temp_dir.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

namespace gapscope {
namespace {

using test::ScopedEnvironment;
using test::TempDir;
using test::writeWholeFile;

Annotation note(const std::string& title)
{
    Annotation a;
    a.start = 1'000;
    a.end = 2'000;
    a.title = title;
    return a;
}

class NotesFoldersTest : public ::testing::Test {
protected:
    TempDir dir;
    std::string program = dir.file("share/gapscope/demo");
    std::string user = dir.file("data/gapscope/notes");
    std::string trace = program + "/resnet.pt.trace.json.gz";

    void SetUp() override
    {
        std::filesystem::create_directories(program);
        writeWholeFile(trace, "{}");
    }
    NotesFolders folders() const { return NotesFolders { user, { program } }; }
};

TEST_F(NotesFoldersTest, TheNotesOfATraceInTheProgramsFolderAreSavedInTheUserFolder)
{
    AnnotationStore store = AnnotationStore::openForTrace(trace, folders());
    EXPECT_EQ(store.home(), NotesHome::ProgramFolder);
    EXPECT_EQ(store.sidecarPath(), user + "/resnet.pt.trace.json.gz.gapscope.json");
    EXPECT_EQ(store.savePath(), store.sidecarPath());
    EXPECT_FALSE(store.savesElsewhere());
    store.add(note("loader starves the GPU"));
    ASSERT_TRUE(store.save().ok());
    EXPECT_TRUE(std::filesystem::exists(user + "/resnet.pt.trace.json.gz.gapscope.json"));
    EXPECT_FALSE(std::filesystem::exists(trace + ".gapscope.json"));
    // Only the trace is in the program's folder: nothing was written there.
    EXPECT_EQ(dir.entries(), (std::vector<std::string> { "data", "share" }));
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(program), {}), 1);

    const AnnotationStore reopened = AnnotationStore::openForTrace(trace, folders());
    ASSERT_EQ(reopened.annotations().size(), 1U);
    EXPECT_EQ(reopened.annotations()[0].title, "loader starves the GPU");
    EXPECT_EQ(reopened.loadedFrom(), user + "/resnet.pt.trace.json.gz.gapscope.json");
}

TEST_F(NotesFoldersTest, AProgramFolderNamedThroughAnotherPathIsStillTheProgramsFolder)
{
    const NotesFolders throughDots { user, { program + "/../demo/" } };
    EXPECT_EQ(sidecarPlaceFor(trace, throughDots).home, NotesHome::ProgramFolder);
    EXPECT_EQ(sidecarPlaceFor(dir.file("share/gapscope/other.json"), throughDots).home, NotesHome::NextToTrace);
}

TEST_F(NotesFoldersTest, NotesAnEarlierVersionSavedNextToTheTraceAreReadThenSavedInTheUserFolder)
{
    {
        AnnotationStore old(trace + ".gapscope.json");
        old.add(note("from before"));
        ASSERT_TRUE(old.save().ok());
    }
    AnnotationStore store = AnnotationStore::openForTrace(trace, folders());
    ASSERT_EQ(store.annotations().size(), 1U);
    EXPECT_EQ(store.annotations()[0].title, "from before");
    EXPECT_EQ(store.loadedFrom(), trace + ".gapscope.json");
    EXPECT_EQ(store.savePath(), user + "/resnet.pt.trace.json.gz.gapscope.json");
    store.add(note("new"));
    ASSERT_TRUE(store.save().ok());
    const AnnotationStore reopened = AnnotationStore::openForTrace(trace, folders());
    EXPECT_EQ(reopened.annotations().size(), 2U);
    EXPECT_EQ(reopened.loadedFrom(), user + "/resnet.pt.trace.json.gz.gapscope.json");
}

TEST_F(NotesFoldersTest, ABrokenSidecarInTheUserFolderIsLeftAloneAndNotesGoToAnAlternateThere)
{
    std::filesystem::create_directories(user);
    writeWholeFile(user + "/resnet.pt.trace.json.gz.gapscope.json", "not json");
    AnnotationStore store = AnnotationStore::openForTrace(trace, folders());
    ASSERT_TRUE(store.loadError());
    EXPECT_EQ(store.savePath(), user + "/resnet.pt.trace.json.gz.gapscope-1.json");
    EXPECT_TRUE(store.savesElsewhere());
}

TEST_F(NotesFoldersTest, WithoutAUserFolderNotesStayNextToTheTrace)
{
    EXPECT_EQ(sidecarPlaceFor(trace, NotesFolders { "", { program } }).path, trace + ".gapscope.json");
    EXPECT_EQ(sidecarPlaceFor(trace, NotesFolders { "", { program } }).home, NotesHome::NextToTrace);
}

TEST_F(NotesFoldersTest, ATraceInAFolderTheUserCannotWriteHasItsNotesInTheUserFolderUnderItsFoldersHash)
{
    if (::geteuid() == 0)
        GTEST_SKIP() << "root may write to any folder";
    const std::string readOnly = dir.file("readonly");
    std::filesystem::create_directories(readOnly);
    writeWholeFile(readOnly + "/run.json", "{}");
    std::filesystem::permissions(readOnly, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    const SidecarPlace place = sidecarPlaceFor(readOnly + "/run.json", NotesFolders { user, {} });
    std::filesystem::permissions(readOnly, std::filesystem::perms::owner_all);
    EXPECT_EQ(place.home, NotesHome::ReadOnlyFolder);
    EXPECT_EQ(place.path.rfind(user + "/run.json-", 0), 0U) << place.path;
    EXPECT_EQ(place.path.size(), (user + "/run.json-").size() + 16 + std::string(".gapscope.json").size());
}

TEST(NotesFoldersFromEnvironment, TheUserFolderIsUnderXdgDataHomeElseUnderHome)
{
    {
        const ScopedEnvironment xdg("XDG_DATA_HOME", "/srv/me/data");
        const ScopedEnvironment home("HOME", "/home/me");
        EXPECT_EQ(NotesFolders::fromEnvironment().user, "/srv/me/data/gapscope/notes");
    }
    {
        // A relative XDG_DATA_HOME is to be ignored (XDG base directory specification).
        const ScopedEnvironment xdg("XDG_DATA_HOME", "data");
        const ScopedEnvironment home("HOME", "/home/me");
        EXPECT_EQ(NotesFolders::fromEnvironment().user, "/home/me/.local/share/gapscope/notes");
    }
    {
        const ScopedEnvironment xdg("XDG_DATA_HOME", nullptr);
        const ScopedEnvironment home("HOME", nullptr);
        EXPECT_EQ(NotesFolders::fromEnvironment().user, "");
    }
    EXPECT_TRUE(NotesFolders::fromEnvironment().program.empty());
}

} // namespace
} // namespace gapscope
