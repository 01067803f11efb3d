// SPDX-License-Identifier: MIT
#pragma once

// A hypothesis carries its prediction: what a what-if of the BASE trace (what_if.h) says the change will do to the
// step time, recorded in the note before the change is made; the measurement against the after trace then checks
// it. A prediction outside the measured 95 % interval says that the model of the step was wrong, which is itself a
// finding.

#include "core/analysis/compare.h"
#include "core/analysis/critical_path.h"
#include "core/analysis/what_if.h"
#include "core/annotations/annotation.h"

#include <optional>
#include <string>
#include <vector>

namespace gapscope {

/// The prediction of `changes` over `windows` (the windows whatIfWindows() was given, in that order) with its
/// `outcomes`: the nearest-rank p50 of the measured and of the predicted window lengths. `warmupSteps` is the
/// warm-up the step windows were found with. Precondition: outcomes.size() == windows.size().
PredictedChange predictedChangeOf(const WhatIfChanges& changes, const std::vector<PathWindow>& windows,
    const std::vector<WhatIfOutcome>& outcomes, int warmupSteps, std::string made);

/// The change in words: "'__next__' took 0x" joined with "host wait 2 dropped", "launch delays at most 5 µs".
std::string describeChanges(const PredictedChange& prediction);
/// One sentence: "What-if ('__next__' took 0x) over 6 steps (warm-up 0 excluded): step p50 175.2 ms -> 118.7 ms
/// (-56.5 ms, -32.2 %)."
std::string describePrediction(const PredictedChange& prediction);

/// The prediction against the measured change of step p50 (compareSteps() of BASE and the after trace).
struct PredictionCheck {
    TimeNs predictedChangeNs = 0;
    double predictedFraction = 0.0; // of the prediction's measured p50
    TimeNs measuredChangeNs = 0;
    double measuredFraction = 0.0; // of BASE's p50 in the measurement
    /// measured - predicted: positive when the step gained less than predicted (or lost more).
    TimeNs errorNs = 0;
    /// The 95 % interval of the measured change; absent when the measurement has none (no test possible).
    std::optional<BootstrapInterval> interval95;
    /// Whether the predicted change lies in [low, high]; absent without an interval.
    std::optional<bool> insideInterval;
    /// One or two sentences for people, ending with a full stop; outside the interval it says "the model of the
    /// step was wrong: predicted -56.5 ms, measured -49.0 ms [-52.1, -45.9]".
    std::string text;
};

PredictionCheck checkPrediction(const PredictedChange& prediction, const StepComparison& measured);

} // namespace gapscope
