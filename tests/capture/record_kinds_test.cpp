// SPDX-License-Identifier: MIT
// `--kinds` lists and the program lookup of `gapscope record`.

#include "capture/launcher/program_lookup.h"
#include "capture/launcher/record_kinds.h"

#include "tests/temp_dir.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

namespace gapscope::capture {
namespace {

struct KindsCase {
    const char* list;
    std::uint32_t expected; // 0: an error
    const char* text; // recordKindsText of the result, or part of the error
};

class RecordKindsTest : public ::testing::TestWithParam<KindsCase> { };

TEST_P(RecordKindsTest, ParsesTheList)
{
    const KindsCase& c = GetParam();
    const auto kinds = parseRecordKinds(c.list);
    if (c.expected == 0) {
        ASSERT_FALSE(kinds.ok());
        EXPECT_NE(kinds.error().message.find(c.text), std::string::npos) << kinds.error().message;
        return;
    }
    ASSERT_TRUE(kinds.ok()) << kinds.error().message;
    EXPECT_EQ(*kinds, c.expected);
    EXPECT_EQ(recordKindsText(*kinds), c.text);
}

INSTANTIATE_TEST_SUITE_P(Lists, RecordKindsTest,
    ::testing::Values(KindsCase { "all", kAllRecordKinds, "all" }, KindsCase { "kernel", RecordKernels, "kernel" },
        KindsCase { "Kernel, MEMCPY ,nvtx", RecordKernels | RecordMemcpy | RecordNvtx, "kernel,memcpy,nvtx" },
        KindsCase { "cuda", kCudaRecordKinds, "kernel,memcpy,memset,sync,runtime,driver,overhead" },
        KindsCase { "cuda,nvtx", kAllRecordKinds, "all" }, KindsCase { "sync,sync", RecordSync, "sync" },
        KindsCase { "kernels", 0, "unknown kind 'kernels'" }, KindsCase { "kernel,", 0, "empty name" },
        KindsCase { "", 0, "empty name" }));

class ProgramLookupTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        gapscope::test::writeWholeFile(m_dir.file("tool"), "#!/bin/sh\n");
        ::chmod(m_dir.file("tool").c_str(), 0755);
        gapscope::test::writeWholeFile(m_dir.file("data"), "x");
        ::chmod(m_dir.file("data").c_str(), 0644);
    }
    gapscope::test::TempDir m_dir;
};

TEST_F(ProgramLookupTest, FindsBareNamesInPathAndRelativeNamesInTheWorkingFolder)
{
    std::string error;
    const std::string folder = m_dir.path().string();
    EXPECT_EQ(findProgram("tool", "", "/nonexistent:" + folder, error), folder + "/tool");
    EXPECT_EQ(findProgram("./tool", folder, "", error), folder + "/tool");
    EXPECT_EQ(findProgram(folder + "/tool", "/", "", error), folder + "/tool");
    EXPECT_FALSE(findProgram("tool", "", "/nonexistent", error));
    EXPECT_EQ(error, "tool: command not found (searched PATH)");
    EXPECT_FALSE(findProgram("data", "", folder, error));
    EXPECT_EQ(error, "data: " + folder + "/data is not executable (permission denied)");
    EXPECT_FALSE(findProgram("", "", folder, error));
    EXPECT_EQ(error, "no program given");
}

} // namespace
} // namespace gapscope::capture
