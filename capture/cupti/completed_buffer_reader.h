// SPDX-License-Identifier: MIT
#pragma once

#include "capture/cupti/activity_buffer_pool.h"
#include "capture/cupti/cupti_translator.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace gapscope::capture {

/// What the collector's CUPTI buffer-completed callback does with a buffer (docs/collector.md).
///
/// CUPTI completes buffers on a thread of its own while the flush thread zeroes and hands out the
/// spares (ActivityBufferPool::refill) and the program's threads ask for new ones: a buffer goes
/// back to the pool only after its walk, so it cannot be zeroed or handed out again while it is
/// being read. Buffers the pool did not hand out (another CUPTI client's) are left alone. A buffer
/// completed after the collector stopped reading (its file closed at exit) is freed and counted.
///
/// Thread-safe: CUPTI may complete buffers on several threads at once.
class CompletedBufferReader {
public:
    CompletedBufferReader(ActivityBufferPool& pool, CuptiTranslator& translator);

    enum class Outcome {
        NotOurs, // another client's buffer: untouched
        Read, // walked, translated, given back to the pool
        ReleasedLate, // completed after reading stopped: freed, counted
    };
    struct Completion {
        Outcome outcome = Outcome::NotOurs;
        CuptiTranslator::BufferResult walk;
    };
    /// `reading` is false once the collector's writer is closed. `startedNs`, `nowNs`: see
    /// CuptiTranslator::translateBuffer.
    Completion complete(
        std::uint8_t* buffer, std::size_t validSize, bool reading, std::int64_t startedNs = 0, std::int64_t nowNs = 0);

private:
    ActivityBufferPool& m_pool;
    CuptiTranslator& m_translator;
};

} // namespace gapscope::capture
