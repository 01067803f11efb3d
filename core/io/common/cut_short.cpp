// SPDX-License-Identifier: MIT
#include "core/io/common/cut_short.h"

#include <cstdio>
#include <filesystem>

namespace gapscope {

namespace {

std::string bytesText(std::uint64_t bytes)
{
    char text[32];
    if (bytes >= 1'000'000)
        std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
    else if (bytes >= 1'000)
        std::snprintf(text, sizeof text, "%.1f kB", static_cast<double>(bytes) / 1e3);
    else
        std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
    return text;
}

} // namespace

std::vector<CutShortFile> cutShortFiles(const Trace& trace)
{
    std::vector<CutShortFile> cuts;
    for (const ImportWarning& w : trace.warnings()) {
        const std::string_view message = w.message;
        if (!message.starts_with(kJsonEndedEarly) && !message.starts_with(kChunkCutOff))
            continue;
        CutShortFile cut { w.file, std::nullopt, w.byteOffset };
        std::error_code error;
        if (const auto size = std::filesystem::file_size(w.file, error); !error)
            cut.fileBytes = size;
        cuts.push_back(std::move(cut));
    }
    return cuts;
}

std::string cutShortLine(const CutShortFile& cut)
{
    const std::string name = std::filesystem::path(cut.file).filename().string();
    std::string line = name + " is cut short: the file ends ";
    line += cut.fileBytes ? "after " + bytesText(*cut.fileBytes) + ", " : std::string();
    line += "in the middle of its content; what followed is missing. Every figure covers only what was read";
    line += " (the content up to byte " + std::to_string(cut.contentOffset) + ").";
    return line;
}

} // namespace gapscope
