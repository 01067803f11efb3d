// SPDX-License-Identifier: MIT
#pragma once

// The names the analysis recognises (synchronizing calls, profiler steps, communication kernels), and their
// classification per string id, done once per trace: classifyNames().

#include "core/model/string_table.h"

#include <cstdint>
#include <string_view>
#include <vector>

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

/// The classes of a name, as bits of one byte.
enum NameClass : std::uint8_t {
    kSyncCallName = 1, // isSynchronizingCall
    kProfilerStepName = 2, // isProfilerStepName
    kCommunicationName = 4, // isCommunicationKernel
};

/// The NameClass bits of one name.
std::uint8_t nameClassesOf(std::string_view name);

/// nameClassesOf() of every string of the table, by string id (at least one entry: [0], the empty name, has
/// none): what hot loops read instead of comparing strings.
std::vector<std::uint8_t> classifyNames(const StringTable& strings);

} // namespace gapscope
