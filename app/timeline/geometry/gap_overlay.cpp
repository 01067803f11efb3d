// SPDX-License-Identifier: MIT
#include "app/timeline/geometry/gap_overlay.h"

#include <algorithm>

namespace gapscope::timeline {

GapOverlay::GapOverlay(const AnalysisResult& result, std::size_t deviceCount)
    : m_byDevice(deviceCount)
{
    for (std::size_t i = 0; i < result.gaps.size(); ++i) {
        const Gap& gap = result.gaps[i];
        if (gap.stream || gap.device.value >= deviceCount)
            continue;
        m_byDevice[gap.device.value].push_back({ gap.start, gap.end, i });
    }
    // Device gaps are disjoint, so sorting by start sorts the ends too.
    for (auto& entries : m_byDevice)
        std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.start < b.start; });
}

std::vector<std::size_t> GapOverlay::visible(DeviceIndex device, TimeNs t0, TimeNs t1, TimeNs minDuration) const
{
    std::vector<std::size_t> result;
    if (device.value >= m_byDevice.size())
        return result;
    const auto& entries = m_byDevice[device.value];
    auto it = std::partition_point(entries.begin(), entries.end(), [t0](const Entry& e) { return e.end <= t0; });
    for (; it != entries.end() && it->start < t1; ++it) {
        if (it->end - it->start >= minDuration)
            result.push_back(it->gap);
    }
    return result;
}

std::optional<std::size_t> GapOverlay::at(DeviceIndex device, TimeNs t, TimeNs minDuration) const
{
    const auto gaps = visible(device, t, t + 1, minDuration);
    if (gaps.empty())
        return std::nullopt;
    return gaps.front();
}

} // namespace gapscope::timeline
