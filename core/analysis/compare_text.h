// SPDX-License-Identifier: MIT
#pragma once

// The text of a comparison that both `gapscope diff` and the viewer's Diff dock show, word for word: kept in
// core so that the viewer need not link the command line and the two cannot drift apart.

#include "core/analysis/compare.h"

#include <string>

namespace gapscope {

/// The one-line verdict: "faster: step p50 175.2 ms -> 126.2 ms (-49.0 ms, -27.96 %), ...".
std::string verdictLine(const StepComparison& steps);

/// A duration with its sign: "+1.50 ms", "-3 ns" (formatDuration(); no sign for 0).
std::string signedDuration(TimeNs ns);

/// A fraction as a signed percentage with two decimals: "+4.56 %", "-27.96 %".
std::string signedPercent(double fraction);

} // namespace gapscope
