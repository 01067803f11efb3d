// SPDX-License-Identifier: MIT
#include "capture/cupti/activity_buffer_pool.h"

#include <cstdlib>
#include <cstring>

namespace gapscope::capture {

ActivityBufferPool::ActivityBufferPool(std::size_t bufferSize, std::size_t spares, std::size_t maxSpares)
    : m_bufferSize(bufferSize)
    , m_spares(spares)
    , m_maxSpares(maxSpares > spares ? maxSpares : spares)
{ }

ActivityBufferPool::~ActivityBufferPool()
{
    // Buffers still handed out belong to CUPTI until it completes them: they are not freed here.
    for (std::uint8_t* b : m_clean)
        std::free(b);
    for (std::uint8_t* b : m_dirty)
        std::free(b);
}

std::uint8_t* ActivityBufferPool::allocate()
{
    void* memory = nullptr;
    if (posix_memalign(&memory, 8, m_bufferSize) != 0)
        return nullptr;
    return static_cast<std::uint8_t*>(memory);
}

std::uint8_t* ActivityBufferPool::take()
{
    m_requested.fetch_add(1, std::memory_order_relaxed);
    m_takenSinceRefill.fetch_add(1, std::memory_order_relaxed);
    std::uint8_t* buffer = nullptr;
    {
        std::lock_guard lock(m_mutex);
        if (!m_clean.empty()) {
            buffer = m_clean.back();
            m_clean.pop_back();
            m_handedOut.insert(buffer);
            return buffer;
        }
    }
    buffer = allocate();
    if (!buffer)
        return nullptr;
    std::memset(buffer, 0, m_bufferSize);
    m_zeroedOnCaller.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard lock(m_mutex);
    m_handedOut.insert(buffer);
    return buffer;
}

bool ActivityBufferPool::owns(const std::uint8_t* buffer) const
{
    std::lock_guard lock(m_mutex);
    return m_handedOut.count(const_cast<std::uint8_t*>(buffer)) != 0;
}

bool ActivityBufferPool::release(std::uint8_t* buffer)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_handedOut.erase(buffer) == 0)
            return false;
    }
    m_completed.fetch_add(1, std::memory_order_relaxed);
    m_releasedLate.fetch_add(1, std::memory_order_relaxed);
    std::free(buffer);
    return true;
}

std::size_t ActivityBufferPool::spareTarget() const
{
    const std::uint64_t demand = m_takenSinceRefill.load(std::memory_order_relaxed);
    return demand < m_spares ? m_spares : demand > m_maxSpares ? m_maxSpares : static_cast<std::size_t>(demand);
}

bool ActivityBufferPool::giveBack(std::uint8_t* buffer)
{
    std::lock_guard lock(m_mutex);
    if (m_handedOut.erase(buffer) == 0)
        return false;
    m_completed.fetch_add(1, std::memory_order_relaxed);
    m_dirty.push_back(buffer);
    return true;
}

void ActivityBufferPool::refill()
{
    const std::size_t target = spareTarget();
    m_takenSinceRefill.store(0, std::memory_order_relaxed);
    std::vector<std::uint8_t*> dirty;
    {
        std::lock_guard lock(m_mutex);
        dirty.swap(m_dirty);
    }
    std::vector<std::uint8_t*> surplus;
    for (std::uint8_t* b : dirty)
        std::memset(b, 0, m_bufferSize); // outside the lock: CUPTI may ask for a buffer meanwhile
    {
        std::lock_guard lock(m_mutex);
        for (std::uint8_t* b : dirty) {
            if (m_clean.size() < target)
                m_clean.push_back(b);
            else
                surplus.push_back(b);
        }
        // After a burst, down to what the last interval took once twice that many lie unused.
        if (m_clean.size() > 2 * target) {
            surplus.insert(surplus.end(), m_clean.begin() + static_cast<std::ptrdiff_t>(target), m_clean.end());
            m_clean.resize(target);
        }
    }
    for (std::uint8_t* b : surplus)
        std::free(b);
    for (;;) {
        {
            std::lock_guard lock(m_mutex);
            if (m_clean.size() >= target)
                return;
        }
        std::uint8_t* fresh = allocate();
        if (!fresh)
            return;
        std::memset(fresh, 0, m_bufferSize);
        std::lock_guard lock(m_mutex);
        m_clean.push_back(fresh);
    }
}

std::size_t ActivityBufferPool::outstanding() const
{
    std::lock_guard lock(m_mutex);
    return m_handedOut.size();
}

std::size_t ActivityBufferPool::ready() const
{
    std::lock_guard lock(m_mutex);
    return m_clean.size();
}

} // namespace gapscope::capture
