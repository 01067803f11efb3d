// SPDX-License-Identifier: MIT
#pragma once

// The annotations of a timeline scene: labelled brackets in a strip between the ruler and the lanes,
// a faint tint of each note's range over the lanes and, for exported pictures, callout boxes with the
// title and hypothesis. Geometry is pure functions of the scene so that the painter, the view's hit
// testing and the tests agree.

#include "app/timeline/timeline_painter.h"

#include <QFont>
#include <QRect>

#include <optional>
#include <vector>

class QPainter;

namespace gapscope::timeline {

/// Height of one row of brackets in the strip.
inline constexpr int kAnnotationRowHeight = 18;
/// Overlapping notes stack in rows; beyond this many rows they share the last ones.
inline constexpr int kMaxAnnotationRows = 4;

/// The stacking row of each annotation (index-aligned with scene.annotations). Rows come from the notes'
/// time ranges alone, not from the view, so that the strip keeps its height while the user zooms and
/// pans: each note takes the first row whose notes all end at or before its start.
std::vector<int> annotationRows(const TimelineScene& scene);

/// Height of the strip between the ruler and the lanes: 0 when the scene has no annotations, otherwise
/// enough rows for the stacking (annotationRows) plus a small margin.
int annotationStripHeight(const TimelineScene& scene);

/// Screen rectangle of each annotation's bracket (index-aligned with scene.annotations), clipped to the
/// lanes' columns; nullopt when its range is outside the view. At least 4 px wide, so short notes can
/// be clicked.
std::vector<std::optional<QRect>> annotationBracketRects(const TimelineScene& scene);

/// Screen rectangle of each annotation's callout box, laid out with `font` (index-aligned; nullopt when
/// callouts are off or the note is out of view). Boxes sit over the lanes beside their range (right of
/// it when there is room, else left, else inside it), never overlapping each other.
std::vector<std::optional<QRect>> annotationCalloutRects(const TimelineScene& scene, const QFont& font);

/// Paints the strip, the brackets, the tint over the lanes and (scene.annotationCallouts) the callouts.
/// Nothing when the scene has no annotations.
void paintAnnotations(QPainter& painter, const TimelineScene& scene);

} // namespace gapscope::timeline
