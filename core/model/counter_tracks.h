// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/event.h"
#include "core/model/trace_indices.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gapscope {

/// A value a counter took at a time; it holds until the track's next point (a stepped line).
struct CounterPoint {
    TimeNs time = 0;
    double value = 0.0;
};
static_assert(sizeof(CounterPoint) == 16);

/// One counter over time: a device's memory in use, a GPU metric (SM active, DRAM bandwidth), a Chrome `C`
/// counter. Points sorted by time once the trace is finished.
struct CounterTrack {
    std::string name;
    /// "bytes", "%", "" when the trace does not say.
    std::string unit;
    ProcessIndex process;
    /// The device it measures, if it measures one.
    std::optional<DeviceIndex> device;
    /// How the values were derived where they are not the trace's own (e.g. "running sum of the allocations'
    /// Bytes: the trace gives no totals"); empty when they are.
    std::string note;
    /// The trace's events hold these points too (Kineto's `[memory]` instants, kept on their thread's lane): a
    /// writer that writes the events writes the track.
    bool keptAsEvents = false;
    std::vector<CounterPoint> points;
};

/// The name of the tracks of the bytes allocated on a device (a suffix may name the device: " (GPU 1)").
inline constexpr std::string_view kMemoryAllocatedTrack = "memory allocated";
inline constexpr std::string_view kMemoryReservedTrack = "memory reserved";

/// Every counter track of a trace.
class CounterTracks {
public:
    std::vector<CounterTrack>& tracks() { return m_tracks; }
    const std::vector<CounterTrack>& tracks() const { return m_tracks; }
    /// The track of that name for that process and device, made empty on first use: its index.
    std::size_t track(std::string_view name, ProcessIndex process, std::optional<DeviceIndex> device);
    bool empty() const { return m_tracks.empty(); }
    std::size_t pointCount() const;
    /// Appends another trace's tracks: its processes and devices are numbered from the offsets.
    void append(CounterTracks&& other, std::uint32_t processOffset, std::uint32_t deviceOffset);
    /// Sorts each track's points by time, stably (points at one time keep their order: the last one holds).
    void finish();

private:
    std::vector<CounterTrack> m_tracks;
};

} // namespace gapscope
