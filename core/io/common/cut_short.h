// SPDX-License-Identifier: MIT
#pragma once

// A file that ends before its content does (a copy cut short, a capture whose process died) loads up to the
// cut with a warning. This says which files of a trace were cut, in the words every output leads with: the
// viewer's banner, the first line of `gapscope report`.

#include "core/model/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

/// How a reader's warning starts when the file ended inside its content: the Chrome JSON reader's, and the
/// native reader's when a chunk is cut.
inline constexpr std::string_view kJsonEndedEarly = "the file ends early (truncated?)";
inline constexpr std::string_view kChunkCutOff = "the file is cut off inside a chunk";

struct CutShortFile {
    std::string file;
    /// The file's size on disk (what there was to read); nullopt when it cannot be read any more.
    std::optional<std::uint64_t> fileBytes;
    /// Where the content ended (an offset in the decompressed content of a .gz).
    std::uint64_t contentOffset = 0;
};

/// The files of `trace` that were cut short, in the order of their warnings.
std::vector<CutShortFile> cutShortFiles(const Trace& trace);

/// "run.json.gz is cut short: the file ends after 298.0 kB, in the middle of its content; what followed is
/// missing. Every figure covers only what was read." (the file's name without its folder).
std::string cutShortLine(const CutShortFile& cut);

} // namespace gapscope
