// SPDX-License-Identifier: MIT
// `gapscope report` of a file cut short says so on its first line, before any figure, with the size the file
// ends at; a complete file's report starts with its figures as before.
#include "cli/commands.h"
#include "tests/cli/cli_run.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace gapscope::cli {
namespace {

const char* const kNew = "kineto/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz";

/// The first `bytes` bytes of a test trace, as `head -c` writes them.
std::string cutCopy(const test::TempDir& dir, const char* relative, std::size_t bytes)
{
    std::ifstream in(test::dataPath(relative), std::ios::binary);
    std::string data(bytes, '\0');
    in.read(data.data(), static_cast<std::streamsize>(bytes));
    EXPECT_EQ(static_cast<std::size_t>(in.gcount()), bytes);
    const std::string path = dir.file("t.json.gz");
    std::ofstream(path, std::ios::binary).write(data.data(), static_cast<std::streamsize>(bytes));
    return path;
}

TEST(ReportCutShort, FirstLineSaysTheFileIsCutShortAndFiguresCoverOnlyWhatWasRead)
{
    test::TempDir dir;
    const std::string path = cutCopy(dir, kNew, 300'000);
    const test::RunResult r = test::run(runReport, { path });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string first = r.out.substr(0, r.out.find('\n'));
    EXPECT_EQ(first.rfind("t.json.gz is cut short: the file ends after 300.0 kB, in the middle of its content; what "
                          "followed is missing. Every figure covers only what was read (the content up to byte ",
                  0),
        0u)
        << first;
}

TEST(ReportCutShort, JsonSaysFirstThatTheFileIsCutShortAndWhere)
{
    test::TempDir dir;
    const std::string path = cutCopy(dir, kNew, 300'000);
    const test::RunResult text = test::run(runReport, { path });
    const test::RunResult r = test::run(runReport, { "--json", path });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // The first key, before any figure.
    EXPECT_EQ(r.out.rfind("{\n  \"cut_short\": ", 0), 0u) << r.out.substr(0, 200);
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["cut_short"].size(), 1u);
    const auto& cut = doc["cut_short"][0];
    EXPECT_EQ(cut["file"], path);
    EXPECT_EQ(cut["file_bytes"], 300'000);
    EXPECT_EQ(cut["message"], text.out.substr(0, text.out.find('\n')));
    // Where the content ended is the reader's own warning's byte, in the decompressed content.
    const std::string said = cut["message"].get<std::string>();
    EXPECT_NE(
        said.find("(the content up to byte " + std::to_string(cut["content_read_bytes"].get<std::uint64_t>()) + ")"),
        std::string::npos)
        << said;
    EXPECT_GT(cut["content_read_bytes"].get<std::uint64_t>(), 300'000u);
    bool warned = false;
    for (const auto& w : doc["import"]["warnings"])
        warned = warned || (w["byte_offset"] == cut["content_read_bytes"] && w["file"] == path);
    EXPECT_TRUE(warned) << doc["import"]["warnings"].dump();
}

TEST(ReportCutShort, CompleteFileStartsWithItsFigures)
{
    const test::RunResult r = test::run(runReport, { test::dataPath(kNew) });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out.find("cut short"), std::string::npos) << r.out.substr(0, 400);
    const test::RunResult json = test::run(runReport, { "--json", test::dataPath(kNew) });
    ASSERT_EQ(json.exitCode, 0) << json.err;
    EXPECT_EQ(nlohmann::json::parse(json.out)["cut_short"], nlohmann::json::array());
}

} // namespace
} // namespace gapscope::cli
