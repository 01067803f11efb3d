// SPDX-License-Identifier: MIT
#include "core/io/common/gzip_writer.h"

#include <streambuf>
#include <vector>

#include <zlib.h>

namespace gapscope {

class GzipOutputStream::Buffer : public std::streambuf {
public:
    Buffer(std::ostream& sink, int level)
        : m_sink(sink)
        , m_input(1 << 18)
        , m_output(1 << 18)
    {
        // windowBits 15 + 16 selects the gzip wrapper (header and CRC-32 trailer) instead of zlib's.
        m_ok = deflateInit2(&m_zstream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
        m_initialised = m_ok;
        setp(m_input.data(), m_input.data() + m_input.size());
    }
    ~Buffer() override
    {
        if (m_initialised)
            deflateEnd(&m_zstream);
    }

    bool finish()
    {
        if (m_finished)
            return m_ok;
        m_finished = true;
        m_ok = compress(Z_FINISH) && m_ok;
        m_sink.flush();
        m_ok = m_ok && static_cast<bool>(m_sink);
        setp(nullptr, nullptr); // later writes go to overflow() and fail
        return m_ok;
    }

protected:
    int_type overflow(int_type ch) override
    {
        if (m_finished || !compress(Z_NO_FLUSH))
            return traits_type::eof();
        if (!traits_type::eq_int_type(ch, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(ch);
            pbump(1);
        }
        return traits_type::not_eof(ch);
    }
    int sync() override
    {
        // A plain flush only hands what is buffered to zlib; Z_SYNC_FLUSH would hurt the ratio.
        return !m_finished && compress(Z_NO_FLUSH) ? 0 : -1;
    }

private:
    /// Feeds the pending input to deflate and writes what it produces to the sink.
    bool compress(int flush)
    {
        if (!m_ok)
            return false;
        m_zstream.next_in = reinterpret_cast<Bytef*>(pbase());
        m_zstream.avail_in = static_cast<uInt>(pptr() - pbase());
        int status = Z_OK;
        do {
            m_zstream.next_out = reinterpret_cast<Bytef*>(m_output.data());
            m_zstream.avail_out = static_cast<uInt>(m_output.size());
            status = deflate(&m_zstream, flush);
            if (status == Z_STREAM_ERROR) {
                m_ok = false;
                return false;
            }
            const auto produced = m_output.size() - m_zstream.avail_out;
            if (produced > 0 && !m_sink.write(m_output.data(), static_cast<std::streamsize>(produced))) {
                m_ok = false;
                return false;
            }
        } while (m_zstream.avail_out == 0 || (flush == Z_FINISH && status != Z_STREAM_END));
        setp(m_input.data(), m_input.data() + m_input.size());
        return true;
    }

    std::ostream& m_sink;
    std::vector<char> m_input;
    std::vector<char> m_output;
    z_stream m_zstream {};
    bool m_ok = false;
    bool m_initialised = false;
    bool m_finished = false;
};

GzipOutputStream::GzipOutputStream(std::ostream& sink, int level)
    : std::ostream(nullptr)
    , m_buffer(std::make_unique<Buffer>(sink, level))
{
    rdbuf(m_buffer.get());
}

GzipOutputStream::~GzipOutputStream() = default;

bool GzipOutputStream::finish()
{
    const bool ok = m_buffer->finish();
    if (!ok)
        setstate(std::ios::badbit);
    return ok;
}

} // namespace gapscope
