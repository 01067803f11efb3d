// SPDX-License-Identifier: MIT
// `gapscope convert IN OUT` through gapscope::cli::runConvert: the converted file reloads with the same
// events and the same GPU figures; bad input is reported with the file's name and a non-zero exit code.
#include "cli/commands.h"
#include "core/analysis/analysis.h"
#include "core/io/trace_file.h"

#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

namespace gapscope {
namespace {

using test::dataPath;
using test::TempDir;

struct ConvertCase {
    const char* label;
    const char* input;
    const char* outputName;
    // docs/definitions.md union over the `gpu` window of device 0, in µs: SOURCES.md, marked "(computed)".
    TimeNs spanUs;
    TimeNs busyUs;
};

/// Span (first activity start to last activity end) and busy time of the first device, in ns.
std::pair<TimeNs, TimeNs> gpuFigures(const Trace& trace)
{
    const IntervalSet busy = deviceBusy(trace, DeviceIndex { 0 }, ActivitySet::All);
    if (busy.empty())
        return { 0, 0 };
    return { busy.intervals().back().end - busy.intervals().front().start, busy.totalLength() };
}

class ConvertCommand : public testing::TestWithParam<ConvertCase> { };

TEST_P(ConvertCommand, ConvertedFileReloadsWithTheSameEventsAndFigures)
{
    const ConvertCase& c = GetParam();
    TempDir dir;
    const std::string output = dir.file(c.outputName);
    std::ostringstream out;
    std::ostringstream err;
    const int rc = cli::runConvert({ dataPath(c.input), output }, out, err);
    ASSERT_EQ(rc, 0) << err.str();

    auto original = loadTraceFile(dataPath(c.input));
    ASSERT_TRUE(original) << original.error().toString();
    auto converted = loadTraceFile(output);
    ASSERT_TRUE(converted) << converted.error().toString();
    EXPECT_EQ(converted.value().eventCount(), original.value().eventCount());
    EXPECT_EQ(converted.value().processes().size(), original.value().processes().size());
    EXPECT_EQ(out.str(),
        "wrote " + output + ": " + std::to_string(original.value().processes().size()) + " process(es), "
            + std::to_string(original.value().eventCount()) + " events\n");

    const auto [span, busy] = gpuFigures(converted.value());
    EXPECT_EQ(span, c.spanUs * 1000);
    EXPECT_EQ(busy, c.busyUs * 1000);
    EXPECT_EQ(gpuFigures(original.value()), gpuFigures(converted.value()));
}

INSTANTIATE_TEST_SUITE_P(TestData, ConvertCommand,
    testing::Values(ConvertCase { "simpleAddToGzip",
                        "hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz",
                        "simple_add.json.gz", 16025575, 49758 },
        ConvertCase { "legacyArrayToJson", test::kResnet50LegacyTrace, "legacy.json", 1292150, 649472 },
        ConvertCase {
            "sampledRank1ToGzip", "hta/trace_filter/sampled_rank-1.json.gz", "rank1.json.gz", 1231186, 580050 },
        ConvertCase {
            "tbPluginDerived", "kineto/derived/tb_plugin_test_gpu_utilization.json", "derived.JSON", 90, 60 }),
    [](const auto& info) { return std::string(info.param.label); });

TEST(ConvertCommandErrors, BadInputIsReportedWithTheFileNameAndExitCodeOne)
{
    TempDir dir;
    const std::string input = dir.file("notes.txt");
    test::writeWholeFile(input, "not a trace\n");
    const std::string output = dir.file("out.json");
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(cli::runConvert({ input, output }, out, err), 1);
    EXPECT_NE(err.str().find(input), std::string::npos) << err.str();
    EXPECT_TRUE(out.str().empty());
    EXPECT_FALSE(std::filesystem::exists(output));
}

TEST(ConvertCommandErrors, TruncatedJsonIsReportedWithTheFileName)
{
    TempDir dir;
    const std::string input = dir.file("cut.json");
    test::writeWholeFile(input, R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur")");
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(cli::runConvert({ input, dir.file("out.json") }, out, err), 1);
    EXPECT_NE(err.str().find(input), std::string::npos) << err.str();
}

TEST(ConvertCommandErrors, MissingInputAndUnsupportedOutputAreErrors)
{
    TempDir dir;
    std::ostringstream out;
    std::ostringstream err;
    const std::string missing = dir.file("absent.json");
    EXPECT_EQ(cli::runConvert({ missing, dir.file("out.json") }, out, err), 1);
    EXPECT_NE(err.str().find(missing), std::string::npos) << err.str();

    err.str("");
    const std::string csv = dir.file("out.csv");
    EXPECT_EQ(cli::runConvert({ dataPath("kineto/derived/tb_plugin_test_gpu_utilization.json"), csv }, out, err), 1);
    EXPECT_NE(err.str().find(csv), std::string::npos) << err.str();
    EXPECT_NE(err.str().find(".json, .json.gz"), std::string::npos) << err.str();
    EXPECT_FALSE(std::filesystem::exists(csv));
}

TEST(ConvertCommandErrors, WrongArgumentsPrintUsage)
{
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(cli::runConvert({ "only-one.json" }, out, err), 2);
    EXPECT_NE(err.str().find("usage: gapscope convert IN OUT"), std::string::npos);
}

} // namespace
} // namespace gapscope
