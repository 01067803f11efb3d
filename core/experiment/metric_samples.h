// SPDX-License-Identifier: MIT
#pragma once

// The values of a metric in one run: what the experiment's verdict tests (docs/experiments.md). Pure functions of
// a finished trace and its analysis; no I/O.

#include "core/analysis/analysis.h"
#include "core/experiment/metric_spec.h"

#include <vector>

namespace gapscope {

struct MetricSamples {
    /// step: one value per counted step; range: per matching range; interval: per pair of consecutive matches on
    /// a thread; first: one per process that has a match; gpu: one per counted step. Processes in order, each in
    /// time order.
    std::vector<TimeNs> values;
    /// The window the values were taken over: the analysis window of each process, or, for a process whose
    /// analysis window is empty (a trace without GPU activity under the default `gpu` window), its `trace`
    /// window. The kind of the first process's; Trace when any process fell back.
    WindowKind window = WindowKind::Gpu;
};

/// The metric's values in one run. Ranges (range, interval, first) are the events of kinds NVTX range, CPU op,
/// Python function and user annotation on host threads that overlap their process's window, whole (not clipped:
/// under the default `gpu` window the first ProfilerStep starts before the first kernel and still counts);
/// `first` measures from that window's start. `gpu` sums the kernels (by name) whose start lies in a counted step of
/// the kernel's process. Preconditions: `result` is analyze(trace, ...); `spec.pattern` is a valid regex
/// (parseMetricArgument() checked it). `only`: the values of that process alone (a rank's summary).
MetricSamples metricSamples(const Trace& trace, const AnalysisResult& result, const MetricSpec& spec,
    std::optional<ProcessIndex> only = std::nullopt);

} // namespace gapscope
