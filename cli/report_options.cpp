// SPDX-License-Identifier: MIT
#include "cli/report_options.h"
#include "cli/commands.h"
#include "cli/metric_options.h"

namespace gapscope::cli {

namespace {

ArgumentSpec reportArguments(ReportOptions& options)
{
    ArgumentSpec spec("report", "the figures of one run: utilization, idle gaps with causes, steps, kernels");
    spec.analysisOptions(options.analysis);
    spec.flag("--json", "the report as JSON (docs/json-output.md) instead of text", [&] { options.json = true; });
    spec.flag("--gpu-only", "load only the GPU lanes (faster; gaps then have no host evidence)",
        [&] { options.load.gpuOnly = true; });
    const std::string rangeForm = "--load-range must be T0:T1 with T0 < T1 (ns on the trace clock, as the report's "
                                  "windows print them, or with a unit: 12.5ms)";
    spec.value(
        "--load-range T0:T1",
        "load only the events overlapping this range of the trace clock (ns as the report prints windows, or "
        "with a unit: 12.5ms); the report's first line says what was left out",
        [&options, rangeForm](const std::string& value) -> ArgumentCheck {
            const auto range = parseTimeRange(value);
            if (!range)
                return UsageError { rangeForm + ", got '" + value + "'" };
            options.load.from = range->first;
            options.load.to = range->second;
            return std::nullopt;
        },
        rangeForm);
    spec.count("--top N", "rows in the longest-gap and top-kernel lists (default 10 in text, all in JSON)",
        [&](std::size_t n) { options.top = n; });
    metricOptions(spec, options.metrics);
    spec.positional("TRACE...",
        "the traces (Chrome/Kineto JSON, .json.gz, .gapscope, Nsight Systems .sqlite or .nsys-rep), reported side "
        "by side, one entry per process; or the RANK.summary.json files of `gapscope summarize`",
        [&](const std::string& trace) { options.traces.push_back(trace); });
    spec.form("[--json] [--top N] RANK.summary.json...   (from `gapscope summarize` files)");
    return spec;
}

} // namespace

ParseResult<ReportOptions> parseReportOptions(const std::vector<std::string>& args)
{
    ReportOptions options;
    ArgumentSpec spec = reportArguments(options);
    if (ArgumentCheck problem = spec.parse(args))
        return *problem;
    if (options.traces.empty())
        return UsageError { "no trace given" };
    return options;
}

CommandHelp reportHelp()
{
    ReportOptions options;
    return reportArguments(options).help();
}

} // namespace gapscope::cli
