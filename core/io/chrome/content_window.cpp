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

ContentWindow::ContentWindow(ContentSource& source, std::size_t capacity, std::stop_token stop)
    : m_source(source)
    , m_stop(std::move(stop))
{
    resize(std::max<std::size_t>(capacity, 16));
}

ContentWindow::~ContentWindow()
{
    std::free(m_data);
}

std::optional<IoError> ContentWindow::refill(const char*& keep)
{
    if (m_stop.stop_requested())
        return IoError { {}, offsetOf(keep), "canceled" };
    const auto kept = static_cast<std::size_t>(end() - keep);
    const auto dropped = static_cast<std::size_t>(keep - m_data);
    if (dropped > 0) {
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
