// SPDX-License-Identifier: MIT
#pragma once

// Asking the kernel for transparent huge pages on large fresh buffers (lanes being loaded, the gap list of
// an analysis): faulting hundreds of MB in 4 KiB at a time costs more than writing them.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#include <sys/mman.h>

namespace gapscope {

inline constexpr std::size_t kHugePageBytes = std::size_t { 2 } << 20;
/// Smaller buffers are not worth the advice.
inline constexpr std::size_t kHugePagesFrom = 4 * kHugePageBytes;

/// A hint for the whole 2 MiB pages inside [data, data + bytes); ignored where unsupported. Call it on
/// memory not yet touched (a reserve()d vector's capacity), before writing to it.
inline void adviseHugePages(void* data, std::size_t bytes)
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
        const std::size_t rounded = (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
        void* data = std::aligned_alloc(kHugePageBytes, rounded);
        if (!data)
            throw std::bad_alloc();
        adviseHugePages(data, rounded);
        return static_cast<T*>(data);
    }
    void deallocate(T* data, std::size_t n)
    {
        if (n * sizeof(T) < kHugePagesFrom)
            ::operator delete(data);
        else
            std::free(data);
    }
    template <typename U> bool operator==(const HugePageAllocator<U>&) const { return true; }
};

} // namespace gapscope
