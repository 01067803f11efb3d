// SPDX-License-Identifier: MIT
#pragma once

// The figure set of one device over one window (docs/definitions.md): span, busy and idle time, utilization,
// the number of gaps, idle time by cause and exposed time. Declared once here; the analysis (DeviceFigures), a
// rank's summary (DeviceSummary) and a comparison (RunSummary::Device, DeviceDiff) embed it as their base, so
// that one is handed to the other whole, never field by field, and its fields keep their names everywhere.

#include "core/analysis/gap.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace gapscope {

/// The parts of a window in which the device's time is exposed (docs/definitions.md "Exposed time").
struct ExposedTime {
    TimeNs compute = 0;
    TimeNs communication = 0;
    TimeNs memcpy = 0;
    TimeNs idle = 0;
};

/// `GapCount`: std::size_t for figures, std::int64_t for the change between two sets of figures.
template <typename GapCount> struct BasicWindowFigures {
    TimeNs spanNs = 0; // window length
    TimeNs busyNs = 0;
    TimeNs idleNs = 0;
    /// busy / span, 0 when the span is 0 (utilizationOf()); the mean of several runs' figures keeps the ratio of
    /// their summed times, which the rounded mean times do not give back, hence a field and not a function.
    double utilization = 0.0;
    GapCount gapCount = 0;
    std::array<TimeNs, kGapCauseCount> idleByCause {};
    ExposedTime exposed;
};

/// The window figures of one device, or their mean over a side's runs.
using WindowFigures = BasicWindowFigures<std::size_t>;
/// b - a, field by field (the gap count as a signed number).
using WindowFiguresDelta = BasicWindowFigures<std::int64_t>;

/// busy / span; 0 when the span is 0.
inline double utilizationOf(TimeNs busyNs, TimeNs spanNs)
{
    return spanNs > 0 ? static_cast<double>(busyNs) / static_cast<double>(spanNs) : 0.0;
}

} // namespace gapscope
