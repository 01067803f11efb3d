// SPDX-License-Identifier: MIT
// Each command's --help and the usage after a bad command line, made from the declarations its parser reads with.
#include "cli/commands.h"
#include "cli_run.h"

#include <gtest/gtest.h>

#include <sstream>

namespace gapscope::cli {
namespace {

struct CommandCase {
    const char* name;
    int (*run)(const std::vector<std::string>&, std::ostream&, std::ostream&);
    CommandHelp (*help)();
    /// Option lines in its --help, -h,--help included: counted by hand from its declarations.
    std::size_t options;
    bool measures; // takes the analysis options
};

const CommandCase kCases[] = {
    { "report", runReport, reportHelp, 11, true },
    { "diff", runDiff, diffHelp, 13, true },
    { "summarize", runSummarize, summarizeHelp, 8, true },
    { "job", runJob, jobHelp, 11, true },
    { "critical-path", runCriticalPath, criticalPathHelp, 7, false },
    { "whatif", runWhatIf, whatIfHelp, 11, false },
    { "convert", runConvert, convertHelp, 1, false },
    { "record", runRecord, recordHelp, 6, false },
    { "export", runExport, exportHelp, 9, true },
};

/// The lines of `text` from the line `heading` to the next empty line.
std::vector<std::string> section(const std::string& text, const std::string& heading)
{
    std::vector<std::string> lines;
    std::istringstream in(text.substr(text.find("\n" + heading + "\n") + heading.size() + 2));
    for (std::string line; std::getline(in, line) && !line.empty();)
        lines.push_back(line);
    return lines;
}

class CommandHelpTest : public testing::TestWithParam<CommandCase> { };

TEST_P(CommandHelpTest, NamesEachOptionWithWhatItDoes)
{
    const CommandHelp help = GetParam().help();
    EXPECT_EQ(help.name, GetParam().name);
    EXPECT_EQ(help.text.substr(0, help.summary.size() + 1), help.summary + "\n");
    std::size_t options = 0;
    for (const std::string& line : section(help.text, "Options:")) {
        if (!line.starts_with("  -"))
            continue; // a description's continuation
        ++options;
        // Name and value form in the left column, the meaning after it on the same line.
        EXPECT_GT(line.size(), 36u) << line;
        EXPECT_NE(line.find_first_not_of(' ', 34), std::string::npos) << line;
    }
    EXPECT_EQ(options, GetParam().options) << help.text;
    if (GetParam().measures) {
        for (const char* option : kAnalysisOptionNames)
            EXPECT_NE(help.text.find(std::string("\n  ") + option + " "), std::string::npos) << option;
    }
}

TEST_P(CommandHelpTest, AnUnknownOptionIsRejectedWithTheUsage)
{
    const auto run = test::run(GetParam().run, { "--no-such-option", "trace.json" });
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_EQ(run.err,
        "gapscope " + std::string(GetParam().name) + ": unknown option '--no-such-option'\n"
            + usageHint(GetParam().help()));
}

INSTANTIATE_TEST_SUITE_P(
    Commands, CommandHelpTest, testing::ValuesIn(kCases), [](const testing::TestParamInfo<CommandCase>& info) {
        std::string name = info.param.name;
        std::erase(name, '-');
        return name;
    });

TEST(CommandHelp, TheUsageHintGivesEachFormThenWhereTheOptionsAreExplained)
{
    EXPECT_EQ(usageHint(convertHelp()),
        "usage: gapscope convert IN OUT\n`gapscope convert --help` says what each option does.\n");
    EXPECT_EQ(usageHint(recordHelp()),
        "usage: gapscope record [OPTIONS] [--] PROGRAM [ARGS...]\n"
        "       gapscope record --runs N -o DIR [--kinds LIST] [--] PROGRAM [ARGS...]   (N runs, one folder)\n"
        "`gapscope record --help` says what each option does.\n");
}

} // namespace
} // namespace gapscope::cli
