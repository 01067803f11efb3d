// SPDX-License-Identifier: MIT
#include "cli/metric_options.h"

#include <algorithm>

namespace gapscope::cli {

void metricOptions(ArgumentSpec& spec, std::vector<MetricSpec>& metrics)
{
    spec.value(
        "--metric NAME=SPEC",
        "also measure (diff: also judge, on p50 and p95) this metric; repeatable. SPEC: range:REGEX (durations of "
        "matching CPU/NVTX ranges), interval:REGEX (one match's start to the next on the same thread), first:REGEX "
        "(window start to the end of the first match), gpu:REGEX (kernel time per step), step. In diff, a metric "
        "that moved against the first one that moved is listed as a side effect (docs/experiments.md)",
        [&metrics](const std::string& text) -> ArgumentCheck {
            auto parsed = parseMetricArgument(text);
            if (!parsed)
                return parsed.error();
            const auto same = [&](const MetricSpec& m) { return m.name == parsed->name; };
            if (std::any_of(metrics.begin(), metrics.end(), same))
                return UsageError { "--metric " + parsed->name + " is given twice" };
            metrics.push_back(std::move(parsed.value()));
            return std::nullopt;
        },
        "--metric needs NAME=SPEC (SPEC: step, range:REGEX, interval:REGEX, first:REGEX or gpu:REGEX)");
}

std::vector<MetricSpec> measuredMetrics(const std::vector<MetricSpec>& requested)
{
    std::vector<MetricSpec> metrics { stepMetric() };
    metrics.insert(metrics.end(), requested.begin(), requested.end());
    return metrics;
}

} // namespace gapscope::cli
