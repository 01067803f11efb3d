// SPDX-License-Identifier: MIT
#include "core/io/chrome/chrome_categories.h"

#include <array>

namespace gapscope {

namespace {

// Indexed by EventKind: the category the writer emits.
constexpr std::array<std::string_view, kEventKindCount> kWrittenCategory = {
    "kernel", // Kernel
    "gpu_memcpy", // Memcpy
    "gpu_memset", // Memset
    "cuda_sync", // Sync
    "cuda_runtime", // RuntimeApi
    "cuda_driver", // DriverApi
    "nvtx_range", // NvtxRange
    "nvtx_mark", // NvtxMark
    "cpu_op", // CpuOp
    "python_function", // PythonFunction
    "user_annotation", // UserAnnotation
    "gpu_user_annotation", // GpuUserAnnotation
    "overhead", // Overhead
    "other", // Other
};

struct CategoryAlias {
    std::string_view category;
    EventKind kind;
};

// Names other producers use for the same kinds: Kineto before 2022 (`Memcpy`, `Runtime`, `Operator`, ...;
// its `Kernel` and `Overhead` differ from today's names only in case), Kineto's PrivateUse1 backends, and
// NVTX ranges as other converters name them.
constexpr std::array<CategoryAlias, 8> kAliases = { {
    { "Memcpy", EventKind::Memcpy },
    { "Memset", EventKind::Memset },
    { "Runtime", EventKind::RuntimeApi },
    { "privateuse1_runtime", EventKind::RuntimeApi },
    { "Driver", EventKind::DriverApi },
    { "privateuse1_driver", EventKind::DriverApi },
    { "Operator", EventKind::CpuOp },
    { "nvtx", EventKind::NvtxRange },
} };

constexpr char lowerAscii(char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

constexpr bool equalsIgnoringAsciiCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (lowerAscii(a[i]) != lowerAscii(b[i]))
            return false;
    }
    return true;
}

} // namespace

std::string_view categoryForKind(EventKind kind)
{
    const auto index = static_cast<std::size_t>(kind);
    return index < kWrittenCategory.size() ? kWrittenCategory[index] : std::string_view("other");
}

EventKind kindFromCategory(std::string_view category)
{
    // Exact matches first: the common case for files Kineto or we wrote.
    for (std::size_t i = 0; i < kWrittenCategory.size(); ++i) {
        if (kWrittenCategory[i] == category)
            return static_cast<EventKind>(i);
    }
    for (std::size_t i = 0; i < kWrittenCategory.size(); ++i) {
        if (equalsIgnoringAsciiCase(kWrittenCategory[i], category))
            return static_cast<EventKind>(i);
    }
    for (const CategoryAlias& alias : kAliases) {
        if (equalsIgnoringAsciiCase(alias.category, category))
            return alias.kind;
    }
    return EventKind::Other;
}

} // namespace gapscope
