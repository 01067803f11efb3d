// SPDX-License-Identifier: MIT
#pragma once

// Asking the kernel for transparent huge pages on large fresh buffers (lanes being loaded, the gap list of
// an analysis): faulting hundreds of MB in 4 KiB at a time costs more than writing them. Measured
// (docs/performance.md): gap lists on 2 MiB boundaries take a 10 M-event analysis from ~3,600 to ~120 page faults; the
// nsys import's lanes from 49 k to 13 k page faults per import, and with every lane buffer, maxEndPrefix and
// correlation table from 2 MiB up on a 2 MiB boundary (HugePageVector) to about 40: TraceBuilder::finish() of those 4 M
// events 96 -> 29 ms. The system calls stay in huge_pages.cpp, so that users of this header (every user of analysis.h)
// do not get <sys/mman.h>.

#include <cstddef>
#include <vector>

namespace gapscope {

inline constexpr std::size_t kHugePageBytes = std::size_t { 2 } << 20;
/// ArgsTable's blocks go on huge pages from this size up.
inline constexpr std::size_t kHugePagesFrom = 4 * kHugePageBytes;

/// `bytes` (at least kHugePageBytes) starting on a 2 MiB boundary and advised to be huge pages: the whole huge
/// pages it holds, and the last, partial one too where its padding is at most a quarter of `bytes` (so that a
/// buffer never takes more than 1.25 times its size in memory); throws std::bad_alloc when there is no memory.
/// Freed with freeHugePageBuffer().
void* allocateHugePageBuffer(std::size_t bytes);
void freeHugePageBuffer(void* data);

/// An allocator for large buffers filled soon after they are made (a lane's events and its maxEndPrefix, the
/// gap lists of an analysis): from 2 MiB up, a buffer starts on a 2 MiB boundary and is advised to be huge
/// pages (allocateHugePageBuffer), so that the pages it touches are huge pages, not only the whole ones inside
/// (a buffer from operator new starts with up to 2 MiB of 4 KiB pages, each a fault of its own: 13 us each in
/// the VMs CI runs on, against 0.3 us per KiB on huge pages); smaller ones come from operator new.
template <typename T> struct HugePageAllocator {
    using value_type = T;

    HugePageAllocator() = default;
    template <typename U> HugePageAllocator(const HugePageAllocator<U>&) { }

    T* allocate(std::size_t n)
    {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kHugePageBytes)
            return static_cast<T*>(::operator new(bytes));
        return static_cast<T*>(allocateHugePageBuffer(bytes));
    }
    void deallocate(T* data, std::size_t n)
    {
        if (n * sizeof(T) < kHugePageBytes)
            ::operator delete(data);
        else
            freeHugePageBuffer(data);
    }
    template <typename U> bool operator==(const HugePageAllocator<U>&) const { return true; }
};

/// A vector whose buffers of 2 MiB and more are on huge pages.
template <typename T> using HugePageVector = std::vector<T, HugePageAllocator<T>>;

} // namespace gapscope
