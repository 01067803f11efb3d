// SPDX-License-Identifier: MIT
#include "cli/critical_path_options.h"

#include "cli/argument_parser.h"

namespace gapscope::cli {

ParseResult<CriticalPathOptions> parseCriticalPathOptions(const std::vector<std::string>& args, bool whatIf)
{
    CriticalPathOptions options;
    std::vector<std::string> traces;
    ArgumentSpec spec;
    spec.flag("--json", [&] { options.json = true; });
    spec.count("--top", [&](std::size_t n) { options.top = n; });
    spec.count("--warmup", [&](std::size_t n) { options.warmupSteps = static_cast<int>(n); });
    spec.value("--step-pattern", [&](const std::string& value) -> ArgumentCheck {
        options.stepPattern = value;
        return std::nullopt;
    });
    spec.value("--step", [&](const std::string& value) -> ArgumentCheck {
        options.step = value;
        return std::nullopt;
    });
    const std::string windowForm = "--window must be T0:T1 with T0 < T1 (ns on the trace clock, or with a unit: "
                                   "12.5ms)";
    spec.value(
        "--window",
        [&](const std::string& value) -> ArgumentCheck {
            const auto range = parseTimeRange(value);
            if (!range)
                return UsageError { windowForm + ", got '" + value + "'" };
            options.window = range;
            return std::nullopt;
        },
        windowForm);
    if (whatIf) {
        spec.value("--scale", [&](const std::string& value) -> ArgumentCheck {
            auto rule = parseScaleRule(value);
            if (!rule)
                return rule.error();
            options.changes.scales.push_back(*rule);
            return std::nullopt;
        });
        spec.count("--drop-sync", [&](std::size_t n) { options.changes.dropSyncs.push_back(n); });
        spec.value("--launch-delay-max-us", [&](const std::string& value) -> ArgumentCheck {
            const auto us = parseInteger(value);
            if (!us || *us < 0)
                return UsageError { "--launch-delay-max-us must be a count of µs >= 0, got '" + value + "'" };
            options.changes.launchDelayCapNs = static_cast<TimeNs>(*us) * 1000;
            return std::nullopt;
        });
        spec.value("--note", [&](const std::string& value) -> ArgumentCheck {
            options.note = value;
            return std::nullopt;
        });
    }
    spec.positional([&](const std::string& trace) { traces.push_back(trace); });
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

} // namespace gapscope::cli
