// SPDX-License-Identifier: MIT
#pragma once

// The strong index types of the trace model: a process, a device, a lane of a Trace, and one event of a lane.

#include <cstdint>

namespace gapscope {

struct ProcessIndex {
    std::uint32_t value = 0;
    friend bool operator==(ProcessIndex, ProcessIndex) = default;
};
struct DeviceIndex {
    std::uint32_t value = 0;
    friend bool operator==(DeviceIndex, DeviceIndex) = default;
};
struct LaneIndex {
    std::uint32_t value = 0;
    friend bool operator==(LaneIndex, LaneIndex) = default;
};

/// Refers to one event: lane and index within the lane.
struct EventRef {
    LaneIndex lane;
    std::uint32_t index = 0;
    friend bool operator==(EventRef, EventRef) = default;
};

} // namespace gapscope
