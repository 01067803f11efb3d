// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/event.h"

#include <string>

namespace gapscope {

/// A duration for people: "850 ns", "12.3 µs", "4.56 ms", "1.234 s" (3 significant digits, at least).
/// `ascii` writes "us" instead of "µs".
std::string formatDuration(TimeNs ns, bool ascii = false);
/// A time counted from `origin` (the trace start, where the viewer's ruler has its zero): "+717.6 ms", "-2 µs".
std::string formatRelativeTime(TimeNs t, TimeNs origin);

} // namespace gapscope
