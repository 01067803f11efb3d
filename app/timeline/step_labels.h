// SPDX-License-Identifier: MIT
#pragma once

// Which steps of the ruler's step strip get a label. The steps of a job's ranks overlap in time (every rank has
// its ProfilerStep#10, a little apart), so their columns overlap: a label is drawn only where it does not run into
// the one before, after every step's block is filled, so that no later block paints over a label.

#include <optional>
#include <vector>

namespace gapscope::timeline {

/// A step's block in the strip, in screen pixels [left, right), and the width its whole label needs.
struct StepColumn {
    int left = 0;
    int right = 0;
    int textWidth = 0;
};

/// Per column, in the given (time) order: the width of the label drawn from left + 3, or nullopt for none. A column
/// gets a label when it is wider than `minWidth` and starts at or after the end of the last label drawn; the label
/// is cut to the column (less 5 px of margins).
std::vector<std::optional<int>> placeStepLabels(const std::vector<StepColumn>& columns, int minWidth);

} // namespace gapscope::timeline
