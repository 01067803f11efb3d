// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/trace.h"

#include <string_view>

namespace gapscope::test {

/// The first counter track of that name, or nullptr.
inline const CounterTrack* counterTrackNamed(const Trace& trace, std::string_view name)
{
    for (const CounterTrack& t : trace.counters().tracks()) {
        if (t.name == name)
            return &t;
    }
    return nullptr;
}

} // namespace gapscope::test
