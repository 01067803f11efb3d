// SPDX-License-Identifier: MIT
#pragma once

// The one place that names processes, lanes and devices, and writes shares as percentages, for every output:
// the report (text and JSON), the Markdown export, the gap explanations and the viewer.

#include "core/model/trace.h"

#include <string>

namespace gapscope {

/// "rank 1 · python (pid 4242)"; "process (pid 4242)" without a name.
std::string processLabel(const Process& process);
/// A host thread, named once: "thread 25772 (python)" when the trace's name already holds the id,
/// "dataloader (tid 25772)", "thread 25772" without a name; a lane the trace named by text alone keeps its text.
std::string threadLabel(const Lane& lane);
/// "stream 7".
std::string streamLabel(const Lane& lane);
/// "GPU 0 · NVIDIA A100-SXM4-40GB"; "GPU 0" without a name.
std::string deviceLabel(const Device& device);
/// A device of a trace, told apart from the other processes' devices: "rank 1 · GPU 0 · A100" when its process
/// has a rank, "pid 4242 · GPU 0 · A100" when the trace has several processes, else deviceLabel().
std::string rankedDeviceLabel(const Trace& trace, DeviceIndex device);
/// Any lane: threadLabel() for a host thread, "GPU 0 stream 7" for a stream (with the rank, or the pid, in front
/// as rankedDeviceLabel() does).
std::string laneLabel(const Trace& trace, LaneIndex lane);
/// A share as a percentage with `decimals` decimals: "60.6 %"; shares under 1 % keep two significant digits
/// ("0.036 %"). A fraction of a zero whole (NaN) is "0 %".
std::string percentText(double fraction, int decimals = 1);
/// percentText(part / whole); 0 % when the whole is 0.
std::string percentText(TimeNs part, TimeNs whole, int decimals = 1);

} // namespace gapscope
