// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/io_error.h"
#include "core/model/trace.h"

#include <string>
#include <string_view>

namespace gapscope {

/// Reads Chrome trace-event JSON as the PyTorch profiler (Kineto) writes it: an object with
/// `traceEvents` or a bare array, `.json` or `.json.gz`, every dialect of DESIGN.md §5.
/// A malformed event is skipped, counted in Trace::skippedEvents and reported in Trace::warnings
/// with its byte offset; a file that is not JSON, is truncated or is not a trace is an IoError.
/// The returned trace is finalized.
class ChromeTraceReader {
public:
    /// Reads a file; gzip is detected by its magic bytes, not its name.
    static IoResult<Trace> readFile(const std::string& path);
    /// Parses JSON text already in memory. `fileName` is used in messages and Process::sourceFile.
    static IoResult<Trace> parse(std::string_view json, const std::string& fileName);
};

} // namespace gapscope
