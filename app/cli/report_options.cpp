// SPDX-License-Identifier: MIT
#include "app/cli/report_options.h"

#include <charconv>
#include <cmath>

namespace gapscope::cli {

namespace {

std::optional<long long> parseInteger(const std::string& text)
{
    long long value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size())
        return std::nullopt;
    return value;
}

} // namespace

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

std::optional<ReportOptions> parseReportOptions(const std::vector<std::string>& args, std::string& error)
{
    ReportOptions options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        const auto needValue = [&](const char* flag) -> const std::string* {
            if (i + 1 >= args.size()) {
                error = std::string(flag) + " needs a value";
                return nullptr;
            }
            return &args[++i];
        };
        if (arg == "--json") {
            options.json = true;
        } else if (arg == "--window") {
            const std::string* value = needValue("--window");
            if (!value)
                return std::nullopt;
            if (*value == "gpu") {
                options.analysis.window.kind = WindowKind::Gpu;
            } else if (*value == "trace") {
                options.analysis.window.kind = WindowKind::Trace;
            } else if (*value == "steps") {
                options.analysis.window.kind = WindowKind::Steps;
            } else {
                const auto colon = value->find(':');
                const auto t0 = colon == std::string::npos ? std::nullopt : parseTime(value->substr(0, colon));
                const auto t1 = colon == std::string::npos ? std::nullopt : parseTime(value->substr(colon + 1));
                if (!t0 || !t1 || *t1 <= *t0) {
                    error = "--window must be gpu, trace, steps or T0:T1 with T0 < T1 (times in ns on the trace "
                            "clock, or with a unit: 12.5ms), got '"
                        + *value + "'";
                    return std::nullopt;
                }
                options.analysis.window.kind = WindowKind::Explicit;
                options.analysis.window.explicitStart = *t0;
                options.analysis.window.explicitEnd = *t1;
            }
        } else if (arg == "--warmup") {
            const std::string* value = needValue("--warmup");
            if (!value)
                return std::nullopt;
            const auto n = parseInteger(*value);
            if (!n || *n < 0) {
                error = "--warmup must be a number of steps >= 0, got '" + *value + "'";
                return std::nullopt;
            }
            options.analysis.window.warmupSteps = static_cast<int>(*n);
        } else if (arg == "--activity") {
            const std::string* value = needValue("--activity");
            if (!value)
                return std::nullopt;
            if (*value == "all") {
                options.analysis.activity = ActivitySet::All;
            } else if (*value == "kernels") {
                options.analysis.activity = ActivitySet::Kernels;
            } else {
                error = "--activity must be all or kernels, got '" + *value + "'";
                return std::nullopt;
            }
        } else if (arg == "--launch-threshold-us") {
            const std::string* value = needValue("--launch-threshold-us");
            if (!value)
                return std::nullopt;
            const auto ns = parseTime(*value + "us");
            if (!ns || *ns < 0) {
                error = "--launch-threshold-us must be a number of microseconds >= 0, got '" + *value + "'";
                return std::nullopt;
            }
            options.analysis.launchThresholdNs = *ns;
        } else if (arg == "--top") {
            const std::string* value = needValue("--top");
            if (!value)
                return std::nullopt;
            const auto n = parseInteger(*value);
            if (!n || *n < 0) {
                error = "--top must be a count >= 0, got '" + *value + "'";
                return std::nullopt;
            }
            options.top = static_cast<std::size_t>(*n);
        } else if (arg == "--step-pattern") {
            const std::string* value = needValue("--step-pattern");
            if (!value)
                return std::nullopt;
            options.analysis.stepPattern = *value;
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
