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
/// - A completed buffer stays handed out while it is read (owns() says it is ours); only giveBack()
///   after the walk lets refill() zero it and take() hand it out again.
/// - refill() keeps as many spares as the last interval took (at least `spares`, at most
///   `maxSpares`): a program that fills ten buffers between two flushes finds ten ready, instead of
///   allocating and zeroing 2 MB on its launching thread (zeroedOnCaller() counts those).
/// - requested() and completed() tell whether CUPTI returns what it was given.
///
/// Thread-safe: CUPTI asks for buffers on the program's threads and completes them on its own.
class ActivityBufferPool {
public:
    /// `maxSpares` below `spares` (the default): always `spares`.
    ActivityBufferPool(std::size_t bufferSize, std::size_t spares, std::size_t maxSpares = 0);
    ~ActivityBufferPool();
    ActivityBufferPool(const ActivityBufferPool&) = delete;
    ActivityBufferPool& operator=(const ActivityBufferPool&) = delete;

    /// A zeroed buffer of bufferSize() bytes, or nullptr when memory ran out (CUPTI then drops
    /// records and counts them).
    std::uint8_t* take();
    /// True when this pool handed `buffer` out and it has not been given back or released yet.
    bool owns(const std::uint8_t* buffer) const;
    /// Takes a completed buffer back, once it has been read. False, and nothing done, when this pool
    /// did not hand it out.
    bool giveBack(std::uint8_t* buffer);
    /// Frees a buffer completed after the collector stopped reading (its writer closed), and counts
    /// it. False, and nothing done, when this pool did not hand it out.
    bool release(std::uint8_t* buffer);
    /// Zeroes the buffers given back and allocates until spareTarget() zeroed buffers are ready;
    /// frees the given-back ones beyond that, and the ready ones beyond it once more than twice that
    /// lie unused. Meant for the flush thread.
    void refill();
    /// The spares the next refill() prepares: what was taken since the previous one, bounded by
    /// [spares, maxSpares].
    std::size_t spareTarget() const;

    std::size_t bufferSize() const { return m_bufferSize; }
    /// Buffers handed out and not given back yet.
    std::size_t outstanding() const;
    std::uint64_t requested() const { return m_requested.load(std::memory_order_relaxed); }
    std::uint64_t completed() const { return m_completed.load(std::memory_order_relaxed); }
    /// Buffers that take() had to allocate and zero on the caller's thread (no spare was ready).
    std::uint64_t zeroedOnCaller() const { return m_zeroedOnCaller.load(std::memory_order_relaxed); }
    /// Buffers freed by release(): completed after the writer closed.
    std::uint64_t releasedLate() const { return m_releasedLate.load(std::memory_order_relaxed); }
    /// Zeroed buffers ready to be handed out.
    std::size_t ready() const;

private:
    std::uint8_t* allocate();

    const std::size_t m_bufferSize;
    const std::size_t m_spares;
    const std::size_t m_maxSpares;
    mutable std::mutex m_mutex;
    std::vector<std::uint8_t*> m_clean;
    std::vector<std::uint8_t*> m_dirty;
    std::unordered_set<std::uint8_t*> m_handedOut;
    std::atomic<std::uint64_t> m_requested { 0 };
    std::atomic<std::uint64_t> m_completed { 0 };
    std::atomic<std::uint64_t> m_zeroedOnCaller { 0 };
    std::atomic<std::uint64_t> m_releasedLate { 0 };
    /// take() calls since the last refill(): the demand the next spares are sized for.
    std::atomic<std::uint64_t> m_takenSinceRefill { 0 };
};

} // namespace gapscope::capture
