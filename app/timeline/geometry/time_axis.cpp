// SPDX-License-Identifier: MIT
#include "app/timeline/geometry/time_axis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gapscope::timeline {

namespace {

TimeNs roundToNs(double value)
{
    return static_cast<TimeNs>(std::llround(value));
}

// Floor division for possibly negative numerators (C++ division truncates toward zero).
TimeNs floorDiv(TimeNs a, TimeNs b)
{
    const TimeNs q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

} // namespace

TimeNs TimeAxis::xToTime(double x) const
{
    return start + roundToNs(x * nsPerPixel());
}

ColumnSpan columnsOf(double x0, double x1)
{
    // Clamp far-off coordinates so that the int conversion below stays defined.
    constexpr double kLimit = 1e9;
    x0 = std::clamp(x0, -kLimit, kLimit);
    x1 = std::clamp(x1, -kLimit, kLimit);
    const int first = static_cast<int>(std::floor(x0));
    const int last = std::max(first + 1, static_cast<int>(std::ceil(x1)));
    return { first, last };
}

TimeAxis clampAxis(TimeAxis axis, const NavigationLimits& limits)
{
    const TimeNs boundsLength = std::max<TimeNs>(1, limits.boundsEnd - limits.boundsStart);
    const TimeNs margin = roundToNs(static_cast<double>(boundsLength) * limits.marginFraction);
    const TimeNs lo = limits.boundsStart - margin;
    const TimeNs hi = limits.boundsEnd + margin;
    const TimeNs maxSpan = std::max<TimeNs>(hi - lo, limits.minSpan);
    TimeNs span = std::clamp<TimeNs>(axis.end - axis.start, std::max<TimeNs>(1, limits.minSpan), maxSpan);
    if (span >= hi - lo) {
        // Longer than the bounds allow: centre the bounds.
        axis.start = lo - (span - (hi - lo)) / 2;
    } else {
        axis.start = std::clamp(axis.start, lo, hi - span);
    }
    axis.end = axis.start + span;
    return axis;
}

TimeAxis zoomAround(const TimeAxis& axis, double anchorX, double factor, const NavigationLimits& limits)
{
    if (!(factor > 0.0))
        return axis;
    const TimeNs anchorTime = axis.xToTime(anchorX);
    const double fraction = anchorX / axis.width;
    const TimeNs newSpan
        = std::max<TimeNs>({ 1, limits.minSpan, roundToNs(static_cast<double>(axis.span()) / factor) });
    TimeAxis zoomed = axis;
    zoomed.start = anchorTime - roundToNs(fraction * static_cast<double>(newSpan));
    zoomed.end = zoomed.start + newSpan;
    return clampAxis(zoomed, limits);
}

TimeAxis panByPixels(const TimeAxis& axis, double dx, const NavigationLimits& limits)
{
    const TimeNs shift = roundToNs(dx * axis.nsPerPixel());
    TimeAxis moved = axis;
    moved.start -= shift;
    moved.end -= shift;
    return clampAxis(moved, limits);
}

TimeAxis fitRange(TimeNs t0, TimeNs t1, double width, double contextFraction, const NavigationLimits& limits)
{
    const TimeNs length = std::max<TimeNs>(1, t1 - t0);
    const TimeNs context = roundToNs(static_cast<double>(length) * contextFraction);
    TimeAxis axis { t0 - context, t1 + context, width };
    if (axis.span() < limits.minSpan) {
        const TimeNs centre = t0 + length / 2;
        axis.start = centre - limits.minSpan / 2;
        axis.end = axis.start + limits.minSpan;
    }
    return clampAxis(axis, limits);
}

TimeNs rulerStep(double nsPerPixel, double minSpacingPx)
{
    const double target = nsPerPixel * minSpacingPx;
    TimeNs decade = 1;
    for (int k = 0; k < 19; ++k) {
        for (const TimeNs mantissa : { 1, 2, 5 }) {
            const TimeNs step = mantissa * decade;
            if (static_cast<double>(step) >= target)
                return step;
        }
        decade *= 10;
    }
    return decade;
}

std::string formatTickLabel(TimeNs relative, TimeNs step)
{
    TimeNs unit = 1;
    const char* unitName = "ns";
    if (step >= 100'000'000) {
        unit = 1'000'000'000;
        unitName = "s";
    } else if (step >= 100'000) {
        unit = 1'000'000;
        unitName = "ms";
    } else if (step >= 100) {
        unit = 1'000;
        unitName = "\u00b5s";
    }
    // As many decimals as the step needs: the smallest d with step * 10^d a multiple of the unit.
    int decimals = 0;
    TimeNs scale = 1;
    while (decimals < 9 && (step * scale) % unit != 0) {
        ++decimals;
        scale *= 10;
    }
    const bool negative = relative < 0;
    const TimeNs magnitude = negative ? -relative : relative;
    // magnitude * scale / unit, computed without overflow for any realistic trace length.
    const TimeNs whole = magnitude / unit;
    const TimeNs fraction = (magnitude % unit) * scale / unit;
    char buffer[64];
    if (decimals == 0)
        std::snprintf(buffer, sizeof buffer, "%s%lld %s", negative ? "-" : "", static_cast<long long>(whole), unitName);
    else
        std::snprintf(buffer, sizeof buffer, "%s%lld.%0*lld %s", negative ? "-" : "", static_cast<long long>(whole),
            decimals, static_cast<long long>(fraction), unitName);
    return buffer;
}

TimeNs rulerLabelBase(const TimeAxis& axis, TimeNs origin, double minSpacingPx)
{
    const TimeNs step = rulerStep(axis.nsPerPixel(), minSpacingPx);
    // Labels up to 10,000 steps from the origin have at most five significant digits ("1234.5 ms").
    constexpr TimeNs kMaxSteps = 10'000;
    const TimeNs farthest = std::max(std::abs(axis.start - origin), std::abs(axis.end - origin));
    if (farthest / step < kMaxSteps)
        return origin;
    const TimeNs block = 10 * step;
    return origin + floorDiv(axis.start - origin, block) * block;
}

std::string formatRulerBase(TimeNs relative, TimeNs step)
{
    const TimeNs magnitude = relative < 0 ? -relative : relative;
    const char* sign = relative < 0 ? "-" : "+";
    // Far from the origin at a fine step: milliseconds with the decimals the step needs ("+655.25767 ms"),
    // rather than a nine-digit count of nanoseconds.
    if (magnitude < 1'000'000 || step >= 100'000)
        return sign + formatTickLabel(magnitude, step);
    constexpr TimeNs kMs = 1'000'000;
    int decimals = 0;
    TimeNs scale = 1;
    while (decimals < 6 && (step * scale) % kMs != 0) {
        ++decimals;
        scale *= 10;
    }
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%s%lld.%0*lld ms", sign, static_cast<long long>(magnitude / kMs), decimals,
        static_cast<long long>((magnitude % kMs) * scale / kMs));
    return buffer;
}

std::vector<RulerTick> rulerTicks(const TimeAxis& axis, TimeNs origin, double minSpacingPx)
{
    std::vector<RulerTick> ticks;
    const TimeNs step = rulerStep(axis.nsPerPixel(), minSpacingPx);
    const TimeNs minor = step % 5 == 0 ? step / 5 : (step % 2 == 0 ? step / 2 : step);
    for (TimeNs t = origin + floorDiv(axis.start - origin, minor) * minor; t <= axis.end; t += minor) {
        if (t < axis.start)
            continue;
        RulerTick tick;
        tick.time = t;
        tick.x = axis.timeToX(t);
        tick.major = (t - origin) % step == 0;
        if (tick.major)
            tick.label = formatTickLabel(t - origin, step);
        ticks.push_back(std::move(tick));
    }
    return ticks;
}

} // namespace gapscope::timeline
