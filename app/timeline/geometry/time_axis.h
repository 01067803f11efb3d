// SPDX-License-Identifier: MIT
#pragma once

// Time <-> pixel mapping of the timeline as pure functions over a value type, so that zooming,
// panning and the ruler can be tested without a widget.

#include "core/model/event.h"

#include <string>
#include <vector>

namespace gapscope::timeline {

/// A visible time range [start, end) laid over `width` pixels: x = 0 is `start`, x = width is `end`.
/// Arithmetic is done on int64 differences from `start`, never on absolute times in double
/// (absolute CLOCK_REALTIME nanoseconds do not fit a double's 53-bit mantissa).
/// Precondition: end > start and width > 0.
struct TimeAxis {
    TimeNs start = 0;
    TimeNs end = 1;
    double width = 1.0;

    TimeNs span() const { return end - start; }
    double nsPerPixel() const { return static_cast<double>(end - start) / width; }
    /// Fractional x of a time; outside [0, width] for times outside the range.
    double timeToX(TimeNs t) const { return static_cast<double>(t - start) / nsPerPixel(); }
    /// The time at a fractional x, rounded to the nearest nanosecond.
    TimeNs xToTime(double x) const;
    friend bool operator==(const TimeAxis&, const TimeAxis&) = default;
};

/// The pixel columns [first, last) an interval [x0, x1) occupies when drawn: at least one column, so
/// that zero-length and sub-pixel events stay visible. Shared by the draw-list builder, the painter
/// and the tests so that "an event covers a column" means the same thing everywhere.
struct ColumnSpan {
    int first = 0;
    int last = 0;
};
ColumnSpan columnsOf(double x0, double x1);

/// Limits for navigation: the range may not get shorter than `minSpan`, nor leave `bounds`
/// extended by `marginFraction` of the bounds' length on each side.
struct NavigationLimits {
    TimeNs boundsStart = 0;
    TimeNs boundsEnd = 1;
    TimeNs minSpan = 100;
    double marginFraction = 0.05;
};

/// Zooms by `factor` (> 1 zooms in) keeping the time under `anchorX` under it, then clamps.
TimeAxis zoomAround(const TimeAxis& axis, double anchorX, double factor, const NavigationLimits& limits);
/// Moves the range by `dx` pixels (positive: the content moves right, i.e. earlier times come into view).
TimeAxis panByPixels(const TimeAxis& axis, double dx, const NavigationLimits& limits);
/// A range showing [t0, t1) with `contextFraction` of its length added on each side, clamped.
TimeAxis fitRange(TimeNs t0, TimeNs t1, double width, double contextFraction, const NavigationLimits& limits);
/// Clamps a range to the limits, keeping its length where possible.
TimeAxis clampAxis(TimeAxis axis, const NavigationLimits& limits);

/// One tick of the time ruler.
struct RulerTick {
    TimeNs time = 0;
    double x = 0.0;
    bool major = false;
    /// Time relative to the ruler origin, in the unit of the major step ("12.5 ms"); empty for minor ticks.
    std::string label;
};

/// The major step of the ruler: the smallest 1, 2 or 5 x 10^k ns that is at least `minSpacingPx` wide.
TimeNs rulerStep(double nsPerPixel, double minSpacingPx);
/// Major ticks every rulerStep(), labelled relative to `origin`, with four minor ticks between them.
std::vector<RulerTick> rulerTicks(const TimeAxis& axis, TimeNs origin, double minSpacingPx);
/// Where the tick labels count from. The origin while labels stay short; zoomed in far from it (a 10 ns step
/// 655 ms into the trace would read "655257670 ns"), a base at a round multiple of ten steps from the
/// origin, at or before the view's start, so that labels read "0 ns", "20 ns"... and the ruler names the base.
TimeNs rulerLabelBase(const TimeAxis& axis, TimeNs origin, double minSpacingPx);
/// "+655.2576 ms": a ruler base counted from the origin, with the decimals `step` needs.
std::string formatRulerBase(TimeNs relative, TimeNs step);
/// "120 ms", "1.25 s", "-3 us": `relative` in the unit suited to `step`, with as many decimals as the step needs.
std::string formatTickLabel(TimeNs relative, TimeNs step);

} // namespace gapscope::timeline
