// SPDX-License-Identifier: MIT
#include "core/model/time_format.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace gapscope {

std::string formatDuration(TimeNs ns, bool ascii)
{
    const TimeNs magnitude = ns < 0 ? -ns : ns;
    double value = static_cast<double>(ns);
    const char* unit = "ns";
    std::int64_t scale = 1;
    if (magnitude >= 1'000'000'000) {
        value /= 1e9;
        unit = "s";
        scale = 1'000'000'000;
    } else if (magnitude >= 1'000'000) {
        value /= 1e6;
        unit = "ms";
        scale = 1'000'000;
    } else if (magnitude >= 1'000) {
        value /= 1e3;
        unit = ascii ? "us" : "\u00b5s";
        scale = 1'000;
    } else {
        return std::to_string(ns) + " ns";
    }
    const double absValue = std::fabs(value);
    const int decimals = absValue >= 100 ? 1 : (absValue >= 10 ? 2 : 3);
    char buffer[64];
    char* end = buffer;
    // The digits printf's %.*f gives the double, from the integer: a gap summary holds several durations, and
    // formatting doubles was the largest cost of a full report. The double is within 2^-53 of magnitude / scale, so
    // below 2^52 ns it rounds to the same digits unless the integer lies exactly halfway between two (then the
    // double's own rounding decides, as std::to_chars does it: exactly, ties to even, as printf).
    const std::int64_t unitOfLastDigit = scale / (decimals == 1 ? 10 : decimals == 2 ? 100 : 1000);
    const std::int64_t dropped = magnitude % unitOfLastDigit;
    if (magnitude < (std::int64_t { 1 } << 52) && (unitOfLastDigit == 1 || 2 * dropped != unitOfLastDigit)) {
        const std::int64_t rounded = magnitude / unitOfLastDigit + (2 * dropped > unitOfLastDigit ? 1 : 0);
        const std::int64_t perUnit = scale / unitOfLastDigit;
        if (ns < 0)
            *end++ = '-';
        end = std::to_chars(end, buffer + sizeof buffer, rounded / perUnit).ptr;
        *end++ = '.';
        std::int64_t fraction = rounded % perUnit;
        for (std::int64_t digit = perUnit / 10; digit > 0; digit /= 10) {
            *end++ = static_cast<char>('0' + fraction / digit);
            fraction %= digit;
        }
    } else {
        end = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals).ptr;
    }
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
