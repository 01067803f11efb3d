// SPDX-License-Identifier: MIT
#include "core/model/huge_pages.h"

#include <cstdint>
#include <cstdlib>
#include <new>

#include <sys/mman.h>

namespace gapscope {

void adviseHugePages(void* data, std::size_t bytes)
{
#ifdef MADV_HUGEPAGE
    constexpr std::uintptr_t kHuge = kHugePageBytes;
    if (bytes < kHugePagesFrom)
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

void* allocateHugePageBuffer(std::size_t bytes)
{
    const std::size_t rounded = (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
    void* data = std::aligned_alloc(kHugePageBytes, rounded);
    if (!data)
        throw std::bad_alloc();
    adviseHugePages(data, rounded);
    return data;
}

void freeHugePageBuffer(void* data)
{
    std::free(data);
}

} // namespace gapscope
