// SPDX-License-Identifier: MIT
#include "capture/launcher/part_file_scanner.h"

#include "core/io/native/native_format.h"

#include <algorithm>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <unistd.h>

namespace gapscope::capture {

PartFileScanner::PartFileScanner(std::string directory)
    : m_directory(std::move(directory))
{ }

std::vector<std::string> PartFileScanner::partFiles(const std::string& directory)
{
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file(ec) && name.ends_with(native::kFileExtension))
            files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

PartFileScanner::Totals PartFileScanner::scan()
{
    Totals totals;
    for (const std::string& path : partFiles(m_directory)) {
        FileState& state = m_files[path];
        scanFile(path, state);
        ++totals.files;
        totals.events += state.events;
        totals.droppedRecords += state.dropped;
    }
    return totals;
}

void PartFileScanner::scanFile(const std::string& path, FileState& state)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    const off_t size = ::lseek(fd, 0, SEEK_END);
    if (state.offset == 0) {
        native::FileHeader header {};
        if (size >= static_cast<off_t>(sizeof(header)) && ::pread(fd, &header, sizeof(header), 0) == sizeof(header)
            && std::memcmp(header.magic, native::kMagic, sizeof(header.magic)) == 0
            && header.headerSize >= sizeof(header))
            state.offset = header.headerSize;
    }
    // Only complete chunks count: the collector may be in the middle of appending one.
    while (state.offset != 0 && static_cast<off_t>(state.offset + sizeof(native::ChunkHeader)) <= size) {
        native::ChunkHeader chunk {};
        if (::pread(fd, &chunk, sizeof(chunk), static_cast<off_t>(state.offset)) != sizeof(chunk)
            || chunk.marker != native::kChunkMarker)
            break;
        const std::uint64_t end = state.offset + sizeof(chunk) + chunk.payloadSize;
        if (static_cast<off_t>(end) > size)
            break;
        if (chunk.type == static_cast<std::uint16_t>(native::ChunkType::Events)) {
            state.events += chunk.recordCount;
        } else if (chunk.type == static_cast<std::uint16_t>(native::ChunkType::Counters)
            && chunk.recordSize >= sizeof(native::CountersRecord)) {
            for (std::uint32_t i = 0; i < chunk.recordCount; ++i) {
                native::CountersRecord counters {};
                const off_t at = static_cast<off_t>(state.offset + sizeof(chunk) + std::uint64_t(i) * chunk.recordSize);
                if (::pread(fd, &counters, sizeof(counters), at) == sizeof(counters))
                    state.dropped += counters.droppedRecords;
            }
        }
        state.offset = end;
    }
    ::close(fd);
}

} // namespace gapscope::capture
