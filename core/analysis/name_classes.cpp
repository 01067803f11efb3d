// SPDX-License-Identifier: MIT
#include "core/analysis/name_classes.h"

#include "core/analysis/analysis.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <regex>

namespace gapscope {

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

bool isCommunicationKernel(std::string_view name)
{
    return containsCaseInsensitive(name, "nccl") || containsCaseInsensitive(name, "rccl");
}

bool isSynchronizingCall(std::string_view name)
{
    const std::string_view base = withoutVersionSuffix(name);
    return std::find(std::begin(kSynchronizingCalls), std::end(kSynchronizingCalls), base)
        != std::end(kSynchronizingCalls);
}

NameClasses::NameClasses(const Trace& trace, const std::string& stepPattern, std::vector<std::string>& warnings)
{
    std::optional<std::regex> pattern;
    if (!stepPattern.empty()) {
        try {
            pattern.emplace(stepPattern, std::regex::ECMAScript);
        } catch (const std::regex_error& error) {
            warnings.push_back("step pattern '" + stepPattern + "' is not a valid regular expression (" + error.what()
                + "): no NVTX range is taken as a step");
        }
    }
    m_flags.resize(trace.strings.size(), 0);
    for (std::uint32_t id = 1; id < m_flags.size(); ++id) {
        const std::string_view name = trace.strings.view(StringId { id });
        std::uint8_t f = 0;
        if (isCommunicationKernel(name))
            f |= kCommunication;
        if (isSynchronizingCall(name))
            f |= kSynchronizing;
        if (name.starts_with("ProfilerStep#"))
            f |= kProfilerStep;
        if (pattern && std::regex_search(name.begin(), name.end(), *pattern))
            f |= kStepPattern;
        m_flags[id] = f;
        m_anyHostInterest = m_anyHostInterest || (f & (kSynchronizing | kProfilerStep | kStepPattern));
    }
}

} // namespace gapscope
