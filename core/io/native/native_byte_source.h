// SPDX-License-Identifier: MIT
#pragma once

// The bytes NativeTraceReader parses, from memory or from a file read chunk by chunk (an internal
// header of the native reader).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string_view>

namespace gapscope::native {

/// The file's bytes, in order.
class ByteSource {
public:
    virtual ~ByteSource() = default;
    /// The next `count` bytes, or nullptr (consuming nothing) when fewer remain or reading failed.
    virtual const unsigned char* take(std::size_t count) = 0;
    std::uint64_t offset() const { return m_offset; }
    std::uint64_t size() const { return m_size; }
    std::uint64_t remaining() const { return m_size - m_offset; }

protected:
    std::uint64_t m_offset = 0;
    std::uint64_t m_size = 0;
};

class MemorySource final : public ByteSource {
public:
    explicit MemorySource(std::string_view bytes)
        : m_data(reinterpret_cast<const unsigned char*>(bytes.data()))
    {
        m_size = bytes.size();
    }
    const unsigned char* take(std::size_t count) override
    {
        if (count > remaining())
            return nullptr;
        const unsigned char* p = m_data + m_offset;
        m_offset += count;
        return p;
    }

private:
    const unsigned char* m_data;
};

/// Reads chunk by chunk into one reused buffer, so loading never holds the whole file in memory.
class FileSource final : public ByteSource {
public:
    FileSource(std::FILE* file, std::uint64_t size)
        : m_file(file)
    {
        m_size = size;
    }
    ~FileSource() override { std::fclose(m_file); }
    const unsigned char* take(std::size_t count) override
    {
        if (count > remaining())
            return nullptr;
        if (count > m_capacity) {
            m_capacity = std::max<std::size_t>(count, 2 * m_capacity);
            m_buffer = std::make_unique_for_overwrite<unsigned char[]>(m_capacity);
        }
        if (count > 0 && std::fread(m_buffer.get(), 1, count, m_file) != count) {
            m_size = m_offset; // the file shrank or failed underneath us: nothing more to read
            return nullptr;
        }
        m_offset += count;
        return m_buffer.get();
    }

private:
    std::FILE* m_file;
    std::unique_ptr<unsigned char[]> m_buffer;
    std::size_t m_capacity = 0;
};

} // namespace gapscope::native
