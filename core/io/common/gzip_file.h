// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/common/io_error.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gapscope {

/// Reads a file's content sequentially, inflating it when it starts with the gzip magic bytes (1f 8b),
/// whatever its name. Every member of a multi-member gzip file (`cat a.gz b.gz`) is inflated in turn.
/// Errors carry the file name and, where it has one, the offset into the decompressed content.
class GzipFileReader {
public:
    GzipFileReader();
    ~GzipFileReader();
    GzipFileReader(const GzipFileReader&) = delete;
    GzipFileReader& operator=(const GzipFileReader&) = delete;

    /// Opens `path` and sniffs the first bytes. An error if it cannot be opened or read.
    std::optional<IoError> open(const std::string& path);
    /// Copies up to `size` bytes of content into `destination`; returns how many, 0 only at the end of
    /// the content. A corrupt gzip stream, or one that ends before its last member's trailer, is an error.
    IoResult<std::size_t> read(char* destination, std::size_t size);

    bool isCompressed() const { return m_compressed; }
    const std::string& path() const { return m_path; }
    /// Size of the file on disk (compressed size for gzip files).
    std::uint64_t fileSize() const { return m_fileSize; }
    /// Content bytes handed out so far.
    std::uint64_t contentOffset() const { return m_contentOffset; }

private:
    IoResult<std::size_t> readRaw(char* destination, std::size_t size);
    IoResult<std::size_t> readInflated(char* destination, std::size_t size);
    bool refillInput();
    IoError error(std::string message) const;

    struct Inflater;
    std::string m_path;
    std::FILE* m_file = nullptr;
    bool m_compressed = false;
    bool m_inputEof = false;
    bool m_contentEnd = false;
    /// A stream cut inside a member: what inflated before the cut was handed out; this comes next.
    std::optional<IoError> m_truncated;
    std::uint64_t m_fileSize = 0;
    std::uint64_t m_contentOffset = 0;
    std::uint64_t m_compressedConsumed = 0;
    std::vector<unsigned char> m_input; // bytes read from the file; [m_inputPos, end) not yet consumed
    std::size_t m_inputPos = 0;
    std::unique_ptr<Inflater> m_inflater;
};

/// The whole content of a file, inflated if it is gzip. For small files and tests; the trace reader streams.
IoResult<std::string> readFileContent(const std::string& path);

} // namespace gapscope
