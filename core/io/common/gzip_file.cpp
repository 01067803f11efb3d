// SPDX-License-Identifier: MIT
#include "core/io/common/gzip_file.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace gapscope {

namespace {
constexpr std::size_t kInputChunk = 1 << 20;
constexpr unsigned char kGzipMagic0 = 0x1f;
constexpr unsigned char kGzipMagic1 = 0x8b;
} // namespace

struct GzipFileReader::Inflater {
    z_stream stream {};
    bool initialised = false;
    bool memberOpen = false; // inside a member: its trailer has not been read yet

    ~Inflater()
    {
        if (initialised)
            inflateEnd(&stream);
    }
};

GzipFileReader::GzipFileReader() = default;

GzipFileReader::~GzipFileReader()
{
    if (m_file)
        std::fclose(m_file);
}

IoError GzipFileReader::error(std::string message) const
{
    return IoError { m_path, m_contentOffset, std::move(message) };
}

std::optional<IoError> GzipFileReader::open(const std::string& path)
{
    m_path = path;
    m_file = std::fopen(path.c_str(), "rb");
    if (!m_file)
        return IoError { path, std::nullopt, "cannot open: " + std::generic_category().message(errno) };
    if (std::fseek(m_file, 0, SEEK_END) == 0) {
        const long size = std::ftell(m_file);
        m_fileSize = size > 0 ? static_cast<std::uint64_t>(size) : 0;
        std::fseek(m_file, 0, SEEK_SET);
    }
    // Sniff by content: a renamed or extension-less gzip file still inflates.
    m_input.reserve(kInputChunk);
    if (!refillInput() && std::ferror(m_file))
        return IoError { path, std::nullopt, "cannot read: " + std::generic_category().message(errno) };
    m_compressed = m_input.size() >= 2 && m_input[0] == kGzipMagic0 && m_input[1] == kGzipMagic1;
    if (m_compressed) {
        m_inflater = std::make_unique<Inflater>();
        // 16 + MAX_WBITS: a gzip wrapper (header, CRC-32 and length checked by zlib), no zlib wrapper.
        if (inflateInit2(&m_inflater->stream, 16 + MAX_WBITS) != Z_OK)
            return IoError { path, std::nullopt, "cannot initialise zlib" };
        m_inflater->initialised = true;
        m_inflater->memberOpen = true;
    }
    return std::nullopt;
}

bool GzipFileReader::refillInput()
{
    // Drops the consumed prefix and appends, so a partially consumed buffer keeps its bytes. This runs once
    // per input chunk, not per read() call: reads of a few bytes stay cheap.
    if (m_inputEof)
        return false;
    m_input.erase(m_input.begin(), m_input.begin() + static_cast<std::ptrdiff_t>(m_inputPos));
    m_inputPos = 0;
    const std::size_t old = m_input.size();
    m_input.resize(old + kInputChunk);
    const std::size_t got = std::fread(m_input.data() + old, 1, kInputChunk, m_file);
    m_input.resize(old + got);
    if (got < kInputChunk)
        m_inputEof = true;
    return got > 0;
}

IoResult<std::size_t> GzipFileReader::read(char* destination, std::size_t size)
{
    if (!m_file)
        return error("file is not open");
    auto result = m_compressed ? readInflated(destination, size) : readRaw(destination, size);
    if (result)
        m_contentOffset += result.value();
    return result;
}

IoResult<std::size_t> GzipFileReader::readRaw(char* destination, std::size_t size)
{
    std::size_t done = 0;
    // Bytes sniffed by open() first.
    if (m_inputPos < m_input.size()) {
        done = std::min(size, m_input.size() - m_inputPos);
        std::memcpy(destination, m_input.data() + m_inputPos, done);
        m_inputPos += done;
    }
    if (done < size && m_inputPos == m_input.size() && !m_inputEof) {
        const std::size_t got = std::fread(destination + done, 1, size - done, m_file);
        if (got < size - done) {
            if (std::ferror(m_file))
                return error("cannot read: " + std::generic_category().message(errno));
            m_inputEof = true;
        }
        done += got;
    }
    return done;
}

IoResult<std::size_t> GzipFileReader::readInflated(char* destination, std::size_t size)
{
    if (m_truncated)
        return *m_truncated;
    if (m_contentEnd || size == 0)
        return std::size_t { 0 };
    z_stream& zs = m_inflater->stream;
    zs.next_out = reinterpret_cast<Bytef*>(destination);
    zs.avail_out = static_cast<uInt>(std::min<std::size_t>(size, 1u << 30));
    const uInt wanted = zs.avail_out;
    const auto available = [this] { return m_input.size() - m_inputPos; };
    while (zs.avail_out > 0) {
        if (available() == 0 && !refillInput()) {
            if (std::ferror(m_file))
                return error("cannot read: " + std::generic_category().message(errno));
            if (m_inflater->memberOpen) {
                // The bytes inflated so far are content: hand them out, and the truncation on the next read.
                const std::size_t produced = wanted - zs.avail_out;
                IoError truncated { m_path, m_contentOffset + produced,
                    "the gzip stream is truncated: the file ends after " + std::to_string(m_fileSize)
                        + " compressed bytes, inside a member" };
                if (produced == 0)
                    return truncated;
                m_truncated = std::move(truncated);
                return produced;
            }
            m_contentEnd = true;
            break;
        }
        if (!m_inflater->memberOpen) {
            // Between members: another member starts with the magic bytes; anything else (zero padding
            // some tools append) ends the content, as gzip(1) treats trailing garbage.
            if (available() < 2 && !m_inputEof) {
                refillInput();
                continue;
            }
            if (available() >= 2 && m_input[m_inputPos] == kGzipMagic0 && m_input[m_inputPos + 1] == kGzipMagic1) {
                inflateReset(&zs);
                m_inflater->memberOpen = true;
            } else {
                m_contentEnd = true;
                break;
            }
        }
        zs.next_in = m_input.data() + m_inputPos;
        zs.avail_in = static_cast<uInt>(std::min<std::size_t>(available(), 1u << 30));
        const uInt availIn = zs.avail_in;
        const int rc = inflate(&zs, Z_NO_FLUSH);
        m_inputPos += availIn - zs.avail_in;
        m_compressedConsumed += availIn - zs.avail_in;
        if (rc == Z_STREAM_END) {
            m_inflater->memberOpen = false;
            continue;
        }
        // Z_BUF_ERROR: no progress with this input; more is read at the top of the loop.
        if (rc == Z_OK || rc == Z_BUF_ERROR)
            continue;
        const std::size_t produced = wanted - zs.avail_out;
        const char* detail = zs.msg ? zs.msg : "unknown zlib error";
        return IoError { m_path, m_contentOffset + produced,
            std::string("corrupt gzip data after ") + std::to_string(m_compressedConsumed)
                + " compressed bytes: " + detail };
    }
    return static_cast<std::size_t>(wanted - zs.avail_out);
}

IoResult<std::string> readFileContent(const std::string& path)
{
    GzipFileReader reader;
    if (auto failed = reader.open(path))
        return *failed;
    std::string content;
    std::size_t used = 0;
    for (;;) {
        if (content.size() - used < (1u << 20))
            content.resize(std::max<std::size_t>(content.size() * 2, used + (1u << 20)));
        auto got = reader.read(content.data() + used, content.size() - used);
        if (!got)
            return got.error();
        if (got.value() == 0)
            break;
        used += got.value();
    }
    content.resize(used);
    return content;
}

} // namespace gapscope
