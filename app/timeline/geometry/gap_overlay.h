// SPDX-License-Identifier: MIT
#pragma once

// The device gaps of an analysis, arranged for drawing and hit testing: per device, sorted by start,
// so that the gaps in view are two binary searches.

#include "core/analysis/analysis.h"

#include <optional>
#include <vector>

namespace gapscope::timeline {

class GapOverlay {
public:
    GapOverlay() = default;
    /// Takes the device gaps (Gap::stream unset) of `result`; indices refer to result.gaps.
    explicit GapOverlay(const AnalysisResult& result, std::size_t deviceCount);

    /// Indices into AnalysisResult::gaps of the device's gaps overlapping [t0, t1), at least
    /// `minDuration` long, in time order.
    std::vector<std::size_t> visible(DeviceIndex device, TimeNs t0, TimeNs t1, TimeNs minDuration) const;
    /// The gap of a device containing t, at least `minDuration` long.
    std::optional<std::size_t> at(DeviceIndex device, TimeNs t, TimeNs minDuration) const;

private:
    struct Entry {
        TimeNs start;
        TimeNs end;
        std::size_t gap;
    };
    std::vector<std::vector<Entry>> m_byDevice;
};

} // namespace gapscope::timeline
