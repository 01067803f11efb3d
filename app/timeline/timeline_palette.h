// SPDX-License-Identifier: MIT
#pragma once

// Every colour of the timeline in one place, so that the painter, the legend, the docks and the
// pixel tests agree.

#include "core/analysis/analysis.h"

#include <QColor>

namespace gapscope::timeline {

/// Fill of an event: kernels by a hash of their name, copies by direction, memsets, waits and host
/// calls by kind.
QColor eventColor(const Event& event);
/// Folded items (many events in one rectangle): slate on GPU lanes, a little darker than their longest
/// event on host lanes.
QColor foldedColor(const Event& longest);

/// The colour of a gap cause (legend swatch, Gaps dock).
QColor gapCauseColor(GapCause cause);
/// The translucent band drawn over a device's lanes for a gap; the selected gap is more opaque.
QColor gapBandColor(GapCause cause, bool selected);

QColor laneBackground(bool alternate);
QColor headerBackground();
QColor labelBackground();
QColor rulerBackground();
QColor utilizationColor();
QColor selectionColor();
/// A Shift-dragged range: its edges, and the veil over what lies outside it (neutral, so that inside the range
/// every band and event keeps its own colour: a tint over a host band made it look like an `unknown` one).
QColor rangeSelectionEdgeColor();
QColor rangeOutsideColor();
QColor flowColor();
QColor stepMarkerColor();
QColor textColor();
/// Outline of the events the search matches.
QColor searchMatchColor();
/// The frame around the lanes while the timeline has the keyboard focus.
QColor focusFrameColor();

/// The colour a translucent `over` gives on an opaque `under` (source-over), as QPainter computes it
/// to within rounding.
QColor blendOver(const QColor& under, const QColor& over);

} // namespace gapscope::timeline
