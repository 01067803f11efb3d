// SPDX-License-Identifier: MIT
// The one argument loop every command's parser uses (app/cli/argument_parser.h), on hand-built command lines.
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
    ArgumentSpec spec;
    spec.analysisOptions(parsed.analysis);
    spec.flag("--json", [&] { parsed.json = true; });
    spec.count("--top", [&](std::size_t n) { parsed.top = n; });
    spec.value(
        "-o",
        [&](const std::string& path) -> ArgumentCheck {
            parsed.output = path;
            return std::nullopt;
        },
        "-o needs the output folder");
    spec.separator([&]() -> ArgumentCheck {
        ++parsed.separators;
        return std::nullopt;
    });
    spec.positional([&](const std::string& a) { (parsed.separators ? parsed.after : parsed.before).push_back(a); });
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
    problem = parse({ "x", "--fast", "--top", "-2" }, p);
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->message, "unknown option '--fast'");
    problem = parse({ "x", "-o" }, p);
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->message, "-o needs the output folder");
    problem = parse({ "x", "--warmup" }, p);
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->message, "--warmup needs a value");
}

TEST(ArgumentSpec, WithoutAPositionalHandlerAnArgumentIsUnexpectedAndSeparatorIsSkipped)
{
    bool json = false;
    ArgumentSpec spec;
    spec.flag("--json", [&] { json = true; });
    EXPECT_FALSE(spec.parse({ "--", "--json" }));
    EXPECT_TRUE(json);
    const ArgumentCheck problem = spec.parse({ "--json", "trace.json" });
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->message, "unexpected argument 'trace.json'");
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
