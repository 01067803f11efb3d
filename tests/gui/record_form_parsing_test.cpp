// SPDX-License-Identifier: MIT
// The text fields of File › Record…: the arguments line split as a shell would, the environment
// changes, the default name of a recording.

#include "app/record/record_form_parsing.h"
#include "tests/temp_dir.h"

#include <gtest/gtest.h>

#include <fstream>

#include <ctime>

using gapscope::app::EnvironmentChange;

namespace {

struct SplitCase {
    const char* name;
    std::string line;
    std::optional<std::vector<std::string>> words;
    std::string error;
};

class RecordFormParsingSplitTest : public ::testing::TestWithParam<SplitCase> { };

TEST_P(RecordFormParsingSplitTest, SplitsAsAShellWould)
{
    const SplitCase& c = GetParam();
    const auto words = gapscope::app::splitArguments(c.line);
    EXPECT_EQ(words ? std::optional(*words) : std::nullopt, c.words) << c.line;
    EXPECT_EQ(words ? std::string() : words.error().message, c.error) << c.line;
}

INSTANTIATE_TEST_SUITE_P(RecordFormCases, RecordFormParsingSplitTest,
    ::testing::Values(SplitCase { "empty", "", std::vector<std::string> {}, "" },
        SplitCase { "blanks", " \t ", std::vector<std::string> {}, "" },
        SplitCase { "plain", "--steps 10  -v", std::vector<std::string> { "--steps", "10", "-v" }, "" },
        SplitCase { "quotes", R"("a b" 'c d')", std::vector<std::string> { "a b", "c d" }, "" },
        SplitCase { "glued", R"(--name="x y"z)", std::vector<std::string> { "--name=x yz" }, "" },
        SplitCase { "quoteInSingle", R"('it'\''s')", std::vector<std::string> { "it's" }, "" },
        SplitCase { "emptyWords", R"("" '')", std::vector<std::string> { "", "" }, "" },
        SplitCase { "escapedBlank", R"(a\ b c)", std::vector<std::string> { "a b", "c" }, "" },
        // In double quotes only \" \\ \$ \` lose their backslash; $x is not expanded.
        SplitCase { "doubleEscapes", R"("q\"q \\ \$ $x \n")", std::vector<std::string> { R"(q"q \ $ $x \n)" }, "" },
        SplitCase { "singleIsLiteral", R"('a "b" \c')", std::vector<std::string> { R"(a "b" \c)" }, "" },
        SplitCase { "openDouble", R"(a "bc)", std::nullopt, "a double quote is not closed (at character 3)" },
        SplitCase { "openSingle", "a 'b", std::nullopt, "a single quote is not closed (at character 3)" },
        SplitCase { "loneBackslash", R"(a\)", std::nullopt, "the arguments end with a lone backslash" }),
    [](const ::testing::TestParamInfo<SplitCase>& info) { return std::string(info.param.name); });

struct EnvironmentCase {
    const char* name;
    std::string text;
    std::optional<std::vector<EnvironmentChange>> changes;
    std::string error;
};

class RecordFormParsingEnvironmentTest : public ::testing::TestWithParam<EnvironmentCase> { };

TEST_P(RecordFormParsingEnvironmentTest, ParsesSetsAndUnsets)
{
    const EnvironmentCase& c = GetParam();
    const auto changes = gapscope::app::parseEnvironmentChanges(c.text);
    EXPECT_EQ(changes ? std::optional(*changes) : std::nullopt, c.changes) << c.text;
    EXPECT_EQ(changes ? std::string() : changes.error().message, c.error) << c.text;
}

INSTANTIATE_TEST_SUITE_P(RecordFormCases, RecordFormParsingEnvironmentTest,
    ::testing::Values(EnvironmentCase { "empty", "", std::vector<EnvironmentChange> {}, "" },
        EnvironmentCase { "mixed", "  OMP_NUM_THREADS=4  \n\n# a comment\n-CUDA_VISIBLE_DEVICES\nX=a=b c\nEMPTY=\n",
            std::vector<EnvironmentChange> { { "OMP_NUM_THREADS", "4" }, { "CUDA_VISIBLE_DEVICES", std::nullopt },
                { "X", "a=b c" }, { "EMPTY", "" } },
            "" },
        EnvironmentCase { "noEquals", "A=1\nNOVALUE", std::nullopt,
            "environment line 2 (NOVALUE): write NAME=value to set a variable, or -NAME to unset it" },
        EnvironmentCase { "spaceInName", "B =x", std::nullopt,
            "environment line 1 (B =x): 'B ' is not a variable name (letters, digits and _)" },
        EnvironmentCase { "digitFirst", "\n1A=x", std::nullopt,
            "environment line 2 (1A=x): '1A' is not a variable name (letters, digits and _)" },
        EnvironmentCase { "bareMinus", "-", std::nullopt,
            "environment line 1 (-): -NAME unsets a variable; '' is not a variable name" }),
    [](const ::testing::TestParamInfo<EnvironmentCase>& info) { return std::string(info.param.name); });

TEST(RecordFormParsingTest, DefaultNameIsTheLocalTimeAsTheCommandLineNamesIt)
{
    std::tm local {};
    local.tm_year = 2024 - 1900;
    local.tm_mon = 2; // March
    local.tm_mday = 5;
    local.tm_hour = 7;
    local.tm_min = 8;
    local.tm_sec = 9;
    local.tm_isdst = -1;
    EXPECT_EQ(gapscope::app::defaultRecordingName(std::mktime(&local)), "gapscope-20240305-070809.gapscope");
}

TEST(RecordFormParsingTest, RecordingAgainGetsAFileOfItsOwn)
{
    gapscope::test::TempDir dir;
    const std::string first = dir.file("run.gapscope");
    EXPECT_EQ(gapscope::app::freshRecordingPath(first), first); // nothing there yet
    std::ofstream(first) << "open in the viewer";
    const std::string second = gapscope::app::freshRecordingPath(first);
    EXPECT_EQ(second, dir.file("run-2.gapscope"));
    std::ofstream(second) << "the second run";
    EXPECT_EQ(gapscope::app::freshRecordingPath(first), dir.file("run-3.gapscope"));
}

} // namespace
