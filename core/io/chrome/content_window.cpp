// SPDX-License-Identifier: MIT
#include "core/io/chrome/content_window.h"

#include "core/io/chrome/json_scanner.h"
#include "core/io/common/gzip_file.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace gapscope {

IoResult<std::size_t> FileContentSource::read(char* destination, std::size_t size)
{
    return m_file.read(destination, size);
}

IoResult<std::size_t> MemoryContentSource::read(char* destination, std::size_t size)
{
    const std::size_t n = std::min(size, m_content.size() - m_pos);
    std::memcpy(destination, m_content.data() + m_pos, n);
    m_pos += n;
    return n;
}

ContentWindow::ContentWindow(ContentSource& source, std::size_t capacity, std::stop_token stop, WindowBufferPool* pool)
    : m_source(source)
    , m_stop(std::move(stop))
    , m_pool(pool)
{
    capacity = std::max<std::size_t>(capacity, 16);
    if (m_pool) {
        moveToFreshBuffer(nullptr, capacity);
        std::memset(m_data, 0, json::kPadding);
    } else {
        resize(capacity);
    }
}

ContentWindow::~ContentWindow()
{
    if (m_pool)
        m_pool->retire(m_data, m_taken);
    else
        std::free(m_data);
}

void ContentWindow::moveToFreshBuffer(const char* keep, std::size_t capacity)
{
    std::size_t taken = 0;
    char* fresh = m_pool->take(capacity + json::kPadding, taken);
    const auto kept = keep ? static_cast<std::size_t>(end() - keep) : 0;
    if (kept > 0)
        std::memcpy(fresh, keep, kept);
    if (keep)
        m_base += static_cast<std::uint64_t>(keep - m_data);
    char* old = m_data;
    const std::size_t oldTaken = m_taken;
    m_data = fresh;
    m_taken = taken;
    m_capacity = capacity; // not the buffer's size: the window grows as it would without a pool
    m_size = kept;
    if (old)
        m_pool->retire(old, oldTaken);
}

std::optional<IoError> ContentWindow::refill(const char*& keep)
{
    if (m_stop.stop_requested())
        return IoError { {}, offsetOf(keep), "canceled" };
    const auto kept = static_cast<std::size_t>(end() - keep);
    const auto dropped = static_cast<std::size_t>(keep - m_data);
    if (m_pool) {
        // What was parsed from the old buffer stays readable: the kept bytes go to a fresh one.
        if (dropped > 0 || kept == m_capacity)
            moveToFreshBuffer(keep, dropped == 0 ? m_capacity * 2 : m_capacity);
    } else if (dropped > 0) {
        std::memmove(m_data, keep, kept);
        m_base += dropped;
    } else if (kept == m_capacity) {
        resize(m_capacity * 2);
    }
    m_size = kept;
    while (m_size < m_capacity && !m_eof) {
        auto got = m_source.read(m_data + m_size, m_capacity - m_size);
        if (!got) {
            if (m_size == kept)
                return got.error();
            // Content came before the failure: parse it, and let the reader say why it ended.
            m_endError = got.error();
            m_eof = true;
            break;
        }
        if (got.value() == 0)
            m_eof = true;
        m_size += got.value();
    }
    std::memset(m_data + m_size, 0, json::kPadding);
    keep = m_data;
    return std::nullopt;
}

void ContentWindow::resize(std::size_t capacity)
{
    // realloc rather than new[]: growing a large window may then remap pages instead of copying them.
    char* grown = static_cast<char*>(std::realloc(m_data, capacity + json::kPadding));
    if (!grown)
        throw std::bad_alloc(); // as operator new would
    m_data = grown;
    m_capacity = capacity;
    std::memset(m_data + m_size, 0, json::kPadding);
}

} // namespace gapscope
