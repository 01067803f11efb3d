// SPDX-License-Identifier: MIT
// The notes of the bundled demo trace on the command line: `whatif --note`, `diff --note` and `export` find them in
// the user's notes folder, where the viewer keeps them, and never write into the program's folder.
#include "cli/commands.h"
#include "core/annotations/annotation_store.h"
#include "core/io/bundled_demo.h"
#include "tests/cli/cli_run.h"
#include "tests/cli/loader_note.h"
#include "tests/scoped_environment.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

namespace gapscope::cli {
namespace {

using test::RunResult;

TEST(DemoNotesOnTheCommandLine, WhatIfDiffAndExportUseTheUserFolderAsTheViewerDoes)
{
    const test::TempDir data;
    const test::ScopedEnvironment dataHome("XDG_DATA_HOME", data.path().c_str());
    const std::string demo = bundledDemoTrace();
    ASSERT_EQ(std::filesystem::weakly_canonical(demo),
        std::filesystem::weakly_canonical(test::dataPath(std::string("../../resources/demo/") + kBundledDemoFile)));
    const std::string nextToDemo = demo + ".gapscope.json";
    ASSERT_FALSE(std::filesystem::exists(nextToDemo)) << "a stray " << nextToDemo << " would hide what is tested";
    const std::filesystem::path notes = data.path() / "gapscope" / "notes";
    const std::string sidecar = (notes / (std::string(kBundledDemoFile) + ".gapscope.json")).string();

    // A note the viewer saved on the demo.
    std::filesystem::create_directories(notes);
    {
        AnnotationStore store(sidecar);
        store.add(test::loaderNote());
        ASSERT_TRUE(store.save());
    }

    const RunResult predicted = test::run(runWhatIf, { "--scale", "__next__=0", "--note", "loader", demo });
    ASSERT_EQ(predicted.exitCode, 0) << predicted.err;
    const RunResult measured
        = test::run(runDiff, { "--note", "loader", demo, test::dataPath(test::kResnet50Workers4Trace) });
    ASSERT_EQ(measured.exitCode, 0) << measured.err;

    const auto written = AnnotationStore::readFile(sidecar);
    ASSERT_TRUE(written) << written.error().toString();
    ASSERT_EQ(written->annotations.size(), 1U);
    const Annotation* note = &written->annotations.front();
    ASSERT_TRUE(note->prediction);
    EXPECT_EQ(note->prediction->measuredP50Ns, 175'153'000); // ProfilerStep#5-#10 of the demo, as `whatif` prints
    EXPECT_NE(note->record.performanceChange.find(": faster."), std::string::npos) << note->record.performanceChange;

    std::ostringstream out;
    std::ostringstream err;
    ASSERT_EQ(runExport({ demo, "--markdown", "-" }, out, err), 0) << err.str();
    EXPECT_NE(out.str().find("The data loader holds the main thread"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("| step p50 | 175.2 ms | 126.2 ms |"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("**Prediction:** held"), std::string::npos) << out.str();

    const bool wroteNextToDemo = std::filesystem::exists(nextToDemo);
    if (wroteNextToDemo)
        std::filesystem::remove(nextToDemo); // keep the program's folder clean even when the test fails
    EXPECT_FALSE(wroteNextToDemo) << "a command wrote the demo's notes into the program's folder";
}

TEST(DemoNotesOnTheCommandLine, TheProgramsFoldersHoldTheDemo)
{
    const test::TempDir data;
    const test::ScopedEnvironment dataHome("XDG_DATA_HOME", data.path().c_str());
    const NotesFolders folders = NotesFolders::ofThisProgram();
    EXPECT_EQ(folders.user, (data.path() / "gapscope" / "notes").string());
    const SidecarPlace place = sidecarPlaceFor(bundledDemoTrace(), folders);
    EXPECT_EQ(place.home, NotesHome::ProgramFolder);
    EXPECT_EQ(place.path, folders.user + "/" + kBundledDemoFile + ".gapscope.json");
}

} // namespace
} // namespace gapscope::cli
