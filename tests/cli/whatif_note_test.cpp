// SPDX-License-Identifier: MIT
// The prediction written before the change and checked after it: `whatif --note ID` on the ResNet-50 run with the
// data loader on the main thread, then `diff --note ID` against the run with four loader workers.
#include "cli/commands.h"
#include "core/annotations/annotation_store.h"
#include "tests/cli/cli_run.h"
#include "tests/cli/loader_note.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace gapscope::cli {
namespace {

using test::RunResult;

const std::string kResnet0 = test::dataPath(test::kResnet50Trace);
const std::string kResnet4 = test::dataPath(test::kResnet50Workers4Trace);

std::string contentOf(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// A copy of the num_workers=0 trace in `dir` with one note "loader" on it.
std::string traceWithNote(const test::TempDir& dir)
{
    std::string trace = dir.file("before.json.gz");
    std::filesystem::copy_file(kResnet0, trace);
    AnnotationStore store = AnnotationStore::openForTrace(trace);
    store.add(test::loaderNote());
    EXPECT_TRUE(store.save());
    return trace;
}

TEST(WhatIfNote, ThePredictionWrittenBeforeIsCheckedByTheMeasurementAfter)
{
    test::TempDir dir;
    const std::string before = traceWithNote(dir);
    const RunResult predicted = test::run(runWhatIf, { "--scale", "__next__=0", "--note", "loader", before });
    ASSERT_EQ(predicted.exitCode, 0) << predicted.err;
    EXPECT_NE(predicted.out.find("The prediction is in note loader"), std::string::npos) << predicted.out;

    const AnnotationStore written = AnnotationStore::openForTrace(before);
    const Annotation* note = written.find("loader");
    ASSERT_NE(note, nullptr);
    ASSERT_TRUE(note->prediction);
    EXPECT_EQ(note->prediction->scales, (std::vector<PredictedScale> { { "__next__", 0.0 } }));
    EXPECT_EQ(note->prediction->windowCount, 5); // ProfilerStep#6-#10: #5 is warm-up, as diff --note measures
    EXPECT_EQ(note->prediction->warmupSteps, 1);
    EXPECT_EQ(note->prediction->measuredP50Ns, 175'153'000);
    EXPECT_EQ(note->prediction->predictedP50Ns / 100'000, 1187); // 118.7 ms, as `whatif` prints
    EXPECT_EQ(note->title, "The data loader holds the main thread");

    const RunResult measured = test::run(runDiff, { "--note", "loader", before, kResnet4 });
    ASSERT_EQ(measured.exitCode, 0) << measured.err;
    EXPECT_NE(measured.out.find("Prediction: Predicted step p50 change -56.44 ms (-32.23 %), measured -48.97 ms "
                                "(-27.96 %): the prediction is off by +7.474 ms, inside the measured 95 % interval "
                                "[-56.65 ms, -11.69 ms]: the model of the step held."),
        std::string::npos)
        << measured.out;

    std::ostringstream out;
    std::ostringstream err;
    ASSERT_EQ(runExport({ before, "--markdown", "-" }, out, err), 0) << err.str();
    const std::string markdown = out.str();
    EXPECT_NE(markdown.find("| step p50 change | -56.44 ms (-32.23 %) | -48.97 ms (-27.96 %) | +7.474 ms |"),
        std::string::npos)
        << markdown;
    EXPECT_NE(markdown.find("**Prediction:** held"), std::string::npos) << markdown;
}

TEST(WhatIfNote, AnUnknownNoteOrAnUnreadableSidecarIsLeftAsItWas)
{
    test::TempDir dir;
    const std::string before = traceWithNote(dir);
    const std::string sidecar = AnnotationStore::sidecarPathFor(before);
    const std::string original = contentOf(sidecar);
    const RunResult unknown = test::run(runWhatIf, { "--scale", "__next__=0", "--note", "nope", before });
    EXPECT_EQ(unknown.exitCode, 1);
    EXPECT_NE(unknown.err.find("has no note with id 'nope'"), std::string::npos) << unknown.err;
    EXPECT_EQ(contentOf(sidecar), original);

    std::ofstream(sidecar, std::ios::trunc) << "{ broken";
    const RunResult broken = test::run(runWhatIf, { "--scale", "__next__=0", "--note", "loader", before });
    EXPECT_EQ(broken.exitCode, 1);
    EXPECT_NE(broken.err.find("cannot be read, so the prediction was not written"), std::string::npos) << broken.err;
    EXPECT_EQ(contentOf(sidecar), "{ broken");
}

TEST(WhatIfNote, AFailedSaveLeavesTheSidecarAsItWas)
{
    test::TempDir dir;
    const std::string before = traceWithNote(dir);
    const std::string sidecar = AnnotationStore::sidecarPathFor(before);
    const std::string original = contentOf(sidecar);
    // The backup's name taken by a folder that cannot be replaced (so even root's save fails before the rename).
    std::filesystem::create_directories(sidecar + ".bak/blocker");
    const RunResult r = test::run(runWhatIf, { "--scale", "__next__=0", "--note", "loader", before });
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("the prediction could not be saved (the note is unchanged)"), std::string::npos) << r.err;
    EXPECT_EQ(contentOf(sidecar), original);
}

} // namespace
} // namespace gapscope::cli
