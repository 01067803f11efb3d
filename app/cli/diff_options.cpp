// SPDX-License-Identifier: MIT
#include "app/cli/diff_options.h"

#include <charconv>
#include <cmath>

namespace gapscope::cli {

std::optional<DiffOptions> parseDiffOptions(const std::vector<std::string>& args, std::string& error)
{
    DiffOptions options;
    std::vector<std::string> before;
    std::vector<std::string> after;
    bool separator = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        const AnalysisOptionParse shared = parseAnalysisOption(args, i, options.analysis, error);
        if (shared == AnalysisOptionParse::Failed)
            return std::nullopt;
        if (shared == AnalysisOptionParse::Parsed)
            continue;
        if (arg == "--json") {
            options.json = true;
        } else if (arg == "--accept") {
            options.acceptStatus = true;
        } else if (arg == "--note") {
            if (i + 1 >= args.size() || args[i + 1].empty()) {
                error = "--note needs the id of a note of BASE's sidecar";
                return std::nullopt;
            }
            options.note = args[++i];
        } else if (arg == "--top" || arg == "--fail-if-slower") {
            if (i + 1 >= args.size()) {
                error = arg + " needs a value";
                return std::nullopt;
            }
            const std::string& value = args[++i];
            if (arg == "--top") {
                const auto n = parseInteger(value);
                if (!n || *n < 0) {
                    error = "--top must be a count >= 0, got '" + value + "'";
                    return std::nullopt;
                }
                options.top = static_cast<std::size_t>(*n);
            } else {
                double percent = 0;
                const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), percent);
                if (ec != std::errc() || ptr != value.data() + value.size() || !std::isfinite(percent) || percent < 0) {
                    error = "--fail-if-slower must be a percentage >= 0, got '" + value + "'";
                    return std::nullopt;
                }
                options.failIfSlowerPercent = percent;
            }
        } else if (arg == "--") {
            if (separator) {
                error = "'--' given twice: it separates the BASE runs from the NEW runs";
                return std::nullopt;
            }
            separator = true;
        } else if (arg.starts_with("--")) {
            error = "unknown option '" + arg + "'";
            return std::nullopt;
        } else {
            (separator ? after : before).push_back(arg);
        }
    }
    if (separator) {
        if (before.empty() || after.empty()) {
            error = "with '--', give at least one BASE run before it and one NEW run after it";
            return std::nullopt;
        }
        options.baseRuns = std::move(before);
        options.newRuns = std::move(after);
    } else {
        if (before.size() != 2) {
            error = before.size() < 2 ? "give two runs, BASE and NEW"
                                      : "more than two runs: separate the BASE runs from the NEW runs with '--'";
            return std::nullopt;
        }
        options.baseRuns = { before[0] };
        options.newRuns = { before[1] };
    }
    if (options.acceptStatus && !options.note) {
        error = "--accept goes with --note ID";
        return std::nullopt;
    }
    if (options.note && (options.baseRuns.size() != 1 || options.newRuns.size() != 1)) {
        error = "--note measures a note against one NEW run: give one BASE run and one NEW run";
        return std::nullopt;
    }
    return options;
}

} // namespace gapscope::cli
