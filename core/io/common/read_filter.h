// SPDX-License-Identifier: MIT
#pragma once

// What a reader keeps of a file: everything (the default), only the GPU lanes, and/or only the events that
// overlap a time range. A trace too large for the machine's memory loads this way (docs/hardening.md
// "Traces larger than memory"): the GPU lanes of a Kineto trace are about a fifth of its events, a range any
// share of them. Filtered events are dropped before their names and args are stored, so they cost no memory.

#include "core/model/event.h"

#include <cstdint>
#include <limits>
#include <string>

namespace gapscope {

struct ReadFilter {
    /// Keep only the kinds that live on GPU stream lanes (kernels, copies, memsets, syncs, GPU annotations):
    /// no host lanes, so gaps get no host evidence.
    bool gpuOnly = false;
    /// Keep only events overlapping [from, to), in ns on the trace's clock (as `report` prints windows and
    /// `--window T0:T1` takes them). A zero-length event at t is kept when from <= t < to.
    TimeNs from = std::numeric_limits<TimeNs>::min();
    TimeNs to = std::numeric_limits<TimeNs>::max();

    bool hasRange() const
    {
        return from != std::numeric_limits<TimeNs>::min() || to != std::numeric_limits<TimeNs>::max();
    }
    bool active() const { return gpuOnly || hasRange(); }
    bool keepsKind(EventKind kind) const { return !gpuOnly || isGpuLaneKind(kind); }
    bool keepsTime(TimeNs start, TimeNs end) const
    {
        return start == end ? (start >= from && start < to) : (start < to && end > from);
    }
    bool keeps(EventKind kind, TimeNs start, TimeNs end) const { return keepsKind(kind) && keepsTime(start, end); }

    /// "only the GPU lanes", "only events overlapping [a, b) ns on the trace's clock", or both, for warnings.
    std::string describe() const
    {
        std::string text;
        if (gpuOnly)
            text = "only the GPU lanes";
        if (hasRange()) {
            text += text.empty() ? "only events" : ", and of them only events";
            text += " overlapping [" + std::to_string(from) + ", " + std::to_string(to) + ") ns on the trace's clock";
        }
        return text;
    }
    /// The warning a reader adds when it dropped `dropped` events.
    std::string warning(std::uint64_t dropped) const
    {
        return "loaded " + describe() + ": " + std::to_string(dropped)
            + " events were not loaded, and every figure covers only what was loaded";
    }
};

} // namespace gapscope
