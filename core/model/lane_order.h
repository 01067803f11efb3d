// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/event.h"

namespace gapscope {

/// The order of a lane's events (Lane::events of a finished Trace, and what each reader sorts its lanes
/// by): start ascending, then end descending, so that an enclosing event comes before the events it holds.
inline bool laneOrder(const Event& a, const Event& b)
{
    return a.start != b.start ? a.start < b.start : a.end > b.end;
}

} // namespace gapscope
