// SPDX-License-Identifier: MIT
#include "core/io/chrome/event_pipeline.h"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <utility>

namespace gapscope::chrome {

EventPipeline::EventPipeline(ChromeEventMapper& mapper)
    : m_mapper(mapper)
{ }

EventPipeline::~EventPipeline()
{
    if (m_thread.joinable()) {
        {
            std::lock_guard lock(m_mutex);
            m_closing = true;
        }
        m_changed.notify_all();
        m_thread.join();
    }
    for (const Batch& batch : m_queue)
        std::free(batch.buffer);
    for (const Buffer& buffer : m_freeBuffers)
        std::free(buffer.data);
}

void EventPipeline::start()
{
    m_closing = false;
    m_thread = std::thread([this] { run(); });
}

ParsedEvent& EventPipeline::slot()
{
    if (m_current.count == m_current.events.size()) {
        // A fresh batch gets room for as many events as the largest batch so far held: grown from nothing, each of
        // the first batches copied its events to fresh pages about twice (perf: a fifth of a 55 MB report's time).
        if (m_current.events.empty() && m_largestBatch > 0) {
            m_current.events.reserve(m_largestBatch);
            m_current.offsets.reserve(m_largestBatch);
        }
        m_current.events.emplace_back();
        m_current.offsets.emplace_back();
    }
    return m_current.events[m_current.count];
}

void EventPipeline::commit(std::uint64_t offset)
{
    m_current.offsets[m_current.count] = offset;
    ++m_current.count;
}

EventPipeline::Batch EventPipeline::takeBatch()
{
    // Called with m_mutex held.
    if (m_spareBatches.empty())
        return Batch {};
    Batch batch = std::move(m_spareBatches.back());
    m_spareBatches.pop_back();
    return batch;
}

EventPipeline::Batch EventPipeline::submit(Batch&& batch)
{
    Batch spare;
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(batch));
        ++m_unmapped;
        spare = takeBatch();
    }
    m_changed.notify_all();
    return spare;
}

void EventPipeline::finish()
{
    if (!m_thread.joinable())
        return;
    if (m_current.count > 0) {
        // The window still reads this buffer: the mapping thread maps its events and leaves it alone.
        Batch batch = std::move(m_current);
        batch.buffer = nullptr;
        m_current = submit(std::move(batch));
    }
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_unmapped == 0; });
        m_closing = true;
    }
    m_changed.notify_all();
    m_thread.join();
    if (m_failure)
        std::rethrow_exception(std::exchange(m_failure, nullptr));
}

char* EventPipeline::take(std::size_t bytes, std::size_t& capacity)
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        for (std::size_t i = 0; i < m_freeBuffers.size(); ++i) {
            if (m_freeBuffers[i].capacity >= bytes) {
                const Buffer buffer = m_freeBuffers[i];
                m_freeBuffers.erase(m_freeBuffers.begin() + static_cast<std::ptrdiff_t>(i));
                capacity = buffer.capacity;
                return buffer.data;
            }
        }
        if (!m_freeBuffers.empty()) { // too small for a window that grew: make room for a larger one
            std::free(m_freeBuffers.back().data);
            m_freeBuffers.pop_back();
            --m_buffers;
        }
        if (m_buffers < kMaxBuffers)
            break;
        m_changed.wait(lock, [&] { return !m_freeBuffers.empty(); });
    }
    ++m_buffers;
    lock.unlock();
    char* data = static_cast<char*>(std::malloc(bytes));
    if (!data) {
        std::lock_guard relock(m_mutex);
        --m_buffers;
        throw std::bad_alloc();
    }
    capacity = bytes;
    return data;
}

void EventPipeline::retire(char* data, std::size_t capacity)
{
    if (!m_thread.joinable() || m_current.count == 0) {
        // No event points into it: free for the next take().
        {
            std::lock_guard lock(m_mutex);
            m_freeBuffers.push_back(Buffer { data, capacity });
        }
        m_changed.notify_all();
        return;
    }
    m_largestBatch = std::max(m_largestBatch, m_current.count);
    Batch batch = std::move(m_current);
    batch.buffer = data;
    batch.capacity = capacity;
    m_current = submit(std::move(batch));
}

void EventPipeline::run()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_changed.wait(lock, [&] { return !m_queue.empty() || m_closing; });
        if (m_queue.empty())
            return;
        Batch batch = std::move(m_queue.front());
        m_queue.pop_front();
        lock.unlock();
        if (!m_failure) {
            try {
                for (std::size_t i = 0; i < batch.count; ++i)
                    m_mapper.map(batch.events[i], batch.offsets[i]);
            } catch (...) {
                m_failure = std::current_exception();
            }
        }
        lock.lock();
        if (batch.buffer)
            m_freeBuffers.push_back(Buffer { batch.buffer, batch.capacity });
        batch.buffer = nullptr;
        batch.count = 0;
        m_spareBatches.push_back(std::move(batch));
        --m_unmapped;
        m_changed.notify_all();
    }
}

} // namespace gapscope::chrome
