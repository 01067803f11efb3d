// SPDX-License-Identifier: MIT
#include "app/timeline/step_labels.h"

#include <algorithm>
#include <limits>

namespace gapscope::timeline {

std::vector<std::optional<int>> placeStepLabels(const std::vector<StepColumn>& columns, int minWidth)
{
    std::vector<std::optional<int>> labels(columns.size());
    int labelsEnd = std::numeric_limits<int>::min();
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const StepColumn& c = columns[i];
        if (c.right - c.left <= minWidth || c.left < labelsEnd)
            continue;
        const int width = std::min(c.textWidth, c.right - c.left - 5);
        labels[i] = width;
        labelsEnd = c.left + 3 + width + 4; // a few pixels of air before the next label
    }
    return labels;
}

} // namespace gapscope::timeline
