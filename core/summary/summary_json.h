// SPDX-License-Identifier: MIT
#pragma once

// The `.summary.json` file: {"format": "gapscope-summary", "version": 1, "ranks": [RankSummary...]}. Integers are
// exact (ns), so a summary read back is the summary written; the layout is in README.md ("Summary JSON").

#include "core/io/common/io_error.h"
#include "core/summary/rank_summary.h"

#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

inline constexpr int kSummaryFormatVersion = 1;
inline constexpr std::string_view kSummaryFileExtension = ".summary.json";

/// The JSON text of a summary document (compact, one line; `indent` >= 0 pretty-prints).
std::string summariesToJson(const std::vector<RankSummary>& summaries, int indent = -1);
/// Reads a summary document; `file` names it in errors (with the byte offset of a JSON syntax error).
IoResult<std::vector<RankSummary>> summariesFromJson(std::string_view text, const std::string& file);

IoResult<std::vector<RankSummary>> readSummaryFile(const std::string& path);
/// Writes atomically (the previous file, if any, is replaced whole or not at all).
IoResult<void> writeSummaryFile(const std::string& path, const std::vector<RankSummary>& summaries);

/// Whether a path names a summary file (ends with `.summary.json`).
bool isSummaryFile(std::string_view path);

} // namespace gapscope
