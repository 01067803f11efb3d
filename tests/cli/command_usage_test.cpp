// SPDX-License-Identifier: MIT
// Each command's usage (app/cli/command_usage.cpp) against its parser: every option the usage names is
// accepted with a value of the kind the usage gives, and the analysis options every measuring command
// parses appear in its usage. `gapscope --help` is composed from the same texts, so it cannot drift.
#include "cli/command_usage.h"
#include "cli/commands.h"
#include "cli/report_options.h"

#include "tests/temp_dir.h"

#include <gtest/gtest.h>

#include <sstream>

namespace gapscope::cli {
namespace {

struct UsageOption {
    std::string name;
    std::optional<std::string> placeholder; // the value's name in the usage ("N", "gpu|trace|..."), if it takes one
};

std::string stripBrackets(std::string token)
{
    std::erase_if(token, [](char c) { return c == '[' || c == ']' || c == '(' || c == ')' || c == ','; });
    return token;
}

bool isPlaceholder(const std::string& token)
{
    return !token.empty() && token[0] != '-'
        && std::any_of(token.begin(), token.end(), [](char c) { return (c >= 'A' && c <= 'Z') || c == '|'; });
}

/// The options a usage text names, each with its value's placeholder: an option whose bracket closes on it,
/// or that is followed by a plain word, takes no value; "-o, --output OUT" gives both names the value.
std::vector<UsageOption> optionsOf(std::string_view text)
{
    std::vector<std::string> tokens;
    std::istringstream in { std::string(text) };
    for (std::string token; in >> token;)
        tokens.push_back(token);
    std::vector<UsageOption> options;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string name = stripBrackets(tokens[i]);
        if (name.size() < 2 || name[0] != '-' || !(std::isalpha(static_cast<unsigned char>(name.back()))))
            continue;
        if (name == "--help")
            continue;
        std::size_t valueAt = i + 1;
        if (tokens[i].ends_with(',') && valueAt + 1 < tokens.size())
            ++valueAt; // an alias: the value follows the next name
        const bool closes = tokens[i].ends_with(']') || tokens[i].ends_with(')');
        UsageOption option { name, std::nullopt };
        if (!closes && valueAt < tokens.size() && isPlaceholder(stripBrackets(tokens[valueAt])))
            option.placeholder = stripBrackets(tokens[valueAt]);
        if (std::none_of(options.begin(), options.end(), [&](const UsageOption& o) { return o.name == name; }))
            options.push_back(option);
    }
    return options;
}

/// The options that explanation lines start with ("  -o, --output OUT  the recording ..." gives
/// "-o, --output OUT"); options named in running text (another command's "-o DIR") are not this command's.
std::string optionLinesOf(std::string_view details)
{
    std::string out;
    std::istringstream lines { std::string(details) };
    for (std::string line; std::getline(lines, line);) {
        if (!line.starts_with("  -"))
            continue;
        std::istringstream words(line);
        for (std::string word; words >> word;) {
            if (word[0] != '-' && !isPlaceholder(stripBrackets(word)))
                break;
            out += word + " ";
        }
        out += "\n";
    }
    return out;
}

/// A value of the kind the placeholder names: the first of alternatives, a number, or a path that does not exist.
std::string sampleValue(const std::string& placeholder, const std::string& missing)
{
    if (const auto bar = placeholder.find('|'); bar != std::string::npos)
        return placeholder.substr(0, bar);
    if (placeholder.find("REGEX=") != std::string::npos)
        return "nccl=0.5"; // a what-if scale rule
    if (placeholder.find(':') != std::string::npos)
        return "1:2"; // a time range T0:T1
    if (placeholder == "N" || placeholder == "S")
        return "1";
    if (placeholder == "PCT")
        return "5";
    if (placeholder == "WxH")
        return "640x480";
    if (placeholder == "LIST")
        return "all";
    if (placeholder == "REGEX")
        return "ProfilerStep";
    if (placeholder == "ID")
        return "n1";
    if (placeholder.starts_with("NAME=SPEC"))
        return "p=range:ProfilerStep";
    return missing + "/out";
}

struct CommandRun {
    int status;
    std::string err;
};

CommandRun runCommand(std::string_view name, const std::vector<std::string>& args)
{
    std::ostringstream out;
    std::ostringstream err;
    int status = -1;
    if (name == "report")
        status = runReport(args, out, err);
    else if (name == "diff")
        status = runDiff(args, out, err);
    else if (name == "summarize")
        status = runSummarize(args, out, err);
    else if (name == "job")
        status = runJob(args, out, err);
    else if (name == "export")
        status = runExport(args, out, err);
    else if (name == "convert")
        status = runConvert(args, out, err);
    else if (name == "record")
        status = runRecord(args, out, err);
    else if (name == "critical-path")
        status = runCriticalPath(args, out, err);
    else if (name == "whatif")
        status = runWhatIf(args, out, err);
    return { status, err.str() };
}

/// The command line that uses `option` and otherwise only what the command needs, on files that do not exist.
std::vector<std::string> commandLine(std::string_view name, const UsageOption& option, const std::string& missing)
{
    std::vector<std::string> args { option.name };
    if (option.placeholder)
        args.push_back(sampleValue(*option.placeholder, missing));
    if (name == "diff") {
        if (option.name == "--accept")
            args.insert(args.end(), { "--note", "n1" });
        args.insert(args.end(), { missing + "/base.json", missing + "/new.json" });
    } else if (name == "summarize") {
        args.insert(args.end(), { "-o", missing + "/out.summary.json", missing + "/trace.json" });
    } else if (name == "export") {
        args.insert(args.begin(), missing + "/trace.json");
        args.insert(args.end(), { "--markdown", missing + "/notes.md" });
    } else if (name == "whatif") {
        if (option.name != "--scale")
            args.insert(args.end(), { "--scale", "nccl=0.5" });
        args.push_back(missing + "/trace.json");
    } else if (name != "record") {
        args.push_back(missing + "/trace.json");
    }
    return args;
}

TEST(CommandUsage, EveryOptionOfEachUsageIsAcceptedByItsParser)
{
    test::TempDir dir;
    const std::string missing = (dir.path() / "missing").string();
    std::size_t checked = 0;
    for (const CommandUsage& command : commandUsages()) {
        const std::string text = std::string(command.forms) + optionLinesOf(command.details);
        for (const UsageOption& option : optionsOf(text)) {
            const std::vector<std::string> args = commandLine(command.name, option, missing);
            const CommandRun run = runCommand(command.name, args);
            SCOPED_TRACE(std::string(command.name) + " " + option.name + ": " + run.err);
            if (command.name == "record") {
                // Options parsed, then no program to run: the usage follows that complaint, exit 2.
                EXPECT_NE(run.err.find("no program given"), std::string::npos);
            } else {
                // Bad options exit 2; these get past the parser and fail on the missing file (exit 1).
                EXPECT_EQ(run.status, 1);
                EXPECT_EQ(run.err.find("usage:"), std::string::npos);
            }
            ++checked;
        }
    }
    // report 10, diff 12, summarize 7, job 10, critical-path 6, whatif 9, convert 0, record 6 (-o and --output),
    // export 8.
    EXPECT_EQ(checked, 68u);
}

TEST(CommandUsage, AnUnknownOptionIsRejectedWithTheUsage)
{
    test::TempDir dir;
    for (const char* name : { "report", "diff", "summarize", "job", "export" }) {
        const CommandRun run
            = runCommand(name, commandLine(name, { "--no-such-option", std::nullopt }, (dir.path() / "m").string()));
        EXPECT_EQ(run.status, 2) << name;
        EXPECT_NE(run.err.find("unknown option '--no-such-option'"), std::string::npos) << name;
        EXPECT_NE(run.err.find(usageText(name)), std::string::npos) << name;
    }
}

TEST(CommandUsage, EachMeasuringCommandNamesEveryAnalysisOption)
{
    for (const char* name : { "report", "diff", "summarize", "job", "export" }) {
        const std::vector<UsageOption> options = optionsOf(commandUsage(name).forms);
        for (const char* analysisOption : kAnalysisOptionNames) {
            EXPECT_TRUE(std::any_of(options.begin(), options.end(),
                [&](const UsageOption& o) { return o.name == analysisOption && o.placeholder; }))
                << name << " " << analysisOption;
        }
    }
}

TEST(CommandUsage, ContinuationLinesStayAlignedAfterUsagePrefix)
{
    const std::string text = usageText("report");
    EXPECT_EQ(text.substr(0, text.find('\n') + 1),
        "usage: gapscope report [--json] [--window gpu|trace|steps|T0:T1] [--warmup N]\n");
    const std::size_t second = text.find('\n') + 1;
    // "usage: gapscope report " is 23 characters: the next line's first bracket is under the first's.
    EXPECT_EQ(text.substr(second, 24), std::string(23, ' ') + "[");
}

} // namespace
} // namespace gapscope::cli
