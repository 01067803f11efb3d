// SPDX-License-Identifier: MIT
// Which command lines open the viewer: a folder of repeated runs does (`gapscope RUNS_A --compare RUNS_B`), a
// subcommand's name never does, even where a folder of that name lies.
#include "cli/command_line.h"
#include "tests/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace gapscope::cli {
namespace {

TEST(ViewerCommandLine, AFolderOpensTheViewerUnlessItsNameIsASubcommands)
{
    const test::TempDir dir;
    std::filesystem::create_directories(dir.path() / "runs-a");
    std::filesystem::create_directories(dir.path() / "report");
    const std::filesystem::path before = std::filesystem::current_path();
    std::filesystem::current_path(dir.path());
    EXPECT_TRUE(isViewerCommandLine({ "runs-a", "--compare", "runs-b" }));
    EXPECT_TRUE(isViewerCommandLine({ (dir.path() / "runs-a").string() }));
    EXPECT_FALSE(isViewerCommandLine({ "report", "t.json" }));
    EXPECT_FALSE(isViewerCommandLine({ "no-such-folder" }));
    std::filesystem::current_path(before);
}

} // namespace
} // namespace gapscope::cli
