// SPDX-License-Identifier: MIT
#include "core/analysis/compare_text.h"

#include "core/model/time_format.h"

#include <cstdio>

namespace gapscope {

namespace {

std::string formatP(double p)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, p < 0.0001 ? "%.2g" : "%.4f", p);
    return buffer;
}

std::string formatU(double u)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f", u); // U is a whole number or a half (ties)
    std::string text = buffer;
    return text.ends_with(".0") ? text.substr(0, text.size() - 2) : text;
}

} // namespace

std::string signedDuration(TimeNs ns)
{
    return (ns > 0 ? "+" : "") + formatDuration(ns);
}

std::string signedPercent(double fraction)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%+.2f %%", fraction * 100.0);
    return buffer;
}

std::string verdictLine(const StepComparison& s)
{
    std::string line = "Verdict: " + std::string(verdictName(s.verdict));
    if (!s.test || !s.interval95)
        return line + " (" + s.reason + ")";
    line += ": step p50 " + formatDuration(s.base.p50Ns) + " -> " + formatDuration(s.fresh.p50Ns) + " ("
        + signedDuration(s.deltaP50Ns) + ", " + signedPercent(s.deltaP50Fraction) + "); 95 % interval of the change ["
        + signedDuration(s.interval95->low) + ", " + signedDuration(s.interval95->high)
        + "], p = " + formatP(s.test->pValue) + " (Mann-Whitney U = " + formatU(s.test->u) + ", "
        + (s.test->exact ? "exact" : "normal approximation") + "), n = " + std::to_string(s.base.durations.size())
        + " vs " + std::to_string(s.fresh.durations.size()) + " steps in " + std::to_string(s.base.runs) + " vs "
        + std::to_string(s.fresh.runs) + " run(s)";
    return line;
}

} // namespace gapscope
