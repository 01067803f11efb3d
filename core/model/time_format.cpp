// SPDX-License-Identifier: MIT
#include "core/model/time_format.h"

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
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f %s", decimals, value, unit);
    return buffer;
}

std::string formatRelativeTime(TimeNs t, TimeNs origin)
{
    const TimeNs delta = t - origin;
    return (delta < 0 ? "-" : "+") + formatDuration(delta < 0 ? -delta : delta);
}

} // namespace gapscope
