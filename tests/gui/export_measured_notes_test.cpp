// SPDX-License-Identifier: MIT
// `gapscope export --png` shows each measured note's before/after figures, verdict and window in the
// picture's header, the same measurement `gapscope diff --note` and `export --markdown` make.
#include "app/export/cli_picture_exporter.h"
#include "app/export/picture_header.h"
#include "cli/commands.h"
#include "cli/export_options.h"
#include "core/annotations/annotation_store.h"
#include "core/annotations/gap_explanation.h"
#include "core/io/trace_file.h"
#include "core/model/time_format.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <QImage>

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

using namespace gapscope;

namespace {

const char* const kBase = test::kResnet50Trace;
const char* const kNew = test::kResnet50Workers4Trace;

TEST(ExportMeasuredNotes, HeaderShowsTheVerdictAndFiguresOfEachMeasuredNote)
{
    test::TempDir dir;
    const std::string before = dir.file("before.json.gz");
    std::filesystem::copy_file(test::dataPath(kBase), before);
    auto base = loadTraceFile(before);
    ASSERT_TRUE(base.ok());
    auto fresh = loadTraceFile(test::dataPath(kNew));
    ASSERT_TRUE(fresh.ok());
    const AnalysisResult result = analyze(base.value(), {});
    Annotation note = explainGap(base.value(), result, result.gaps[longestDeviceGaps(result, 1).front()]);
    note.id = "host-gap";
    note.title = "GPU idle 62 ms: waiting for the data loader";
    note.afterTrace = std::filesystem::proximate(test::dataPath(kNew), dir.path()).string();
    {
        AnnotationStore store = AnnotationStore::openForTrace(before);
        store.add(note);
        ASSERT_TRUE(store.save());
    }
    const std::vector<Annotation> notes = AnnotationStore::openForTrace(before).annotations();
    ASSERT_EQ(notes.size(), 1u);

    // What diff --note measures, worked out here from core.
    const NoteMeasurement m
        = measureNoteAgainst(base.value(), fresh.value(), notes[0], noteComparisonOptions(base.value()));
    ASSERT_EQ(m.steps.verdict, Verdict::Faster);
    cli::ExportOptions options;
    options.trace = before;
    options.png = dir.file("picture.png");
    cli::NoteResults measured;
    measured.measurements[note.id] = m;
    auto prepared = picture::prepareCliPicture(base.value(), notes, options, measured);
    ASSERT_TRUE(prepared.ok());
    const QStringList lines = picture::measuredNoteLines(prepared.value()->request);
    ASSERT_EQ(lines.size(), 1);
    const std::string line = lines[0].toStdString();
    EXPECT_NE(line.find("Note \u201cGPU idle 62 ms: waiting for the data loader\u201d against " + note.afterTrace
                  + "; verdict faster; "),
        std::string::npos)
        << line;
    EXPECT_NE(line.find("verdict faster"), std::string::npos) << line;
    EXPECT_NE(
        line.find("step p50 " + formatDuration(m.steps.base.p50Ns) + " \u2192 " + formatDuration(m.steps.fresh.p50Ns)),
        std::string::npos)
        << line;
    EXPECT_NE(line.find("step p50 175.2 ms \u2192 126.2 ms"), std::string::npos) << line;
    EXPECT_NE(
        line.find(m.figure + " " + formatDuration(m.figureBeforeNs) + " \u2192 " + formatDuration(m.figureAfterNs)),
        std::string::npos)
        << line;
    EXPECT_NE(line.find("window steps (warm-up 1 excluded) of each run"), std::string::npos) << line;
    EXPECT_NE(line.find("proposed status supported, status open"), std::string::npos) << line;
    // The header grows by the note's lines; without a measurement it says why.
    auto bare = picture::prepareCliPicture(base.value(), notes, options);
    ASSERT_TRUE(bare.ok());
    EXPECT_GT(
        picture::headerHeight(prepared.value()->request, 1920), picture::headerHeight(bare.value()->request, 1920));
    EXPECT_TRUE(
        picture::measuredNoteLines(bare.value()->request)[0].endsWith(QStringLiteral("not measured in this picture")));

    // End to end: `gapscope export TRACE --png OUT` measures the note against its after trace and draws the line.
    cli::setPngExporter(picture::exportPictureForCli);
    std::ostringstream out;
    std::ostringstream err;
    ASSERT_EQ(cli::runExport({ before, "--png", *options.png }, out, err), 0) << err.str();
    const QImage withNote(QString::fromStdString(*options.png));
    ASSERT_EQ(withNote.size(), QSize(1920, 1080));
    const auto drawnBare = picture::exportPictureForCli(base.value(), notes, options);
    ASSERT_TRUE(drawnBare.ok());
    const QImage withoutMeasurement(QString::fromStdString(*options.png));
    EXPECT_NE(withNote, withoutMeasurement);
    ASSERT_TRUE(picture::exportPictureForCli(base.value(), notes, options, measured).ok());
    EXPECT_EQ(QImage(QString::fromStdString(*options.png)), withNote); // the CLI drew exactly the measured header
}

} // namespace
