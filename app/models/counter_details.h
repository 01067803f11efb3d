// SPDX-License-Identifier: MIT
#pragma once

// Text about the counters and CPU samples under a point of the timeline (tooltips) and over a selected GPU op
// (the details panel's counter means: "SM Active [Throughput %]: mean 18.0 %").

#include "core/model/trace.h"

#include <QString>

#include <cstdint>
#include <utility>
#include <vector>

namespace gapscope::models {

/// The value of each track of a counter lane over [t0, t1) (the pixel under the pointer): one value, or the
/// lowest and highest where the line steps inside it.
QString counterTooltip(const Trace& trace, const std::vector<std::uint32_t>& tracks, TimeNs t0, TimeNs t1);

/// The samples of thread `thread` (of trace.samples()) in [t0, t1): how many, and the top frames (innermost
/// first, at most `frames`) of the one nearest to `t`, its time relative to `origin`; empty when there is none.
QString sampleTooltip(
    const Trace& trace, std::uint32_t thread, TimeNs t0, TimeNs t1, TimeNs t, TimeNs origin, std::size_t frames = 8);

/// (label, value) rows for a GPU op's details: the time-weighted mean of each counter track of its device over
/// the op's duration [start, end), with the range it took ("mean 92.0 % (40.0 – 97.0 %) over the kernel's
/// 1.20 ms"); the tracks with no value there are left out. Empty for an op of no device or one without time.
std::vector<std::pair<QString, QString>> gpuOpCounterRows(const Trace& trace, EventRef op);

/// The Details of a selected range [t0, t1): for each thread sampled in it, how many times, and a bottom-up table
/// of the functions with the most self samples there (self: it was running; total: it was on the stack), at
/// most `limit` a thread, as hotspot lists perf data; empty when no thread was sampled in the range.
QString rangeSamplesHtml(const Trace& trace, TimeNs t0, TimeNs t1, std::size_t limit = 10);

} // namespace gapscope::models
