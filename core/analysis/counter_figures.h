// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/counter_tracks.h"

#include <optional>

namespace gapscope {

/// A counter track's figures over [start, end), the track read as a stepped line: each point's value holds until
/// the next point. Time before the first point has no value and is left out.
struct CounterFigures {
    double min = 0.0;
    double max = 0.0;
    /// Time-weighted over the part of the window that has a value; with no time (every point at `end - 0`),
    /// the mean of the values seen.
    double mean = 0.0;
    /// The part of [start, end) that has a value.
    TimeNs coveredNs = 0;
};

/// nullopt when the track has no value anywhere in [start, end).
std::optional<CounterFigures> counterFigures(const CounterTrack& track, TimeNs start, TimeNs end);

} // namespace gapscope
