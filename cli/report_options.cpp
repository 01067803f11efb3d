// SPDX-License-Identifier: MIT
#include "cli/report_options.h"
#include "cli/metric_options.h"

namespace gapscope::cli {

ParseResult<ReportOptions> parseReportOptions(const std::vector<std::string>& args)
{
    ReportOptions options;
    ArgumentSpec spec;
    spec.analysisOptions(options.analysis);
    spec.flag("--json", [&] { options.json = true; });
    spec.flag("--gpu-only", [&] { options.load.gpuOnly = true; });
    const std::string rangeForm = "--load-range must be T0:T1 with T0 < T1 (ns on the trace clock, as the report's "
                                  "windows print them, or with a unit: 12.5ms)";
    spec.value(
        "--load-range",
        [&](const std::string& value) -> ArgumentCheck {
            const auto range = parseTimeRange(value);
            if (!range)
                return UsageError { rangeForm + ", got '" + value + "'" };
            options.load.from = range->first;
            options.load.to = range->second;
            return std::nullopt;
        },
        rangeForm);
    spec.count("--top", [&](std::size_t n) { options.top = n; });
    metricOptions(spec, options.metrics);
    spec.positional([&](const std::string& trace) { options.traces.push_back(trace); });
    if (ArgumentCheck problem = spec.parse(args))
        return *problem;
    if (options.traces.empty())
        return UsageError { "no trace given" };
    return options;
}

} // namespace gapscope::cli
