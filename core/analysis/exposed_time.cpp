// SPDX-License-Identifier: MIT
// Exposed time of one device over a window, from the device pass (device_pass.cpp), which defines it.
#include "core/analysis/analysis.h"
#include "core/analysis/device_pass.h"
#include "core/analysis/name_classes.h"

namespace gapscope {

ExposedTime exposedTime(const Trace& trace, DeviceIndex device, const Window& window)
{
    std::vector<std::string> warnings;
    const NameClasses names(trace, {}, warnings);
    IntervalAppender sink; // no `out`: only the figures
    return measureDevice(trace, streamLanesOf(trace, device), names, nullptr, ActivitySet::All, window.ranges, {}, sink)
        .exposed;
}

} // namespace gapscope
