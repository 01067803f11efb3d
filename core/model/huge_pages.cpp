// SPDX-License-Identifier: MIT
#include "core/model/huge_pages.h"

#include <cstdlib>
#include <new>

#include <sys/mman.h>

namespace gapscope {

void* allocateHugePageBuffer(std::size_t bytes)
{
    constexpr std::size_t kPage = 4096;
    const std::size_t whole = (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
    // Rounded up to a whole huge page where the padding is small; otherwise the tail stays on 4 KiB pages.
    const std::size_t rounded = whole - bytes <= bytes / 4 ? whole : (bytes + kPage - 1) & ~(kPage - 1);
    void* data = nullptr;
    if (::posix_memalign(&data, kHugePageBytes, rounded) != 0)
        throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    const std::size_t advised = rounded & ~(kHugePageBytes - 1);
    if (advised > 0)
        ::madvise(data, advised, MADV_HUGEPAGE);
#endif
#ifdef MADV_NOHUGEPAGE
    // The allocator may hand out memory that an earlier buffer advised (a freed chunk reused from the heap): the
    // tail is said to stay on small pages, so say it, rather than inherit whatever advice that memory had.
    if (advised < rounded)
        ::madvise(static_cast<char*>(data) + advised, rounded - advised, MADV_NOHUGEPAGE);
#endif
    return data;
}

void freeHugePageBuffer(void* data)
{
    std::free(data);
}

} // namespace gapscope
