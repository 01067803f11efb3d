// SPDX-License-Identifier: MIT
#include "core/io/memory_fit.h"

#include "core/io/native/native_trace_reader.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <system_error>

#include <sys/stat.h>

namespace gapscope {

namespace {

/// "3.2 GB", "808.9 MB", "512 kB".
std::string humanBytes(std::uint64_t bytes)
{
    char text[32];
    const double b = static_cast<double>(bytes);
    if (b >= 1e9)
        std::snprintf(text, sizeof(text), "%.1f GB", b / 1e9);
    else if (b >= 1e6)
        std::snprintf(text, sizeof(text), "%.1f MB", b / 1e6);
    else
        std::snprintf(text, sizeof(text), "%.0f kB", b / 1e3);
    return text;
}

/// The inflated size a gzip file's trailer gives (ISIZE: the last member's size modulo 2^32), raised by
/// multiples of 4 GiB to at least kMinGzipRatio times the compressed size.
std::uint64_t inflatedSize(std::FILE* file, std::uint64_t fileBytes)
{
    std::array<unsigned char, 4> trailer {};
    if (fileBytes < 18 || std::fseek(file, -4, SEEK_END) != 0 || std::fread(trailer.data(), 1, 4, file) != 4)
        return fileBytes * kMinGzipRatio;
    std::uint64_t size = static_cast<std::uint64_t>(trailer[0]) | static_cast<std::uint64_t>(trailer[1]) << 8
        | static_cast<std::uint64_t>(trailer[2]) << 16 | static_cast<std::uint64_t>(trailer[3]) << 24;
    const std::uint64_t atLeast = fileBytes * kMinGzipRatio;
    constexpr std::uint64_t kWrap = std::uint64_t { 1 } << 32;
    if (size < atLeast)
        size += (atLeast - size + kWrap - 1) / kWrap * kWrap;
    return size;
}

} // namespace

IoResult<LoadEstimate> estimateLoad(const std::string& path)
{
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file)
        return IoError { path, std::nullopt, "cannot open: " + std::generic_category().message(errno) };
    struct stat info { };
    if (::fstat(fileno(file), &info) != 0 || !S_ISREG(info.st_mode)) {
        std::fclose(file);
        return IoError { path, std::nullopt, "not a regular file" };
    }
    LoadEstimate estimate;
    estimate.fileBytes = static_cast<std::uint64_t>(info.st_size);
    std::array<char, 8> head {};
    const std::size_t headBytes = std::fread(head.data(), 1, head.size(), file);
    double factor = kJsonPeakPerContentByte;
    if (headBytes >= 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b) {
        estimate.contentBytes = inflatedSize(file, estimate.fileBytes);
    } else {
        estimate.contentBytes = estimate.fileBytes;
        if (NativeTraceReader::hasMagic(std::string_view(head.data(), headBytes)))
            factor = kNativePeakPerContentByte;
        else if (headBytes == head.size() && std::memcmp(head.data(), "SQLite f", head.size()) == 0)
            factor = kSqlitePeakPerContentByte;
    }
    std::fclose(file);
    estimate.peakBytes = static_cast<std::uint64_t>(static_cast<double>(estimate.contentBytes) * factor);
    return estimate;
}

std::optional<std::uint64_t> availableMemoryBytes(const std::string& meminfoPath)
{
    std::FILE* file = std::fopen(meminfoPath.c_str(), "r");
    if (!file)
        return std::nullopt;
    std::optional<std::uint64_t> available;
    char line[256];
    while (std::fgets(line, sizeof(line), file)) {
        unsigned long long kilobytes = 0;
        if (std::sscanf(line, "MemAvailable: %llu kB", &kilobytes) == 1) {
            available = static_cast<std::uint64_t>(kilobytes) * 1024;
            break;
        }
    }
    std::fclose(file);
    return available;
}

std::optional<std::uint64_t> memoryBudgetBytes()
{
    if (const char* skip = std::getenv("GAPSCOPE_SKIP_MEMORY_CHECK"); skip && std::strcmp(skip, "1") == 0)
        return std::nullopt;
    if (const char* limit = std::getenv("GAPSCOPE_AVAILABLE_MEMORY"); limit && *limit) {
        char* end = nullptr;
        const unsigned long long bytes = std::strtoull(limit, &end, 10);
        if (*end == '\0')
            return static_cast<std::uint64_t>(bytes);
    }
    return availableMemoryBytes();
}

std::optional<IoError> checkFitsInMemory(const std::vector<std::string>& paths, std::uint64_t availableBytes)
{
    std::uint64_t fileBytes = 0;
    std::uint64_t peakBytes = 0;
    for (const std::string& path : paths) {
        auto estimate = estimateLoad(path);
        if (!estimate)
            return std::nullopt;
        fileBytes += estimate.value().fileBytes;
        peakBytes += estimate.value().peakBytes;
    }
    if (paths.empty() || peakBytes <= availableBytes)
        return std::nullopt;
    const std::string what = paths.size() == 1
        ? "this " + humanBytes(fileBytes) + " trace"
        : "these " + std::to_string(paths.size()) + " traces (" + humanBytes(fileBytes) + " together)";
    return IoError { paths.front(), std::nullopt,
        std::string(kTooLargeForMemory) + ": loading " + what + " would take about " + humanBytes(peakBytes)
            + " (estimated from the file size), and " + humanBytes(availableBytes)
            + " is available (MemAvailable in /proc/meminfo, or GAPSCOPE_AVAILABLE_MEMORY). Load it on a machine "
              "with more memory, close other programs, load only its GPU lanes (--gpu-only) or a time range of it "
              "(--load-range T0:T1), or set GAPSCOPE_SKIP_MEMORY_CHECK=1 to try anyway" };
}

} // namespace gapscope
