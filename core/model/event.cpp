// SPDX-License-Identifier: MIT
#include "core/model/event.h"

#include <array>

namespace gapscope {

namespace {
constexpr std::array<std::string_view, kEventKindCount> kKindNames = {
    "kernel",
    "memcpy",
    "memset",
    "sync",
    "runtime",
    "driver",
    "nvtx_range",
    "nvtx_mark",
    "cpu_op",
    "python_function",
    "user_annotation",
    "gpu_user_annotation",
    "overhead",
    "other",
};
constexpr std::array<std::string_view, 11> kCopyNames = {
    "unknown",
    "HtoD",
    "DtoH",
    "HtoA",
    "AtoH",
    "AtoA",
    "AtoD",
    "DtoA",
    "DtoD",
    "HtoH",
    "PtoP",
};
} // namespace

std::string_view eventKindName(EventKind kind)
{
    return kKindNames[static_cast<std::size_t>(kind)];
}

std::optional<EventKind> eventKindFromName(std::string_view name)
{
    for (std::size_t i = 0; i < kKindNames.size(); ++i) {
        if (kKindNames[i] == name)
            return static_cast<EventKind>(i);
    }
    return std::nullopt;
}

std::string_view copyKindName(CopyKind kind)
{
    return kCopyNames[static_cast<std::size_t>(kind)];
}

CopyKind copyKindFromMemcpyName(std::string_view name)
{
    // Kineto: "Memcpy HtoD (Pageable -> Device)"; CUPTI-style names may also appear bare ("HtoD").
    for (std::size_t i = 1; i < kCopyNames.size(); ++i) {
        const std::string_view code = kCopyNames[i];
        const auto pos = name.find(code);
        if (pos == std::string_view::npos)
            continue;
        const bool startOk = pos == 0 || name[pos - 1] == ' ';
        const bool endOk = pos + code.size() == name.size() || name[pos + code.size()] == ' ';
        if (startOk && endOk)
            return static_cast<CopyKind>(i);
    }
    return CopyKind::Unknown;
}

} // namespace gapscope
