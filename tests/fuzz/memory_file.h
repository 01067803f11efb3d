// SPDX-License-Identifier: MIT
#pragma once

// The fuzz input as a file that lives in memory (memfd), for readers whose entry point is a path: the gzip
// reader streams from a FILE*, and the fuzz target should run the very code a user's file goes through.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

namespace gapscope::fuzz {

class MemoryFile {
public:
    MemoryFile(const std::uint8_t* data, std::size_t size)
        : m_fd(::memfd_create("gapscope-fuzz", 0))
    {
        if (m_fd < 0)
            std::abort();
        std::size_t written = 0;
        while (written < size) {
            const ssize_t n = ::write(m_fd, data + written, size - written);
            if (n <= 0)
                std::abort();
            written += static_cast<std::size_t>(n);
        }
    }
    ~MemoryFile() { ::close(m_fd); }
    MemoryFile(const MemoryFile&) = delete;
    MemoryFile& operator=(const MemoryFile&) = delete;

    std::string path() const { return "/proc/self/fd/" + std::to_string(m_fd); }

private:
    int m_fd;
};

} // namespace gapscope::fuzz
