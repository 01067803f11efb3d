// SPDX-License-Identifier: MIT
#pragma once

// The hypothesis loop: a note written on the BASE trace names its "after" trace (the run with the change);
// measuring the note against it fills the note's *performance change* with the step-time verdict of
// `gapscope diff` and the figure the note's cause is about, and proposes a status the user confirms.

#include "core/analysis/compare.h"
#include "core/annotations/annotation.h"
#include "core/annotations/predicted_change.h"

#include <optional>
#include <string>

namespace gapscope {

/// What a note's hypothesis predicts and what happened.
struct NoteMeasurement {
    /// The window both traces were measured over (the note's range lies on the BASE trace's clock, which the after
    /// trace does not share, so the comparison is over the same kind of window on each: noteComparisonOptions()).
    WindowKind window = WindowKind::Steps;
    int warmupSteps = 0;
    /// Step time of the two runs, with the verdict (compareSteps()).
    StepComparison steps;
    /// The figure the note's cause is about: idle time of that cause ("host", "sync", ...) on the note's
    /// device(s) (matched by device ordinal), or all idle time ("idle") for a note without a gap.
    std::string figure;
    TimeNs figureBeforeNs = 0;
    TimeNs figureAfterNs = 0;
    /// The windows' lengths over those devices, so that the figure reads as a share too.
    TimeNs windowBeforeNs = 0;
    TimeNs windowAfterNs = 0;
    /// supported: step time faster for real and the figure fell; refuted: slower, or neither moved;
    /// inconclusive: the rest (noise hides it, faster for another reason, or no steps to test).
    AnnotationStatus proposedStatus = AnnotationStatus::Inconclusive;
    std::string statusReason;
    /// The note's prediction (Annotation::prediction) against the measured change of step p50; absent when the
    /// note has none.
    std::optional<PredictionCheck> prediction;
    /// The text for OptimizationRecord::performanceChange.
    std::string performanceChange;
};

/// The options a note is measured with: `base` with the window `steps` (warm-up `base.window.warmupSteps`, at
/// least 1) when the BASE trace has steps, else `gpu`.
AnalysisOptions noteComparisonOptions(const Trace& before, const AnalysisOptions& base = {});

/// Measures `note` (made on `before`) against `after`, both analyzed with `options` (see
/// noteComparisonOptions()).
NoteMeasurement measureNoteAgainst(
    const Trace& before, const Trace& after, const Annotation& note, const AnalysisOptions& options);

/// Writes the measurement into the note: record.performanceChange, and the after trace's path. The status is
/// left to the user (NoteMeasurement::proposedStatus is a proposal).
void applyNoteMeasurement(Annotation& note, const NoteMeasurement& measurement, const std::string& afterTrace);

} // namespace gapscope
