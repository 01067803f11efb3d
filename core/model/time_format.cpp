// SPDX-License-Identifier: MIT
#include "core/model/time_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace gapscope {

std::string formatDuration(TimeNs ns, bool ascii)
{
    const TimeNs magnitude = ns < 0 ? -ns : ns;
    double value = static_cast<double>(ns);
    const char* unit = "ns";
    if (magnitude >= 1'000'000'000) {
        value /= 1e9;
        unit = "s";
    } else if (magnitude >= 1'000'000) {
        value /= 1e6;
        unit = "ms";
    } else if (magnitude >= 1'000) {
        value /= 1e3;
        unit = ascii ? "us" : "\u00b5s";
    } else {
        return std::to_string(ns) + " ns";
    }
    const double absValue = std::fabs(value);
    const int decimals = absValue >= 100 ? 1 : (absValue >= 10 ? 2 : 3);
    // std::to_chars rounds as printf's %.*f does (exactly, from the binary value, ties to even), without the
    // format parsing and locale that made snprintf a large part of a full report's gap summaries.
    char buffer[64];
    char* end = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals).ptr;
    *end++ = ' ';
    std::string text(buffer, end);
    text += unit;
    return text;
}

std::string formatRelativeTime(TimeNs t, TimeNs origin)
{
    const TimeNs delta = t - origin;
    return (delta < 0 ? "-" : "+") + formatDuration(delta < 0 ? -delta : delta);
}

} // namespace gapscope
