// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/trace_builder.h"

#include <string>
#include <string_view>

namespace gapscope::test {

/// One hand-built event with its name interned in `trace` (and its args stored there when given).
inline Event makeEvent(TraceBuilder& trace, EventKind kind, std::string_view name, TimeNs start, TimeNs end,
    std::uint32_t correlation = 0, std::string_view args = {})
{
    Event e;
    e.kind = kind;
    e.name = trace.strings().intern(name);
    e.start = start;
    e.end = end;
    e.correlation = correlation;
    if (!args.empty())
        e.args = trace.addArgs(std::string(args));
    return e;
}

} // namespace gapscope::test
