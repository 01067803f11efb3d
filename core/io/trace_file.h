// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/common/io_error.h"
#include "core/io/common/read_filter.h"
#include "core/model/trace_builder.h"

#include <cstddef>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace gapscope {

/// Loads any trace format GapScope reads, chosen by content (gzip magic, JSON), finished.
IoResult<Trace> loadTraceFile(const std::string& path);
/// Like loadTraceFile; a stop request ends the read soon (at the next window of JSON content or chunk of
/// a capture) with the error "canceled".
IoResult<Trace> loadTraceFile(const std::string& path, std::stop_token stop);
/// Like loadTraceFile, keeping only what `filter` keeps (GPU lanes, a time range: for traces too large to load
/// whole; the trace's first warning says what was left out). Chrome JSON and native captures only; the memory
/// check before the read is skipped, as a filtered load's size is not known from the file's.
IoResult<Trace> loadTraceFile(const std::string& path, std::stop_token stop, const ReadFilter& filter);

/// What loadTraceFile reads, not yet finished: to append to other traces before one TraceBuilder::finish().
IoResult<TraceBuilder> readTraceFile(const std::string& path, std::stop_token stop = {}, const ReadFilter& filter = {});

/// How loadTraceFiles reads, reports its progress and is stopped.
struct LoadOptions {
    /// Called before each file is read with its index, the number of files and its path; returning false
    /// stops the load, as a stop request does.
    std::function<bool(std::size_t index, std::size_t count, const std::string& path)> progress;
    /// Checked between files, and by the readers at each window of content or chunk (loadTraceFile).
    std::stop_token stop;
    /// What to keep of each file (all of it by default); see loadTraceFile.
    ReadFilter filter;
};

/// Loads several files (the ranks of one job) into one trace, one process group each: what the command line
/// and the viewer load. Several files are first checked together against the memory available (not for a
/// filtered load). A stopped load is the error "canceled".
IoResult<Trace> loadTraceFiles(const std::vector<std::string>& paths, const LoadOptions& options = {});
/// loadTraceFiles with only a filter.
IoResult<Trace> loadTraceFiles(const std::vector<std::string>& paths, const ReadFilter& filter);
/// Writes in the format its extension names: `.json`, `.json.gz`, `.gapscope` (the native format).
IoResult<void> saveTraceFile(const Trace& trace, const std::string& path);

} // namespace gapscope
