// SPDX-License-Identifier: MIT
#pragma once

// "Explain this gap…": turns a gap the analysis found into a pre-filled optimization record whose
// problem, baseline, hypothesis and next experiment name the real calls, ranges and durations of the
// evidence, so that the user starts from a falsifiable sentence instead of a blank form.

#include "core/analysis/analysis.h"
#include "core/annotations/annotation.h"

#include <string_view>

namespace gapscope {

/// A new, open annotation for `gap`, not yet in any store (its id and times are empty):
/// - range: the gap, or for a `launch` gap the run of consecutive launch gaps around it;
/// - lanes: the GPU lane(s) of the gap and the host threads of its launch and sync calls;
/// - gap: where it came from, with the cause the analysis gave;
/// - title, problem, baseline (the gap and its share of the window, utilization, step time), hypothesis,
///   change (the next experiment) and correctness check, per cause (docs/definitions.md "Gap causes").
/// Preconditions: `result` is analyze(trace, ...) and `gap` one of result.gaps.
Annotation explainGap(const Trace& trace, const AnalysisResult& result, const Gap& gap);

/// What a person could try against a gap of this cause, in two sentences: a hypothesis to test, not a verdict
/// (the viewer's gap details).
std::string_view whatToTry(GapCause cause);

} // namespace gapscope
