// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gapscope::capture {

/// Counts, while the program runs, what its collectors have written so far: it reads only the
/// chunk headers (and the small Counters chunks) that were added since the last scan, so a scan
/// every few hundred milliseconds costs next to nothing.
class PartFileScanner {
public:
    explicit PartFileScanner(std::string directory);

    struct Totals {
        std::size_t files = 0;
        std::uint64_t events = 0;
        std::uint64_t droppedRecords = 0;
    };
    /// Reads what was appended since the previous scan.
    Totals scan();

    /// The native files in the folder, sorted by name.
    static std::vector<std::string> partFiles(const std::string& directory);

private:
    struct FileState {
        std::uint64_t offset = 0; // next chunk header; 0: header not read yet
        std::uint64_t events = 0;
        std::uint64_t dropped = 0;
    };
    void scanFile(const std::string& path, FileState& state);

    std::string m_directory;
    std::map<std::string, FileState> m_files;
};

} // namespace gapscope::capture
