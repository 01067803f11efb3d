// SPDX-License-Identifier: MIT
#pragma once

// What a viewer draws of a critical path: each segment of the path on the lane of the op it lies on, and only the
// dependencies that carry the path from one lane to another (drawing every edge of the graph makes the overlay
// unreadable). Plain data over a trace; no painting.

#include "core/analysis/critical_path.h"

#include <optional>
#include <string>
#include <vector>

namespace gapscope {

/// A stretch of the path on one op: [start, end) of the window, on `event`'s lane at its depth.
struct PathOutlineSegment {
    EventRef event;
    TimeNs start = 0;
    TimeNs end = 0;
    PathCategory category = PathCategory::Unexplained;
};

/// Where the path leaves one lane for another: from the end of segment `from` to the start of segment `to`
/// (indices into PathOutline::segments; `to` is `from` + 1).
struct PathHandOver {
    std::size_t from = 0;
    std::size_t to = 0;
};

struct PathOutline {
    CriticalPath path;
    /// In time order; the path's segments that lie on no op (unexplained time, the source) are left out.
    std::vector<PathOutlineSegment> segments;
    std::vector<PathHandOver> handOvers;
};

/// The measured critical path of `window` and its outline.
PathOutline criticalPathOutline(const Trace& trace, const PathWindow& window, const PathOptions& options = {});

/// The GPU window of defaultPathProcess(), the window of a trace without steps; nullopt without GPU activity.
std::optional<PathWindow> gpuPathWindow(const Trace& trace);

/// The window a viewer shows the path of first, as `gapscope critical-path` without options: the median counted
/// step (nearest rank, warm-up as countedStepWindows() leaves out), else gpuPathWindow().
std::optional<PathWindow> medianStepOrGpuWindow(
    const Trace& trace, const std::string& stepPattern, std::optional<int> warmupSteps);

} // namespace gapscope
