// SPDX-License-Identifier: MIT
#include "cli/commands.h"
#include "cli/export_options.h"
#include "core/annotations/annotation_store.h"
#include "core/annotations/markdown_report.h"
#include "core/io/trace_file.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

namespace gapscope::cli {
namespace {

using test::readWholeFile;
using test::TempDir;
using test::writeWholeFile;

struct GoodArgs {
    const char* name;
    std::vector<std::string> args;
    std::optional<std::string> markdown;
    std::optional<std::string> png;
    WindowKind window;
    TimeNs t0, t1;
    int width, height;
};

class ExportOptionsAccept : public ::testing::TestWithParam<GoodArgs> { };

TEST_P(ExportOptionsAccept, Parses)
{
    const GoodArgs& c = GetParam();
    const auto options = parseExportOptions(c.args);
    ASSERT_TRUE(options) << options.error().message;
    EXPECT_EQ(options->trace, "t.json");
    EXPECT_EQ(options->markdown, c.markdown);
    EXPECT_EQ(options->png, c.png);
    EXPECT_EQ(options->window.kind, c.window);
    EXPECT_EQ(options->window.explicitStart, c.t0);
    EXPECT_EQ(options->window.explicitEnd, c.t1);
    EXPECT_EQ(options->width, c.width);
    EXPECT_EQ(options->height, c.height);
}

INSTANTIATE_TEST_SUITE_P(Cases, ExportOptionsAccept,
    ::testing::Values(GoodArgs { "Markdown", { "t.json", "--markdown", "o.md" }, "o.md", std::nullopt, WindowKind::Gpu,
                          0, 0, 1920, 1080 },
        GoodArgs { "PngSteps", { "--png", "o.png", "--window", "steps", "--size", "800x600", "t.json" }, std::nullopt,
            "o.png", WindowKind::Steps, 0, 0, 800, 600 },
        GoodArgs { "BothExplicitWindow", { "t.json", "--png", "o.png", "--markdown", "-", "--window", "1ms:2.5ms" },
            "-", "o.png", WindowKind::Explicit, 1'000'000, 2'500'000, 1920, 1080 }),
    [](const ::testing::TestParamInfo<GoodArgs>& info) { return std::string(info.param.name); });

struct BadArgs {
    const char* name;
    std::vector<std::string> args;
    std::string error;
};

class ExportOptionsReject : public ::testing::TestWithParam<BadArgs> { };

TEST_P(ExportOptionsReject, SaysWhy)
{
    const auto options = parseExportOptions(GetParam().args);
    ASSERT_FALSE(options);
    EXPECT_EQ(options.error().message, GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(Cases, ExportOptionsReject,
    ::testing::Values(BadArgs { "NoTrace", { "--markdown", "o.md" }, "no trace given" },
        BadArgs { "TwoTraces", { "a.json", "b.json", "--markdown", "o.md" }, "export takes one trace, got 2" },
        BadArgs { "NothingToExport", { "t.json" }, "nothing to export: give --markdown OUT and/or --png OUT" },
        BadArgs { "MissingValue", { "t.json", "--png" }, "--png needs a value" },
        BadArgs { "SizeZero", { "t.json", "--png", "o.png", "--size", "0x10" },
            "--size must be WxH in pixels, each 1..16384 (e.g. 1920x1080), got '0x10'" },
        BadArgs { "SizeOneNumber", { "t.json", "--png", "o.png", "--size", "800" },
            "--size must be WxH in pixels, each 1..16384 (e.g. 1920x1080), got '800'" },
        BadArgs { "SizeHuge", { "t.json", "--png", "o.png", "--size", "20000x10" },
            "--size must be WxH in pixels, each 1..16384 (e.g. 1920x1080), got '20000x10'" },
        BadArgs { "WindowBackwards", { "t.json", "--png", "o.png", "--window", "5ms:3ms" },
            "--window must be gpu, trace, steps or T0:T1 with T0 < T1 (ns on the trace clock, or with a unit: "
            "12.5ms), got '5ms:3ms'" },
        BadArgs { "UnknownOption", { "t.json", "--pdf", "o.pdf" }, "unknown option '--pdf'" }),
    [](const ::testing::TestParamInfo<BadArgs>& info) { return std::string(info.param.name); });

/// A copy of the real host-bound ResNet-50 trace in a temporary folder, so that its sidecar can be written.
class ExportCommandTest : public ::testing::Test {
protected:
    TempDir dir;
    std::string trace = dir.file("worker0.1623143089861.pt.trace.json.gz");

    void SetUp() override
    {
        std::filesystem::copy_file(test::dataPath(test::kResnet50Trace), trace);
        setPngExporter(nullptr);
    }
    void TearDown() override { setPngExporter(nullptr); }

    /// Saves one note over ProfilerStep#6 ([...648120000, ...823273000), 175153 µs per the TensorBoard plugin).
    void writeSidecar()
    {
        AnnotationStore store = AnnotationStore::openForTrace(trace);
        Annotation note;
        note.start = 1623142623648120000;
        note.end = 1623142623823273000;
        note.title = "Step 6 waits for the data loader";
        note.record.hypothesis = "num_workers=0 starves the GPU";
        store.add(note);
        ASSERT_TRUE(store.save().ok());
    }

    int run(std::vector<std::string> args)
    {
        out.str({});
        err.str({});
        return runExport(args, out, err);
    }
    std::ostringstream out;
    std::ostringstream err;
};

TEST_F(ExportCommandTest, MarkdownReportComesFromTheSidecar)
{
    writeSidecar();
    const std::string report = dir.file("hypotheses.md");
    ASSERT_EQ(run({ trace, "--markdown", report }), 0) << err.str();
    EXPECT_NE(err.str().find("wrote 1 annotation(s) to " + report), std::string::npos) << err.str();

    // The same text the core writes for the same notes: the command adds nothing of its own.
    auto loaded = loadTraceFile(trace);
    ASSERT_TRUE(loaded.ok());
    const AnnotationStore store = AnnotationStore::openForTrace(trace);
    const std::string expected = writeMarkdownReport(loaded.value(), store.annotations(),
        { "worker0.1623143089861.pt.trace.json.gz", trace + ".gapscope.json", {} });
    const std::string written = readWholeFile(report);
    EXPECT_EQ(written, expected);
    EXPECT_NE(written.find("## 1. Step 6 waits for the data loader\n"), std::string::npos);
    EXPECT_NE(written.find("**Hypothesis.** num_workers=0 starves the GPU\n"), std::string::npos);
    EXPECT_NE(written.find(" | 175.2 ms | "), std::string::npos) << written; // the step's window
}

TEST_F(ExportCommandTest, MarkdownToStandardOutputWithoutASidecar)
{
    ASSERT_EQ(run({ trace, "--markdown", "-" }), 0) << err.str();
    EXPECT_NE(
        out.str().find("# GapScope hypotheses: worker0.1623143089861.pt.trace.json.gz\n\n0 notes."), std::string::npos)
        << out.str();
    EXPECT_NE(out.str().find("No annotations yet"), std::string::npos);
    EXPECT_NE(err.str().find(trace + ".gapscope.json does not exist"), std::string::npos) << err.str();
}

TEST_F(ExportCommandTest, CorruptSidecarIsReportedAndLeftAlone)
{
    writeWholeFile(trace + ".gapscope.json", "{\"format\": \"gapscope-annotations\", ");
    ASSERT_EQ(run({ trace, "--markdown", "-" }), 0) << err.str();
    EXPECT_NE(err.str().find("the annotation sidecar cannot be read and is left as it is: " + trace
                  + ".gapscope.json: at byte 35: not valid JSON"),
        std::string::npos)
        << err.str();
    EXPECT_EQ(readWholeFile(trace + ".gapscope.json"), "{\"format\": \"gapscope-annotations\", ");
}

TEST_F(ExportCommandTest, PngWithoutTheRendererFailsClearlyAndWritesNothing)
{
    writeSidecar();
    const std::string report = dir.file("hypotheses.md");
    const std::string picture = dir.file("view.png");
    EXPECT_EQ(run({ trace, "--markdown", report, "--png", picture }), 1);
    EXPECT_NE(err.str().find("--png is not available in this build"), std::string::npos) << err.str();
    EXPECT_FALSE(std::filesystem::exists(picture));
    EXPECT_FALSE(std::filesystem::exists(report)); // checked before any work: nothing half done
}

TEST_F(ExportCommandTest, PngGoesToTheRegisteredRendererWithTheSidecarsNotes)
{
    writeSidecar();
    int calls = 0;
    ExportOptions seen;
    std::size_t notes = 0;
    std::size_t lanes = 0;
    setPngExporter([&](const Trace& t, const std::vector<Annotation>& annotations, const ExportOptions& options,
                       const NoteResults& measured) {
        ++calls;
        EXPECT_TRUE(measured.measurements.empty()); // the sidecar's note names no after trace
        seen = options;
        notes = annotations.size();
        lanes = t.lanes().size();
        return IoResult<void>();
    });
    const std::string picture = dir.file("view.png");
    ASSERT_EQ(run({ trace, "--png", picture, "--window", "steps", "--size", "640x480" }), 0) << err.str();
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(seen.png, picture);
    EXPECT_EQ(seen.window.kind, WindowKind::Steps);
    EXPECT_EQ(seen.width, 640);
    EXPECT_EQ(seen.height, 480);
    EXPECT_EQ(notes, 1u);
    EXPECT_GT(lanes, 0u);
    EXPECT_NE(err.str().find("wrote 640x480 picture to " + picture), std::string::npos) << err.str();

    setPngExporter([](const Trace&, const std::vector<Annotation>&, const ExportOptions& options, const NoteResults&) {
        return IoResult<void>(IoError { *options.png, std::nullopt, "disk full" });
    });
    EXPECT_EQ(run({ trace, "--png", picture }), 1);
    EXPECT_NE(err.str().find(picture + ": disk full"), std::string::npos) << err.str();
}

} // namespace
} // namespace gapscope::cli
