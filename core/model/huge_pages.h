// SPDX-License-Identifier: MIT
#pragma once

// Asking the kernel for transparent huge pages on large fresh buffers (lanes being loaded, the gap list of
// an analysis): faulting hundreds of MB in 4 KiB at a time costs more than writing them. Measured (4b53eb5,
// docs/performance.md): gap lists on 2 MiB boundaries take a 10 M-event analysis from ~3,600 to ~120 page
// faults; the nsys import's lanes (d472b08) from 49 k to 13 k page faults per import. The system calls stay in
// huge_pages.cpp, so that users of this header (every user of analysis.h) do not get <sys/mman.h>.

#include <cstddef>

namespace gapscope {

inline constexpr std::size_t kHugePageBytes = std::size_t { 2 } << 20;
/// Smaller buffers are not worth the advice.
inline constexpr std::size_t kHugePagesFrom = 4 * kHugePageBytes;

/// A hint for the whole 2 MiB pages inside [data, data + bytes); ignored where unsupported or below
/// kHugePagesFrom. Call it on memory not yet touched (a reserve()d vector's capacity), before writing to it.
void adviseHugePages(void* data, std::size_t bytes);

/// `bytes` (at least kHugePagesFrom) starting on a 2 MiB boundary, rounded up to whole huge pages and advised
/// to be huge pages; throws std::bad_alloc when there is no memory. Freed with freeHugePageBuffer().
void* allocateHugePageBuffer(std::size_t bytes);
void freeHugePageBuffer(void* data);

/// An allocator for large buffers filled soon after they are made (the gap lists of an analysis): from
/// 8 MiB up, a buffer starts on a 2 MiB boundary and is advised to be huge pages, so that every page of it
/// it touches is a huge page, not only the whole ones inside (a 15 MB buffer otherwise starts with ~1 MB of
/// 4 KiB pages, each a fault of its own); smaller ones come from operator new.
template <typename T> struct HugePageAllocator {
    using value_type = T;

    HugePageAllocator() = default;
    template <typename U> HugePageAllocator(const HugePageAllocator<U>&) { }

    T* allocate(std::size_t n)
    {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kHugePagesFrom)
            return static_cast<T*>(::operator new(bytes));
        return static_cast<T*>(allocateHugePageBuffer(bytes));
    }
    void deallocate(T* data, std::size_t n)
    {
        if (n * sizeof(T) < kHugePagesFrom)
            ::operator delete(data);
        else
            freeHugePageBuffer(data);
    }
    template <typename U> bool operator==(const HugePageAllocator<U>&) const { return true; }
};

} // namespace gapscope
