// SPDX-License-Identifier: MIT
#include "cli/argument_parser.h"

#include <charconv>
#include <cmath>

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

void ArgumentSpec::flag(std::string name, std::function<void()> set)
{
    m_options[std::move(name)] = Option { false, std::move(set), {}, {} };
}

void ArgumentSpec::value(std::string name, ValueHandler set, std::string missing)
{
    if (missing.empty())
        missing = name + " needs a value";
    m_options[std::move(name)] = Option { true, {}, std::move(set), std::move(missing) };
}

void ArgumentSpec::count(std::string name, std::function<void(std::size_t)> set)
{
    value(name, [name, set = std::move(set)](const std::string& text) -> ArgumentCheck {
        const auto n = parseInteger(text);
        if (!n || *n < 0)
            return UsageError { name + " must be a count >= 0, got '" + text + "'" };
        set(static_cast<std::size_t>(*n));
        return std::nullopt;
    });
}

void ArgumentSpec::analysisOptions(AnalysisOptions& options)
{
    value("--window", [&options](const std::string& text) -> ArgumentCheck {
        if (text == "gpu") {
            options.window.kind = WindowKind::Gpu;
        } else if (text == "trace") {
            options.window.kind = WindowKind::Trace;
        } else if (text == "steps") {
            options.window.kind = WindowKind::Steps;
        } else {
            const auto range = parseTimeRange(text);
            if (!range)
                return UsageError { "--window must be gpu, trace, steps or T0:T1 with T0 < T1 (ns on the trace "
                                    "clock, or with a unit: 12.5ms), got '"
                    + text + "'" };
            options.window.kind = WindowKind::Explicit;
            options.window.explicitStart = range->first;
            options.window.explicitEnd = range->second;
        }
        return std::nullopt;
    });
    value("--warmup", [&options](const std::string& text) -> ArgumentCheck {
        const auto n = parseInteger(text);
        if (!n || *n < 0)
            return UsageError { "--warmup must be a number of steps >= 0, got '" + text + "'" };
        options.window.warmupSteps = static_cast<int>(*n);
        return std::nullopt;
    });
    value("--activity", [&options](const std::string& text) -> ArgumentCheck {
        if (text != "all" && text != "kernels")
            return UsageError { "--activity must be all or kernels, got '" + text + "'" };
        options.activity = text == "all" ? ActivitySet::All : ActivitySet::Kernels;
        return std::nullopt;
    });
    value("--launch-threshold-us", [&options](const std::string& text) -> ArgumentCheck {
        const auto ns = parseTime(text + "us");
        if (!ns || *ns < 0)
            return UsageError { "--launch-threshold-us must be a number of microseconds >= 0, got '" + text + "'" };
        options.launchThresholdNs = *ns;
        return std::nullopt;
    });
    value("--step-pattern", [&options](const std::string& text) -> ArgumentCheck {
        options.stepPattern = text;
        return std::nullopt;
    });
}

ArgumentCheck ArgumentSpec::parse(const std::vector<std::string>& args) const
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (const auto option = m_options.find(arg); option != m_options.end()) {
            if (!option->second.takesValue) {
                option->second.set();
                continue;
            }
            if (i + 1 >= args.size())
                return UsageError { option->second.missing };
            if (ArgumentCheck problem = option->second.setValue(args[++i]))
                return problem;
        } else if (arg == "--") {
            if (m_separator) {
                if (ArgumentCheck problem = m_separator())
                    return problem;
            }
        } else if (arg.starts_with("--")) {
            return UsageError { "unknown option '" + arg + "'" };
        } else if (m_positional) {
            m_positional(arg);
        } else {
            return UsageError { "unexpected argument '" + arg + "'" };
        }
    }
    return std::nullopt;
}

} // namespace gapscope::cli
