// SPDX-License-Identifier: MIT
#include "core/model/call_names.h"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace gapscope {

namespace {

// Calls after which the host thread does not return before the device (or a stream) has drained work it
// was given earlier. The *Async variants, cudaStreamWaitEvent (a device-side wait) and device-to-device
// copies (no host synchronization, CUDA "API synchronization behavior") are not in the list.
constexpr std::string_view kSynchronizingCalls[] = {
    "cudaDeviceSynchronize",
    "cudaThreadSynchronize",
    "cudaStreamSynchronize",
    "cudaEventSynchronize",
    "cudaMemcpy",
    "cudaMemcpy2D",
    "cudaMemcpy3D",
    "cudaMemcpyPeer",
    "cudaMemcpy3DPeer",
    "cudaMemcpyToSymbol",
    "cudaMemcpyFromSymbol",
    "cudaMemcpyToArray",
    "cudaMemcpyFromArray",
    "cudaMemcpy2DToArray",
    "cudaMemcpy2DFromArray",
    "cudaMemcpyArrayToArray",
    "cudaMemcpy2DArrayToArray",
    "cudaMemset",
    "cudaMemset2D",
    "cudaMemset3D",
    "cuCtxSynchronize",
    "cuStreamSynchronize",
    "cuEventSynchronize",
    "cuMemcpy",
    "cuMemcpyDtoH",
    "cuMemcpyHtoD",
    "cuMemcpyAtoH",
    "cuMemcpyHtoA",
    "cuMemcpy2D",
    "cuMemcpy2DUnaligned",
    "cuMemcpy3D",
    "cuMemcpyPeer",
    "cuMemcpy3DPeer",
    "cuMemsetD8",
    "cuMemsetD16",
    "cuMemsetD32",
    "cuMemsetD2D8",
    "cuMemsetD2D16",
    "cuMemsetD2D32",
    "hipDeviceSynchronize",
    "hipStreamSynchronize",
    "hipEventSynchronize",
    "hipMemcpy",
};

std::string_view withoutVersionSuffix(std::string_view name)
{
    // Driver entry points carry ABI versions (cuMemcpyDtoH_v2); per-thread-default-stream variants carry
    // _ptds / _ptsz. Neither changes whether the call blocks.
    for (bool stripped = true; stripped;) {
        stripped = false;
        for (std::string_view suffix : { "_v2", "_v3", "_ptds", "_ptsz" }) {
            if (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix) {
                name.remove_suffix(suffix.size());
                stripped = true;
            }
        }
    }
    return name;
}

} // namespace

bool isSynchronizingCall(std::string_view name)
{
    // Every listed call is a CUDA runtime/driver or HIP entry point: one test turns away all other names.
    if (!name.starts_with("cu") && !name.starts_with("hip"))
        return false;
    const std::string_view base = withoutVersionSuffix(name);
    return std::find(std::begin(kSynchronizingCalls), std::end(kSynchronizingCalls), base)
        != std::end(kSynchronizingCalls);
}

namespace {

bool containsCaseInsensitive(std::string_view text, std::string_view lowerNeedle)
{
    if (text.size() < lowerNeedle.size())
        return false;
    for (std::size_t i = 0; i + lowerNeedle.size() <= text.size(); ++i) {
        std::size_t j = 0;
        while (j < lowerNeedle.size()
            && static_cast<char>(std::tolower(static_cast<unsigned char>(text[i + j]))) == lowerNeedle[j])
            ++j;
        if (j == lowerNeedle.size())
            return true;
    }
    return false;
}

} // namespace

bool isCommunicationKernel(std::string_view name)
{
    return containsCaseInsensitive(name, "nccl") || containsCaseInsensitive(name, "rccl");
}

std::uint8_t nameClassesOf(std::string_view name)
{
    return static_cast<std::uint8_t>((isSynchronizingCall(name) ? kSyncCallName : 0)
        | (isProfilerStepName(name) ? kProfilerStepName : 0) | (isCommunicationKernel(name) ? kCommunicationName : 0));
}

std::vector<std::uint8_t> classifyNames(const StringTable& strings)
{
    std::vector<std::uint8_t> classes(std::max<std::size_t>(1, strings.size()), 0);
    for (std::uint32_t id = 1; id < classes.size(); ++id)
        classes[id] = nameClassesOf(strings.view(StringId { id }));
    return classes;
}

} // namespace gapscope
