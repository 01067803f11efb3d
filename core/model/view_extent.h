// SPDX-License-Identifier: MIT
#pragma once

// How far a trace reaches in time once everything the timeline draws is counted: the events, and also the CPU
// samples and counter points, which a profiler may have taken before the first event (Nsight Systems samples the
// process from its start, before its first CUDA or NVTX call) or after the last.

#include "core/model/trace.h"

#include <optional>
#include <utility>

namespace gapscope {

/// [first, last) over the events (Trace::timeSpan), the CPU samples and the counter points, a sample or point
/// taking [time, time + 1); nullopt when the trace has none of them. Precondition: a finished trace (samples and
/// points sorted by time).
std::optional<std::pair<TimeNs, TimeNs>> drawnExtent(const Trace& trace);

} // namespace gapscope
