// SPDX-License-Identifier: MIT
#include "capture/cupti/completed_buffer_reader.h"

namespace gapscope::capture {

CompletedBufferReader::CompletedBufferReader(ActivityBufferPool& pool, CuptiTranslator& translator)
    : m_pool(pool)
    , m_translator(translator)
{ }

CompletedBufferReader::Completion CompletedBufferReader::complete(
    std::uint8_t* buffer, std::size_t validSize, bool reading, std::int64_t startedNs, std::int64_t nowNs)
{
    Completion completion;
    if (!reading) {
        if (m_pool.release(buffer))
            completion.outcome = Outcome::ReleasedLate;
        return completion;
    }
    // Still handed out during the walk: refill() cannot zero it, take() cannot hand it to CUPTI again.
    if (!m_pool.owns(buffer))
        return completion;
    if (validSize > 0)
        completion.walk = m_translator.translateBuffer(buffer, validSize, startedNs, nowNs);
    if (m_pool.giveBack(buffer))
        completion.outcome = Outcome::Read;
    return completion;
}

} // namespace gapscope::capture
