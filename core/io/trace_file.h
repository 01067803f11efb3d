// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/common/io_error.h"
#include "core/model/trace.h"

#include <stop_token>
#include <string>
#include <vector>

namespace gapscope {

/// Loads any trace format GapScope reads, chosen by content (gzip magic, JSON), finalized.
IoResult<Trace> loadTraceFile(const std::string& path);
/// Like loadTraceFile; a stop request ends the read soon (at the next window of JSON content or chunk of
/// a capture) with the error "canceled".
IoResult<Trace> loadTraceFile(const std::string& path, std::stop_token stop);
/// Loads several files (the ranks of one job) into one trace, one process group each.
IoResult<Trace> loadTraceFiles(const std::vector<std::string>& paths);
/// Writes in the format its extension names: `.json`, `.json.gz`, `.gapscope` (the native format).
IoResult<bool> saveTraceFile(const Trace& trace, const std::string& path);

} // namespace gapscope
