// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_set>
#include <vector>

namespace gapscope::capture {

/// The activity buffers GapScope hands to CUPTI (docs/collector.md).
///
/// - Buffers are `bufferSize` bytes, 8-byte aligned, and zero when handed out: the collector sets
///   CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, so CUPTI does not zero them itself on the
///   program's thread that asked for a buffer. Zeroing happens in refill(), on the flush thread.
/// - giveBack() takes back only buffers this pool handed out: with another CUPTI client in the
///   process, a completion callback may see buffers somebody else allocated, which are left alone.
/// - requested() and completed() tell whether CUPTI returns what it was given: buffers that never
///   come back after a forced flush mean another client replaced GapScope's buffer callbacks.
///
/// Thread-safe: CUPTI asks for buffers on the program's threads and completes them on its own.
class ActivityBufferPool {
public:
    ActivityBufferPool(std::size_t bufferSize, std::size_t spares);
    ~ActivityBufferPool();
    ActivityBufferPool(const ActivityBufferPool&) = delete;
    ActivityBufferPool& operator=(const ActivityBufferPool&) = delete;

    /// A zeroed buffer of bufferSize() bytes, or nullptr when memory ran out (CUPTI then drops
    /// records and counts them).
    std::uint8_t* take();
    /// Takes a completed buffer back. False, and nothing done, when this pool did not hand it out.
    bool giveBack(std::uint8_t* buffer);
    /// Zeroes the buffers given back and allocates until `spares` zeroed buffers are ready; frees
    /// the ones beyond twice that. Meant for the flush thread.
    void refill();

    std::size_t bufferSize() const { return m_bufferSize; }
    /// Buffers handed out and not given back yet.
    std::size_t outstanding() const;
    std::uint64_t requested() const { return m_requested.load(std::memory_order_relaxed); }
    std::uint64_t completed() const { return m_completed.load(std::memory_order_relaxed); }
    /// Buffers that take() had to allocate and zero on the caller's thread (no spare was ready).
    std::uint64_t zeroedOnCaller() const { return m_zeroedOnCaller.load(std::memory_order_relaxed); }
    /// Zeroed buffers ready to be handed out.
    std::size_t ready() const;

private:
    std::uint8_t* allocate();

    const std::size_t m_bufferSize;
    const std::size_t m_spares;
    mutable std::mutex m_mutex;
    std::vector<std::uint8_t*> m_clean;
    std::vector<std::uint8_t*> m_dirty;
    std::unordered_set<std::uint8_t*> m_handedOut;
    std::atomic<std::uint64_t> m_requested { 0 };
    std::atomic<std::uint64_t> m_completed { 0 };
    std::atomic<std::uint64_t> m_zeroedOnCaller { 0 };
};

} // namespace gapscope::capture
