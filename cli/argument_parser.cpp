// SPDX-License-Identifier: MIT
#include "cli/argument_parser.h"

#include <charconv>
#include <string_view>

namespace gapscope::cli {

std::optional<long long> parseInteger(const std::string& text)
{
    long long value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size())
        return std::nullopt;
    return value;
}

namespace {

/// `digits[.digits]` (with an optional sign) times 10^exponent, rounded to the nearest integer (halves away from
/// zero): decimal text straight into int64, since a double cannot hold a 2024 epoch in ns to the nanosecond.
std::optional<TimeNs> parseDecimal(std::string_view text, int exponent)
{
    bool negative = false;
    if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
        negative = text.front() == '-';
        text.remove_prefix(1);
    }
    const std::size_t point = text.find('.');
    const std::string_view whole = text.substr(0, point);
    const std::string_view fraction = point == std::string_view::npos ? std::string_view {} : text.substr(point + 1);
    const auto allDigits
        = [](std::string_view s) { return s.find_first_not_of("0123456789") == std::string_view::npos; };
    if ((whole.empty() && fraction.empty()) || !allDigits(whole) || !allDigits(fraction))
        return std::nullopt;
    TimeNs value = 0;
    const auto push = [&value](char digit) {
        return !__builtin_mul_overflow(value, 10, &value) && !__builtin_add_overflow(value, digit - '0', &value);
    };
    for (const char c : whole) {
        if (!push(c))
            return std::nullopt;
    }
    for (int i = 0; i < exponent; ++i) {
        if (!push(static_cast<std::size_t>(i) < fraction.size() ? fraction[static_cast<std::size_t>(i)] : '0'))
            return std::nullopt;
    }
    if (fraction.size() > static_cast<std::size_t>(exponent) && fraction[static_cast<std::size_t>(exponent)] >= '5'
        && __builtin_add_overflow(value, 1, &value))
        return std::nullopt;
    return negative ? -value : value;
}

} // namespace

std::optional<TimeNs> parseTime(const std::string& text)
{
    struct Unit {
        const char* suffix;
        int exponent; // the unit in ns, as a power of ten
    };
    static constexpr Unit kUnits[] = { { "ns", 0 }, { "us", 3 }, { "ms", 6 }, { "s", 9 } };
    for (const Unit& unit : kUnits) {
        const std::string_view suffix = unit.suffix;
        if (text.size() > suffix.size() && text.ends_with(suffix))
            return parseDecimal(std::string_view(text).substr(0, text.size() - suffix.size()), unit.exponent);
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
