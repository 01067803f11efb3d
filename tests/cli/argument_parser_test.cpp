// SPDX-License-Identifier: MIT
// The declarations every command's parser reads with (cli/argument_parser.h), on hand-built command lines.
#include "cli/argument_parser.h"

#include <gtest/gtest.h>

namespace gapscope::cli {
namespace {

struct Parsed {
    bool json = false;
    std::optional<std::size_t> top;
    std::string output;
    std::vector<std::string> before;
    std::vector<std::string> after;
    int separators = 0;
    AnalysisOptions analysis;
};

/// A spec like diff's: a flag, a count, a value with its own missing message, "--" splitting the positionals.
ArgumentCheck parse(const std::vector<std::string>& args, Parsed& parsed)
{
    ArgumentSpec spec("test", "a command like diff");
    spec.analysisOptions(parsed.analysis);
    spec.flag("--json", "as JSON", [&] { parsed.json = true; });
    spec.count("--top N", "rows", [&](std::size_t n) { parsed.top = n; });
    spec.value(
        "-o DIR", "the output folder",
        [&](const std::string& path) -> ArgumentCheck {
            parsed.output = path;
            return std::nullopt;
        },
        "-o needs the output folder");
    spec.separator([&]() -> ArgumentCheck {
        ++parsed.separators;
        return std::nullopt;
    });
    spec.positional("BEFORE... -- AFTER...", "the runs",
        [&](const std::string& a) { (parsed.separators ? parsed.after : parsed.before).push_back(a); });
    return spec.parse(args);
}

TEST(ArgumentSpec, ReadsFlagsValuesAnalysisOptionsAndPositionalsInOrder)
{
    Parsed p;
    const ArgumentCheck problem
        = parse({ "a", "--top", "7", "--json", "--window", "2ms:5ms", "-o", "out", "b", "--", "c" }, p);
    ASSERT_FALSE(problem) << problem->message;
    EXPECT_TRUE(p.json);
    EXPECT_EQ(p.top, 7u);
    EXPECT_EQ(p.output, "out");
    EXPECT_EQ(p.analysis.window.kind, WindowKind::Explicit);
    EXPECT_EQ(p.analysis.window.explicitStart, 2'000'000);
    EXPECT_EQ(p.analysis.window.explicitEnd, 5'000'000);
    EXPECT_EQ(p.before, (std::vector<std::string> { "a", "b" }));
    EXPECT_EQ(p.after, (std::vector<std::string> { "c" }));
    EXPECT_EQ(p.separators, 1);
}

TEST(ArgumentSpec, AValueIsTakenEvenWhenItLooksLikeAnOption)
{
    // "--top --json": --json is --top's value (not a count), as every command read it before the shared loop.
    Parsed p;
    const ArgumentCheck problem = parse({ "--top", "--json" }, p);
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->message, "--top must be a count >= 0, got '--json'");
    EXPECT_FALSE(p.json);
}

TEST(ArgumentSpec, TheFirstProblemEndsTheReading)
{
    Parsed p;
    ArgumentCheck problem = parse({ "--top", "-2", "--fast" }, p);
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->message, "--top must be a count >= 0, got '-2'");
    // A bad value is found as it is read; an unknown option once the reading is done.
    problem = parse({ "x", "--fast", "--top", "-2" }, p);
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->message, "--top must be a count >= 0, got '-2'");
    problem = parse({ "x", "--fast", "--top", "2", "--slow" }, p);
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->message, "unknown option '--fast'");
    problem = parse({ "x", "-o" }, p);
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->message, "-o needs the output folder");
    problem = parse({ "x", "--warmup" }, p);
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->message, "--warmup needs a value");
}

TEST(ArgumentSpec, WithoutASeparatorHandlerDashDashEndsTheOptions)
{
    bool json = false;
    std::vector<std::string> rest;
    ArgumentSpec spec("test", "a command without a separator");
    spec.flag("--json", "as JSON", [&] { json = true; });
    spec.positional("FILE...", "files", [&](const std::string& file) { rest.push_back(file); });
    EXPECT_FALSE(spec.parse({ "a", "--", "--json" }));
    EXPECT_FALSE(json);
    EXPECT_EQ(rest, (std::vector<std::string> { "a", "--json" }));
}

TEST(ArgumentSpec, WithoutAPositionalDeclarationAnArgumentIsUnexpected)
{
    bool json = false;
    ArgumentSpec spec("test", "a command without positionals");
    spec.flag("--json", "as JSON", [&] { json = true; });
    const ArgumentCheck problem = spec.parse({ "--json", "trace.json" });
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->message, "unexpected argument 'trace.json'");
    EXPECT_TRUE(json);
}

TEST(ArgumentSpec, AValueMayFollowAnEqualsSignAndARepeatedOptionHandsInEachValue)
{
    std::vector<std::string> metrics;
    ArgumentSpec spec("test", "repeatable");
    spec.value("--metric NAME=SPEC", "a metric", [&](const std::string& m) -> ArgumentCheck {
        metrics.push_back(m);
        return std::nullopt;
    });
    EXPECT_FALSE(spec.parse({ "--metric", "a=step", "--metric=b=range:x" }));
    EXPECT_EQ(metrics, (std::vector<std::string> { "a=step", "b=range:x" }));
}

TEST(ArgumentSpec, RestTakesTheFirstPositionalAndEverythingAfterIt)
{
    std::string output;
    std::vector<std::string> program;
    ArgumentSpec spec("test", "like record");
    spec.value("-o,--output OUT", "output", [&](const std::string& o) -> ArgumentCheck {
        output = o;
        return std::nullopt;
    });
    spec.rest("[--] PROGRAM [ARGS...]", "the program", [&](std::vector<std::string> p) { program = std::move(p); });
    EXPECT_FALSE(spec.parse({ "--output", "x.gapscope", "python", "-o", "train.py", "--json" }));
    EXPECT_EQ(output, "x.gapscope");
    EXPECT_EQ(program, (std::vector<std::string> { "python", "-o", "train.py", "--json" }));
    EXPECT_FALSE(spec.parse({ "-o", "y", "--", "-weird", "a" }));
    EXPECT_EQ(output, "y");
    EXPECT_EQ(program, (std::vector<std::string> { "-weird", "a" }));
    const ArgumentCheck problem = spec.parse({ "--frobnicate", "python" });
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->message, "unknown option '--frobnicate'");
}

TEST(ArgumentSpec, TheHelpNamesEachOptionWithItsValueFormAndMeaning)
{
    Parsed p;
    ArgumentSpec spec("test", "a command like diff");
    spec.count("--top N", "rows of the kernel list", [&](std::size_t n) { p.top = n; });
    spec.flag("--json", "the result as JSON", [&] { p.json = true; });
    spec.positional("TRACE...", "the traces", [](const std::string&) {});
    spec.footer("A note after the options.");
    const CommandHelp help = spec.help();
    EXPECT_EQ(help.name, "test");
    EXPECT_EQ(help.summary, "a command like diff");
    EXPECT_EQ(help.usage, "gapscope test [OPTIONS] TRACE...\n");
    EXPECT_NE(help.text.find("usage: gapscope test [OPTIONS] TRACE...\n"), std::string::npos) << help.text;
    EXPECT_NE(help.text.find("  --top N                         rows of the kernel list\n"), std::string::npos)
        << help.text;
    EXPECT_NE(help.text.find("  --json                          the result as JSON\n"), std::string::npos) << help.text;
    EXPECT_NE(help.text.find("  TRACE...                        the traces\n"), std::string::npos) << help.text;
    EXPECT_NE(help.text.find("A note after the options."), std::string::npos) << help.text;
    EXPECT_EQ(usageHint(help),
        "usage: gapscope test [OPTIONS] TRACE...\n`gapscope test --help` says what each option does.\n");
}

TEST(ParseResult, HoldsTheValueOrTheReason)
{
    const ParseResult<int> ok = 5;
    ASSERT_TRUE(ok);
    EXPECT_EQ(*ok, 5);
    const ParseResult<int> bad = UsageError { "no trace given" };
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message, "no trace given");
}

} // namespace
} // namespace gapscope::cli
