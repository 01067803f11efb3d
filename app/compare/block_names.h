// SPDX-License-Identifier: MIT
#pragma once

// How the figures of a comparison name its devices: BASE's first, each with its block ("Base GPU 0"), in the
// status bar and in Details alike. Without a comparison: the analysis's order and the plain device names.

#include "core/analysis/compared_traces.h"

#include <QString>

#include <vector>

namespace gapscope::app {

/// The devices of `result` (none when null), BASE's first when `compared` is set.
std::vector<DeviceFigures> devicesInBlockOrder(const AnalysisResult* result, const ComparedTraces* compared);
/// The device's name, with its block when `compared` is set.
QString blockDeviceName(const Trace& trace, const ComparedTraces* compared, const DeviceFigures& device);

} // namespace gapscope::app
