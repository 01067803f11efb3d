// SPDX-License-Identifier: MIT
#include "cli/critical_path_options.h"

#include "cli/argument_parser.h"
#include "cli/commands.h"

namespace gapscope::cli {

namespace {

ArgumentSpec criticalPathArguments(CriticalPathOptions& options, std::vector<std::string>& traces, bool whatIf)
{
    ArgumentSpec spec(whatIf ? "whatif" : "critical-path",
        whatIf ? "the step times the graph predicts if ops took longer or shorter, or waits were gone"
               : "the critical path of a step: its time by category and name, and the slack off it");
    spec.flag("--json", "the result as JSON instead of text", [&] { options.json = true; });
    spec.count("--top N", "rows of the by-name list (default 20)", [&](std::size_t n) { options.top = n; });
    spec.count("--warmup N",
        "the first N steps of each process are warm-up: not counted (default 1, as diff --note measures; none for a "
        "trace of one step)",
        [&](std::size_t n) { options.warmupSteps = static_cast<int>(n); });
    spec.value("--step-pattern REGEX",
        "NVTX and user-annotation ranges whose name matches this ECMAScript regex are steps too (besides "
        "ProfilerStep#N)",
        [&](const std::string& value) -> ArgumentCheck {
            options.stepPattern = value;
            return std::nullopt;
        });
    spec.value("--step N", "the step named ...#N (ProfilerStep#N)", [&](const std::string& value) -> ArgumentCheck {
        options.step = value;
        return std::nullopt;
    });
    const std::string windowForm = "--window must be T0:T1 with T0 < T1 (ns on the trace clock, or with a unit: "
                                   "12.5ms)";
    spec.value(
        "--window T0:T1", "this window instead of a step (ns on the trace clock, or with a unit: 12.5ms)",
        [&options, windowForm](const std::string& value) -> ArgumentCheck {
            const auto range = parseTimeRange(value);
            if (!range)
                return UsageError { windowForm + ", got '" + value + "'" };
            options.window = range;
            return std::nullopt;
        },
        windowForm);
    if (whatIf) {
        spec.value("--scale REGEX=F",
            "ops (GPU ops, CPU ranges with all inside them) whose name matches REGEX take F times as long; "
            "repeatable, several rules multiply",
            [&](const std::string& value) -> ArgumentCheck {
                auto rule = parseScaleRule(value);
                if (!rule)
                    return rule.error();
                options.changes.scales.push_back(*rule);
                return std::nullopt;
            });
        spec.count("--drop-sync N", "the N-th host wait for the GPU of each window (0-based) is gone; repeatable",
            [&](std::size_t n) { options.changes.dropSyncs.push_back(n); });
        spec.value("--launch-delay-max-us N", "launch delays above N µs are cut to N",
            [&](const std::string& value) -> ArgumentCheck {
                const auto us = parseInteger(value);
                if (!us || *us < 0)
                    return UsageError { "--launch-delay-max-us must be a count of µs >= 0, got '" + value + "'" };
                options.changes.launchDelayCapNs = static_cast<TimeNs>(*us) * 1000;
                return std::nullopt;
            });
        spec.value("--note ID", "write the prediction into note ID of TRACE's sidecar (diff --note checks it)",
            [&](const std::string& value) -> ArgumentCheck {
                options.note = value;
                return std::nullopt;
            });
    }
    spec.positional(
        "TRACE", "the trace (one process's window)", [&](const std::string& trace) { traces.push_back(trace); });
    spec.footer(whatIf ? "Without --step or --window: every counted step, and their p50. See docs/critical-path.md."
                       : "Without --step or --window: the median step (or, without steps, the GPU window). See "
                         "docs/critical-path.md.");
    return spec;
}

} // namespace

ParseResult<CriticalPathOptions> parseCriticalPathOptions(const std::vector<std::string>& args, bool whatIf)
{
    CriticalPathOptions options;
    std::vector<std::string> traces;
    ArgumentSpec spec = criticalPathArguments(options, traces, whatIf);
    if (ArgumentCheck problem = spec.parse(args))
        return *problem;
    if (traces.size() != 1)
        return UsageError { traces.empty() ? "no trace given" : "give one trace (the window is of one process)" };
    if (options.step && options.window)
        return UsageError { "--step and --window name the window twice: give one" };
    if (whatIf && options.changes.scales.empty() && options.changes.dropSyncs.empty()
        && !options.changes.launchDelayCapNs)
        return UsageError { "nothing to change: give --scale 'REGEX=F', --drop-sync N or --launch-delay-max-us N" };
    options.trace = traces.front();
    return options;
}

CommandHelp criticalPathHelp()
{
    CriticalPathOptions options;
    std::vector<std::string> traces;
    return criticalPathArguments(options, traces, false).help();
}

CommandHelp whatIfHelp()
{
    CriticalPathOptions options;
    std::vector<std::string> traces;
    return criticalPathArguments(options, traces, true).help();
}

} // namespace gapscope::cli
