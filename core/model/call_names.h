// SPDX-License-Identifier: MIT
#pragma once

// Names the model itself recognises while finalizing a trace, so that the analysis finds the few host events
// it needs (synchronizing calls, step ranges) without reading every event, and knows which GPU lanes hold
// communication kernels.

#include <string_view>

namespace gapscope {

/// Whether a host API call synchronizes with the device (cudaDeviceSynchronize, cudaStreamSynchronize,
/// cudaEventSynchronize, synchronous cudaMemcpy/cudaMemset, cuCtxSynchronize, ...).
bool isSynchronizingCall(std::string_view name);

/// Whether a CPU range names a PyTorch profiler step ("ProfilerStep#12").
inline bool isProfilerStepName(std::string_view name)
{
    return name.starts_with("ProfilerStep#");
}

/// True for kernels docs/definitions.md counts as communication (name contains nccl/rccl, case-insensitive).
bool isCommunicationKernel(std::string_view name);

} // namespace gapscope
