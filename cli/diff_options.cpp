// SPDX-License-Identifier: MIT
#include "cli/diff_options.h"
#include "cli/commands.h"
#include "cli/metric_options.h"

#include <charconv>
#include <cmath>

namespace gapscope::cli {

namespace {

/// The declarations; "--" and the positionals go to `before` / `after` (split by `separator`).
ArgumentSpec diffArguments(
    DiffOptions& options, std::vector<std::string>& before, std::vector<std::string>& after, bool& separator)
{
    ArgumentSpec spec("diff", "compares two runs (or several per side) and gives a verdict on step time");
    spec.analysisOptions(options.analysis);
    spec.flag("--json", "the comparison as JSON (docs/json-output.md) instead of text", [&] { options.json = true; });
    spec.flag("--accept", "with --note: also set the note's status to the proposed one",
        [&] { options.acceptStatus = true; });
    const std::string noteMissing = "--note needs the id of a note of BASE's sidecar";
    spec.value(
        "--note ID",
        "measure the note ID of BASE's sidecar (made in the viewer) against NEW: its performance change, NEW as its "
        "after trace, the proposed status (one run per side)",
        [&options, noteMissing](const std::string& id) -> ArgumentCheck {
            if (id.empty())
                return UsageError { noteMissing };
            options.note = id;
            return std::nullopt;
        },
        noteMissing);
    spec.count("--top N",
        "rows of the kernel and longest-gap lists (default 10 in text; all kernels and 10 gaps in JSON)",
        [&](std::size_t n) { options.top = n; });
    metricOptions(spec, options.metrics);
    spec.value("--timing-from DIR",
        "take the timings (verdict, metrics) from these runs, BASE's then NEW's (e.g. NVTX-only runs); kernels and "
        "gaps still come from BASE and NEW. NVTX-only runs against CUPTI runs print the profiler's overhead instead "
        "of a verdict (at most twice)",
        [&](const std::string& path) -> ArgumentCheck {
            if (options.timingFrom.size() == 2)
                return UsageError { "--timing-from goes at most twice: BASE's timing runs, then NEW's" };
            options.timingFrom.push_back(path);
            return std::nullopt;
        });
    spec.value("--fail-if-slower PCT",
        "exit 3 when the verdict is slower and NEW's step p50 is more than PCT % above BASE's",
        [&](const std::string& value) -> ArgumentCheck {
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
    spec.positional("BASE NEW",
        "the two runs; with several per side: BASE... -- NEW.... A run is a trace file, a folder holding the "
        "per-rank files of one job, or the job's summaries: a .summary.json (gapscope summarize) or a folder of "
        "them (gapscope job -o DIR); summaries compare with summaries only, measured as they were summarized",
        [&](const std::string& run) { (separator ? after : before).push_back(run); });
    spec.form("[OPTIONS] BASE... -- NEW...     (several runs per side)");
    spec.form("[--json] [--top N] BASE.summary.json... -- NEW.summary.json...");
    spec.form("[OPTIONS] [--metric NAME=SPEC]... [--timing-from DIR [--timing-from DIR]] BASE_DIR NEW_DIR");
    spec.footer("A folder written by `gapscope record --runs N` holds N runs: its manifest gapscope-runs.json tells "
                "them apart (a folder without one is one run, its files the ranks of one job); failed runs are left "
                "out. Exit 0, 1 when a run cannot be read, 2 for a bad command line, 3 when --fail-if-slower trips.");
    return spec;
}

} // namespace

ParseResult<DiffOptions> parseDiffOptions(const std::vector<std::string>& args)
{
    DiffOptions options;
    std::vector<std::string> before;
    std::vector<std::string> after;
    bool separator = false;
    ArgumentSpec spec = diffArguments(options, before, after, separator);
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

CommandHelp diffHelp()
{
    DiffOptions options;
    std::vector<std::string> before;
    std::vector<std::string> after;
    bool separator = false;
    return diffArguments(options, before, after, separator).help();
}

} // namespace gapscope::cli
