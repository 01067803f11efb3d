// SPDX-License-Identifier: MIT
#pragma once

// The one order in which processes and their GPUs are listed everywhere (timeline, details, status bar,
// `gapscope report`): the ranks of a job in rank order whatever order their files were given in.

#include "core/model/trace.h"

#include <vector>

namespace gapscope {

/// Ranked processes by rank, then the processes without a rank, each by pid (then by index).
std::vector<ProcessIndex> processesInRankOrder(const Trace& trace);
/// Every device, its process in processesInRankOrder(), then by device id (then by index).
std::vector<DeviceIndex> devicesInRankOrder(const Trace& trace);

} // namespace gapscope
