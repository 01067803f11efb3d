// SPDX-License-Identifier: MIT
#pragma once

// Asking the kernel for transparent huge pages on large fresh buffers (lanes being loaded, the gap list of
// an analysis): faulting hundreds of MB in 4 KiB at a time costs more than writing them.

#include <cstddef>
#include <cstdint>

#include <sys/mman.h>

namespace gapscope {

/// A hint for the whole 2 MiB pages inside [data, data + bytes); ignored where unsupported. Call it on
/// memory not yet touched (a reserve()d vector's capacity), before writing to it.
inline void adviseHugePages(void* data, std::size_t bytes)
{
#ifdef MADV_HUGEPAGE
    constexpr std::uintptr_t kHuge = 2u << 20;
    if (bytes < 4 * kHuge)
        return;
    const auto begin = (reinterpret_cast<std::uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kHuge - 1);
    if (end > begin)
        ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

} // namespace gapscope
