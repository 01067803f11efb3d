// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <ostream>

namespace gapscope {

/// An output stream that gzip-compresses (RFC 1952, zlib's deflate) everything written to it into
/// another stream. finish() writes the trailer; without it the output is not a complete gzip file.
class GzipOutputStream : public std::ostream {
public:
    /// `level` is zlib's 1 (fastest) … 9 (smallest); 6 is zlib's default.
    explicit GzipOutputStream(std::ostream& sink, int level = 6);
    ~GzipOutputStream() override;
    GzipOutputStream(const GzipOutputStream&) = delete;
    GzipOutputStream& operator=(const GzipOutputStream&) = delete;

    /// Compresses what is pending, writes the gzip trailer and flushes the sink. False when zlib or
    /// the sink failed (this stream's badbit is then set too). Further writes fail after finish().
    bool finish();

private:
    class Buffer;
    std::unique_ptr<Buffer> m_buffer;
};

} // namespace gapscope
