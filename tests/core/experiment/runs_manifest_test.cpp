// SPDX-License-Identifier: MIT
#include "core/experiment/runs_manifest.h"

#include "tests/temp_dir.h"

#include <gtest/gtest.h>

namespace gapscope {
namespace {

RunsManifest twoRuns()
{
    RunsManifest m;
    m.program = "/usr/bin/serve";
    m.arguments = { "--chunk-us", "2000" };
    m.environmentChanges
        = { { "NVTX_INJECTION64_PATH", "/lib/libgapscope_inject.so" }, { "CUDA_VISIBLE", std::nullopt } };
    m.kinds = "nvtx";
    ManifestRun good;
    good.file = "run-1.gapscope";
    good.startTime = "2026-12-03T15:04:05.123Z";
    good.startNs = 1'796'310'245'123'000'000;
    good.exitCode = 0;
    good.wallSeconds = 0.25;
    ManifestRun bad;
    bad.file = "run-2.gapscope";
    bad.signal = 11;
    bad.failed = true;
    bad.failure = "killed by signal 11 (Segmentation fault)";
    m.runs = { good, bad };
    return m;
}

TEST(RunsManifest, WritesAndReadsBackEveryField)
{
    test::TempDir dir;
    ASSERT_TRUE(writeRunsManifest(dir.path().string(), twoRuns()).ok());
    auto read = readRunsManifest(dir.path().string());
    ASSERT_TRUE(read.ok()) << read.error().toString();
    ASSERT_TRUE(read->has_value());
    const RunsManifest& m = **read;
    EXPECT_EQ(m.program, "/usr/bin/serve");
    EXPECT_EQ(m.arguments, (std::vector<std::string> { "--chunk-us", "2000" }));
    ASSERT_EQ(m.environmentChanges.size(), 2u);
    EXPECT_EQ(m.environmentChanges[0].second, "/lib/libgapscope_inject.so");
    EXPECT_FALSE(m.environmentChanges[1].second);
    EXPECT_EQ(m.kinds, "nvtx");
    ASSERT_EQ(m.runs.size(), 2u);
    EXPECT_EQ(m.runs[0].startNs, 1'796'310'245'123'000'000);
    EXPECT_EQ(m.runs[0].startTime, "2026-12-03T15:04:05.123Z");
    EXPECT_EQ(m.runs[0].exitCode, 0);
    EXPECT_DOUBLE_EQ(m.runs[0].wallSeconds, 0.25);
    EXPECT_FALSE(m.runs[1].exitCode);
    EXPECT_EQ(m.runs[1].signal, 11);
    EXPECT_TRUE(m.runs[1].failed);
    EXPECT_EQ(m.runs[1].failure, "killed by signal 11 (Segmentation fault)");
    EXPECT_EQ(m.goodRunFiles(), (std::vector<std::string> { "run-1.gapscope" }));
}

TEST(RunsManifest, AFolderWithoutOneIsNoError)
{
    test::TempDir dir;
    auto read = readRunsManifest(dir.path().string());
    ASSERT_TRUE(read.ok());
    EXPECT_FALSE(read->has_value());
}

TEST(RunsManifest, NamesWhatIsWrongWithABadOne)
{
    EXPECT_NE(
        parseRunsManifest("[1]", "m.json").error().toString().find("m.json: not a JSON object"), std::string::npos);
    EXPECT_NE(parseRunsManifest(R"({"runs": []})", "m.json").error().message.find("no gapscope_runs_version"),
        std::string::npos);
    EXPECT_NE(parseRunsManifest(R"({"gapscope_runs_version": 9, "runs": []})", "m.json").error().message.find("newer"),
        std::string::npos);
    EXPECT_NE(parseRunsManifest(R"({"gapscope_runs_version": 1, "runs": [{"exit_code": "x"}]})", "m.json")
                  .error()
                  .message.find("wrong type"),
        std::string::npos);
}

TEST(RunsManifest, NvtxOnlyMeansNoCudaKind)
{
    RunsManifest m;
    for (const auto& [kinds, nvtxOnly] : std::vector<std::pair<std::string, bool>> { { "nvtx", true }, { "all", false },
             { "kernel,nvtx", false }, { "cuda", false }, { "nvtx,overhead", false } }) {
        m.kinds = kinds;
        EXPECT_EQ(m.nvtxOnly(), nvtxOnly) << kinds;
    }
}

} // namespace
} // namespace gapscope
