// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/common/io_error.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string_view>

namespace gapscope {

class GzipFileReader;

/// Where a reader's content comes from: a file (maybe gzip), or memory.
class ContentSource {
public:
    virtual ~ContentSource() = default;
    /// Copies up to `size` bytes into `destination`; 0 only at the end of the content.
    virtual IoResult<std::size_t> read(char* destination, std::size_t size) = 0;
};

class FileContentSource final : public ContentSource {
public:
    explicit FileContentSource(GzipFileReader& file)
        : m_file(file)
    { }
    IoResult<std::size_t> read(char* destination, std::size_t size) override;

private:
    GzipFileReader& m_file;
};

class MemoryContentSource final : public ContentSource {
public:
    explicit MemoryContentSource(std::string_view content)
        : m_content(content)
    { }
    IoResult<std::size_t> read(char* destination, std::size_t size) override;

private:
    std::string_view m_content;
    std::size_t m_pos = 0;
};

/// Where a ContentWindow takes its buffers from, when what was parsed from a buffer must stay readable after
/// the window moved on (ChromeJsonImporter maps events on another thread: core/io/chrome/event_pipeline.h).
/// Without a pool the window slides its content inside one buffer.
class WindowBufferPool {
public:
    virtual ~WindowBufferPool() = default;
    /// A buffer of at least `bytes`; `capacity` receives its size.
    virtual char* take(std::size_t bytes, std::size_t& capacity) = 0;
    /// The window no longer uses `data` (taken with take()); the pool may reuse it once nothing reads it.
    virtual void retire(char* data, std::size_t capacity) = 0;
};

/// A sliding window over a source's content, always followed by json::kPadding NUL bytes, so that a parser
/// can run without bounds checks. Streaming keeps memory at the window's size whatever the file's: the
/// parser holds pointers into the window only while it parses one item (an event, a top-level key...); an
/// item that runs past the end of the window is parsed again from its start after refill() slid it.
class ContentWindow {
public:
    /// `stop`: checked at each refill(), which then fails with "canceled" (a viewer's Cancel stops a large
    /// file within one window of content).
    /// `pool`: where buffers come from (it must outlive the window); refill() then moves the kept bytes to a
    /// fresh buffer and retires the old one instead of sliding them inside it.
    ContentWindow(
        ContentSource& source, std::size_t capacity, std::stop_token stop = {}, WindowBufferPool* pool = nullptr);
    ~ContentWindow();
    ContentWindow(const ContentWindow&) = delete;
    ContentWindow& operator=(const ContentWindow&) = delete;

    const char* begin() const { return m_data; }
    /// One past the last byte read so far (the NUL padding starts here).
    const char* end() const { return m_data + m_size; }
    /// True once the source has no more content: end() is the end of the content.
    bool eof() const { return m_eof; }
    /// The source failed after handing out content (a gzip stream cut short): the window holds what came
    /// before, eof() is true, and this is why the content ended.
    const std::optional<IoError>& endError() const { return m_endError; }
    /// Offset of a window position in the whole content.
    std::uint64_t offsetOf(const char* p) const { return m_base + static_cast<std::uint64_t>(p - m_data); }
    std::uint64_t contentEnd() const { return m_base + m_size; }

    /// Keeps [keep, end()), moves it to the front and reads more content after it; doubles the window when
    /// `keep` is the front of a full window already. `keep` is updated. An error when the source fails.
    std::optional<IoError> refill(const char*& keep);

private:
    void resize(std::size_t capacity);
    /// With a pool: moves [keep, end()) to the front of a fresh buffer of `capacity` and retires the old one.
    void moveToFreshBuffer(const char* keep, std::size_t capacity);

    ContentSource& m_source;
    std::stop_token m_stop;
    WindowBufferPool* m_pool = nullptr;
    std::size_t m_taken = 0; // with a pool: the size of the buffer it gave
    char* m_data = nullptr;
    std::size_t m_capacity = 0;
    std::size_t m_size = 0;
    std::uint64_t m_base = 0;
    bool m_eof = false;
    std::optional<IoError> m_endError;
};

} // namespace gapscope
