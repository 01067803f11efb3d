// SPDX-License-Identifier: MIT
#include "app/cli/report_options.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>

namespace gapscope::cli {

std::optional<long long> parseInteger(const std::string& text)
{
    long long value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::optional<TimeNs> parseTime(const std::string& text)
{
    struct Unit {
        const char* suffix;
        double scale;
    };
    static constexpr Unit kUnits[] = { { "ns", 1.0 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };
    for (const Unit& unit : kUnits) {
        const std::string suffix = unit.suffix;
        if (text.size() > suffix.size() && text.ends_with(suffix)) {
            const std::string number = text.substr(0, text.size() - suffix.size());
            if (auto integer = parseInteger(number); integer && unit.scale == 1.0)
                return *integer;
            double value = 0;
            const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
            if (ec != std::errc() || ptr != number.data() + number.size())
                return std::nullopt;
            return static_cast<TimeNs>(std::llround(value * unit.scale));
        }
    }
    return parseInteger(text);
}

std::optional<std::pair<TimeNs, TimeNs>> parseTimeRange(const std::string& text)
{
    const auto colon = text.find(':');
    if (colon == std::string::npos)
        return std::nullopt;
    const auto t0 = parseTime(text.substr(0, colon));
    const auto t1 = parseTime(text.substr(colon + 1));
    if (!t0 || !t1 || *t1 <= *t0)
        return std::nullopt;
    return std::pair { *t0, *t1 };
}

AnalysisOptionParse parseAnalysisOption(
    const std::vector<std::string>& args, std::size_t& i, AnalysisOptions& options, std::string& error)
{
    const std::string& arg = args[i];
    if (std::find(std::begin(kAnalysisOptionNames), std::end(kAnalysisOptionNames), arg)
        == std::end(kAnalysisOptionNames))
        return AnalysisOptionParse::NotAnalysisOption;
    if (i + 1 >= args.size()) {
        error = arg + " needs a value";
        return AnalysisOptionParse::Failed;
    }
    const std::string& value = args[++i];
    if (arg == "--window") {
        if (value == "gpu") {
            options.window.kind = WindowKind::Gpu;
        } else if (value == "trace") {
            options.window.kind = WindowKind::Trace;
        } else if (value == "steps") {
            options.window.kind = WindowKind::Steps;
        } else {
            const auto range = parseTimeRange(value);
            if (!range) {
                error = "--window must be gpu, trace, steps or T0:T1 with T0 < T1 (ns on the trace clock, or "
                        "with a unit: 12.5ms), got '"
                    + value + "'";
                return AnalysisOptionParse::Failed;
            }
            options.window.kind = WindowKind::Explicit;
            options.window.explicitStart = range->first;
            options.window.explicitEnd = range->second;
        }
    } else if (arg == "--warmup") {
        const auto n = parseInteger(value);
        if (!n || *n < 0) {
            error = "--warmup must be a number of steps >= 0, got '" + value + "'";
            return AnalysisOptionParse::Failed;
        }
        options.window.warmupSteps = static_cast<int>(*n);
    } else if (arg == "--activity") {
        if (value != "all" && value != "kernels") {
            error = "--activity must be all or kernels, got '" + value + "'";
            return AnalysisOptionParse::Failed;
        }
        options.activity = value == "all" ? ActivitySet::All : ActivitySet::Kernels;
    } else if (arg == "--launch-threshold-us") {
        const auto ns = parseTime(value + "us");
        if (!ns || *ns < 0) {
            error = "--launch-threshold-us must be a number of microseconds >= 0, got '" + value + "'";
            return AnalysisOptionParse::Failed;
        }
        options.launchThresholdNs = *ns;
    } else {
        options.stepPattern = value;
    }
    return AnalysisOptionParse::Parsed;
}

std::optional<ReportOptions> parseReportOptions(const std::vector<std::string>& args, std::string& error)
{
    ReportOptions options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        const AnalysisOptionParse shared = parseAnalysisOption(args, i, options.analysis, error);
        if (shared == AnalysisOptionParse::Failed)
            return std::nullopt;
        if (shared == AnalysisOptionParse::Parsed)
            continue;
        if (arg == "--json") {
            options.json = true;
        } else if (arg == "--gpu-only") {
            options.load.gpuOnly = true;
        } else if (arg == "--load-range") {
            const auto range = i + 1 < args.size() ? parseTimeRange(args[i + 1]) : std::nullopt;
            if (!range) {
                error = "--load-range must be T0:T1 with T0 < T1 (ns on the trace clock, as the report's windows "
                        "print them, or with a unit: 12.5ms)"
                    + (i + 1 < args.size() ? ", got '" + args[i + 1] + "'" : std::string());
                return std::nullopt;
            }
            ++i;
            options.load.from = range->first;
            options.load.to = range->second;
        } else if (arg == "--top") {
            if (i + 1 >= args.size()) {
                error = "--top needs a value";
                return std::nullopt;
            }
            const std::string& value = args[++i];
            const auto n = parseInteger(value);
            if (!n || *n < 0) {
                error = "--top must be a count >= 0, got '" + value + "'";
                return std::nullopt;
            }
            options.top = static_cast<std::size_t>(*n);
        } else if (arg.starts_with("--") && arg != "--") {
            error = "unknown option '" + arg + "'";
            return std::nullopt;
        } else if (arg != "--") {
            options.traces.push_back(arg);
        }
    }
    if (options.traces.empty()) {
        error = "no trace given";
        return std::nullopt;
    }
    return options;
}

} // namespace gapscope::cli
