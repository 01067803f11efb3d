// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/trace.h"

namespace gapscope::test {

/// A small hand-built trace (finished), the answers of the GUI unit tests are worked out from it:
/// process 0 (pid 100, rank 0) with thread 1 holding
///   [1000, 9000) "step" (depth 0), [1000, 1100) cudaLaunchKernel corr 1 (depth 1),
///   [5000, 5100) cudaLaunchKernel corr 2 (depth 1), [6000, 8000) cudaStreamSynchronize (depth 1)
/// and device 0 stream 7 holding kernels "k1" [2000, 3000) corr 1 and "k2" [7000, 7500) corr 2.
Trace makeSmallTrace();

/// A generated trace: `streams` GPU streams and `threads` CPU threads of one process, `eventsPerLane`
/// events each, deterministic for a seed. GPU events are kernels of 2..40 us with gaps of 0..30 us;
/// thread events are ranges of depth 0 holding API calls of depth 1.
Trace makeGeneratedTrace(int streams, int threads, std::size_t eventsPerLane, unsigned seed);

} // namespace gapscope::test
