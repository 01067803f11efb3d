// SPDX-License-Identifier: MIT
#include "cli/diff_options.h"
#include "cli/metric_options.h"

#include <charconv>
#include <cmath>

namespace gapscope::cli {

ParseResult<DiffOptions> parseDiffOptions(const std::vector<std::string>& args)
{
    DiffOptions options;
    std::vector<std::string> before;
    std::vector<std::string> after;
    bool separator = false;
    ArgumentSpec spec;
    spec.analysisOptions(options.analysis);
    spec.flag("--json", [&] { options.json = true; });
    spec.flag("--accept", [&] { options.acceptStatus = true; });
    const std::string noteMissing = "--note needs the id of a note of BASE's sidecar";
    spec.value(
        "--note",
        [&](const std::string& id) -> ArgumentCheck {
            if (id.empty())
                return UsageError { noteMissing };
            options.note = id;
            return std::nullopt;
        },
        noteMissing);
    spec.count("--top", [&](std::size_t n) { options.top = n; });
    metricOptions(spec, options.metrics);
    spec.value("--timing-from", [&](const std::string& path) -> ArgumentCheck {
        if (options.timingFrom.size() == 2)
            return UsageError { "--timing-from goes at most twice: BASE's timing runs, then NEW's" };
        options.timingFrom.push_back(path);
        return std::nullopt;
    });
    spec.value("--fail-if-slower", [&](const std::string& value) -> ArgumentCheck {
        double percent = 0;
        const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), percent);
        if (ec != std::errc() || ptr != value.data() + value.size() || !std::isfinite(percent) || percent < 0)
            return UsageError { "--fail-if-slower must be a percentage >= 0, got '" + value + "'" };
        options.failIfSlowerPercent = percent;
        return std::nullopt;
    });
    spec.separator([&]() -> ArgumentCheck {
        if (separator)
            return UsageError { "'--' given twice: it separates the BASE runs from the NEW runs" };
        separator = true;
        return std::nullopt;
    });
    spec.positional([&](const std::string& run) { (separator ? after : before).push_back(run); });
    if (ArgumentCheck problem = spec.parse(args))
        return *problem;
    if (separator) {
        if (before.empty() || after.empty())
            return UsageError { "with '--', give at least one BASE run before it and one NEW run after it" };
        options.baseRuns = std::move(before);
        options.newRuns = std::move(after);
    } else {
        if (before.size() != 2)
            return UsageError { before.size() < 2
                    ? "give two runs, BASE and NEW"
                    : "more than two runs: separate the BASE runs from the NEW runs with '--'" };
        options.baseRuns = { before[0] };
        options.newRuns = { before[1] };
    }
    if (options.acceptStatus && !options.note)
        return UsageError { "--accept goes with --note ID" };
    if (options.note && (options.baseRuns.size() != 1 || options.newRuns.size() != 1))
        return UsageError { "--note measures a note against one NEW run: give one BASE run and one NEW run" };
    return options;
}

} // namespace gapscope::cli
