// SPDX-License-Identifier: MIT
#pragma once

// Paints what the counter lanes and the sample strips of thread lanes show, from the per-column lists of
// counter_draw_list.h (cached in the DrawListCache for the range and width).

#include "app/timeline/timeline_painter.h"

#include <QColor>

namespace gapscope::timeline {

/// The colour of a counter lane's `i`-th track (0: memory allocated, filled; 1: memory reserved, a line).
QColor counterTrackColor(std::size_t i);

/// A counter lane at screen y `top`: its first track as a filled stepped area, a second one as a stepped line,
/// both scaled to the larger top of the two; the top's value in the lane's corner.
void paintCounterLane(
    QPainter& painter, const TimelineScene& scene, const LayoutRow& row, int top, DrawListCache& cache);

/// The sample strip of a thread lane row whose content top is at screen y `top`: a tick in each column where
/// the thread was sampled, darker where it was sampled more.
void paintSampleStrip(
    QPainter& painter, const TimelineScene& scene, const LayoutRow& row, int top, DrawListCache& cache);

/// "12.4 MB", "92.0 %", "3.5e+06": a counter value in its unit, short.
QString counterValueText(double value, const std::string& unit);

} // namespace gapscope::timeline
