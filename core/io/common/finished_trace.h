// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/common/io_error.h"
#include "core/model/trace_builder.h"

#include <utility>

namespace gapscope {

/// What a reader read, finished into a Trace; its error as it was.
inline IoResult<Trace> finishedTrace(IoResult<TraceBuilder>&& read)
{
    if (!read)
        return read.error();
    return std::move(read.value()).finish();
}

} // namespace gapscope
