// SPDX-License-Identifier: MIT
#include "core/experiment/metric_spec.h"

#include <algorithm>
#include <array>
#include <regex>

namespace gapscope {

namespace {

constexpr std::array<std::pair<std::string_view, MetricKind>, 4> kPatternKinds { {
    { "range", MetricKind::Range },
    { "interval", MetricKind::Interval },
    { "first", MetricKind::First },
    { "gpu", MetricKind::Gpu },
} };

bool isNameCharacter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
        || c == '.';
}

} // namespace

std::string_view metricKindName(MetricKind kind)
{
    switch (kind) {
    case MetricKind::Step:
        return "step";
    case MetricKind::Range:
        return "range";
    case MetricKind::Interval:
        return "interval";
    case MetricKind::First:
        return "first";
    case MetricKind::Gpu:
        return "gpu";
    }
    return "step";
}

std::string MetricSpec::specText() const
{
    if (kind == MetricKind::Step)
        return "step";
    return std::string(metricKindName(kind)) + ":" + pattern;
}

MetricSpec stepMetric()
{
    return MetricSpec { "step", MetricKind::Step, {} };
}

ParseResult<MetricSpec> parseMetricArgument(std::string_view argument)
{
    const auto equals = argument.find('=');
    if (equals == std::string_view::npos || equals == 0)
        return UsageError { "--metric takes NAME=SPEC (SPEC: step, range:REGEX, interval:REGEX, first:REGEX or "
                            "gpu:REGEX), got '"
            + std::string(argument) + "'" };
    MetricSpec spec;
    spec.name = std::string(argument.substr(0, equals));
    for (const char c : spec.name) {
        if (!isNameCharacter(c))
            return UsageError { "--metric: the name '" + spec.name
                + "' may hold only letters, digits, '_', '-' and '.'" };
    }
    const std::string_view text = argument.substr(equals + 1);
    if (text == "step") {
        spec.kind = MetricKind::Step;
        return spec;
    }
    const auto colon = text.find(':');
    const std::string_view kind = text.substr(0, colon);
    const auto found = std::find_if(
        kPatternKinds.begin(), kPatternKinds.end(), [&](const auto& entry) { return entry.first == kind; });
    if (colon == std::string_view::npos || found == kPatternKinds.end())
        return UsageError { "--metric " + spec.name + ": unknown spec '" + std::string(text)
            + "' (step, range:REGEX, interval:REGEX, first:REGEX or gpu:REGEX)" };
    spec.kind = found->second;
    spec.pattern = std::string(text.substr(colon + 1));
    if (spec.pattern.empty())
        return UsageError { "--metric " + spec.name + ": " + std::string(kind) + ": needs a regular expression" };
    if (spec.name == "step")
        return UsageError { "--metric: the name 'step' is the step time's; give this metric another name" };
    try {
        const std::regex check(spec.pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& error) {
        return UsageError { "--metric " + spec.name + ": invalid regular expression '" + spec.pattern
            + "': " + error.what() };
    }
    return spec;
}

} // namespace gapscope
