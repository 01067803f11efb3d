// SPDX-License-Identifier: MIT
#pragma once

// What every fuzz target does with the trace its reader produced: the analysis a user would run on it
// (`gapscope report` over each window, the evidence of the longest gaps, steps, exposed time), so that the
// analysis code sees the odd models that odd files make too. Nothing is checked here but that it all runs
// clean under the sanitizers, and the analysis's own promises that hold for any model.

#include "core/analysis/analysis.h"
#include "core/model/trace.h"

#include <cstdlib>

namespace gapscope::fuzz {

/// Aborts (a finding) when a promise of the analysis does not hold.
inline void require(bool condition)
{
    if (!condition)
        std::abort();
}

inline void exerciseAnalysis(const Trace& trace)
{
    for (const WindowKind kind : { WindowKind::Gpu, WindowKind::Trace, WindowKind::Steps }) {
        AnalysisOptions options;
        options.window.kind = kind;
        options.window.warmupSteps = kind == WindowKind::Steps ? 1 : 0;
        // A small threshold so that both the one-pass and the sliced pass see these models.
        options.parallelFromEvents = kind == WindowKind::Trace ? 64 : 1'000'000;
        options.threads = 2;
        options.rankedDeviceGaps = 8;
        const AnalysisResult result = analyze(trace, options);
        for (const DeviceFigures& device : result.devices) {
            require(device.busyNs >= 0 && device.idleNs >= 0);
            require(device.busyNs + device.idleNs == device.spanNs);
            const ExposedTime exposed = exposedTime(trace, device.device, device.window);
            require(exposed.compute + exposed.communication + exposed.memcpy + exposed.idle == device.window.length());
        }
        for (const std::size_t i : result.longestDeviceGaps) {
            const Gap gap = result.gaps[i];
            require(gap.start < gap.end);
            const GapEvidence evidence = gapEvidence(trace, gap, options.launchThresholdNs);
            if (evidence.closingOp)
                (void)launchDelay(trace, *evidence.closingOp);
        }
        // A few stream gaps too: their evidence looks on the stream.
        for (std::size_t i = result.gaps.size(); i-- > 0 && result.gaps.size() - i <= 4;)
            (void)describeGap(trace, result.gaps[i], options.launchThresholdNs);
    }
    (void)findSteps(trace, "step|iteration", 2);
}

} // namespace gapscope::fuzz
