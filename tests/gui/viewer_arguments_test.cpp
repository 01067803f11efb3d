// SPDX-License-Identifier: MIT
// The viewer's command line (app/viewer_arguments.h), read against kViewerOptions, on hand-built command lines.
#include "app/viewer.h"
#include "app/viewer_arguments.h"

#include <gtest/gtest.h>

namespace gapscope {
namespace {

TEST(ViewerArguments, ReadsFlagsValuesRepeatedOptionsAndTracesInOrder)
{
    const auto read = readViewerArguments({ "a.json", "--size", "800x600", "--compare", "n1.json",
        "--select-longest-gap", "b.json", "--compare=n2.json" });
    ASSERT_TRUE(read) << read.error().text;
    EXPECT_EQ(read->traces, (std::vector<std::string> { "a.json", "b.json" }));
    EXPECT_EQ(read->value("size"), "800x600");
    EXPECT_EQ(read->values("compare"), (std::vector<std::string> { "n1.json", "n2.json" }));
    EXPECT_TRUE(read->isSet("select-longest-gap"));
    EXPECT_FALSE(read->isSet("demo"));
    EXPECT_FALSE(read->isSet("screenshot"));
    EXPECT_EQ(read->value("screenshot"), "");
}

struct BadViewerCommandLine {
    std::vector<std::string> args;
    std::string message;
};

class ViewerArgumentsReject : public testing::TestWithParam<BadViewerCommandLine> { };

TEST_P(ViewerArgumentsReject, WithExitCodeTwoAndTheReason)
{
    const auto read = readViewerArguments(GetParam().args);
    ASSERT_FALSE(read);
    EXPECT_EQ(read.error().exitCode, 2);
    EXPECT_EQ(read.error().text.substr(0, read.error().text.find('\n')), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(Cases, ViewerArgumentsReject,
    testing::Values(BadViewerCommandLine { { "--demo", "--size", "12" },
                        "gapscope: --size must be WxH in pixels, each 1..16384 (e.g. 1600x900), got '12'" },
        BadViewerCommandLine { { "--demo", "--size", "0x600" },
            "gapscope: --size must be WxH in pixels, each 1..16384 (e.g. 1600x900), got '0x600'" },
        BadViewerCommandLine { { "--demo", "--bogus" }, "gapscope: unknown option '--bogus'" },
        BadViewerCommandLine { { "--demo", "--screenshot" }, "gapscope: --screenshot needs a value" }));

TEST(ViewerArguments, HelpListsEveryDeclaredOptionWithItsMeaning)
{
    const auto read = readViewerArguments({ "--demo", "--help" });
    ASSERT_FALSE(read);
    EXPECT_EQ(read.error().exitCode, 0);
    EXPECT_EQ(read.error().text, viewerHelp());
    for (const ViewerOption& option : kViewerOptions) {
        const std::string line
            = std::string("--") + option.name + (option.valueName ? std::string(" ") + option.valueName : "");
        const std::size_t at = read.error().text.find("  " + line + " ");
        ASSERT_NE(at, std::string::npos) << line << "\n" << read.error().text;
        EXPECT_EQ(
            read.error().text.find(option.help, at), read.error().text.find_first_not_of(' ', at + 2 + line.size()))
            << line;
    }
}

} // namespace
} // namespace gapscope
