// SPDX-License-Identifier: MIT
#include "core/model/counter_tracks.h"

#include <algorithm>

namespace gapscope {

std::size_t CounterTracks::track(std::string_view name, ProcessIndex process, std::optional<DeviceIndex> device)
{
    for (std::size_t i = 0; i < m_tracks.size(); ++i) {
        const CounterTrack& t = m_tracks[i];
        if (t.name == name && t.process == process && t.device == device)
            return i;
    }
    CounterTrack t;
    t.name = std::string(name);
    t.process = process;
    t.device = device;
    m_tracks.push_back(std::move(t));
    return m_tracks.size() - 1;
}

std::size_t CounterTracks::pointCount() const
{
    std::size_t n = 0;
    for (const CounterTrack& t : m_tracks)
        n += t.points.size();
    return n;
}

void CounterTracks::append(CounterTracks&& other, std::uint32_t processOffset, std::uint32_t deviceOffset)
{
    for (CounterTrack& t : other.m_tracks) {
        t.process.value += processOffset;
        if (t.device)
            t.device->value += deviceOffset;
        m_tracks.push_back(std::move(t));
    }
    other = CounterTracks {};
}

void CounterTracks::finish()
{
    for (CounterTrack& t : m_tracks) {
        const auto byTime = [](const CounterPoint& a, const CounterPoint& b) { return a.time < b.time; };
        if (!std::is_sorted(t.points.begin(), t.points.end(), byTime))
            std::stable_sort(t.points.begin(), t.points.end(), byTime);
        t.points.shrink_to_fit();
    }
}

} // namespace gapscope
