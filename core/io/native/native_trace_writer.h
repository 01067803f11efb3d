// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/common/io_error.h"
#include "core/io/native/native_format.h"
#include "core/model/trace.h"

#include <ostream>
#include <string>

namespace gapscope {

/// Writes a whole Trace in the native capture format (core/io/native/native_format.h): one process section
/// per process, names, devices, sort indices, args, dropped/skipped counts and import warnings kept,
/// so that NativeTraceReader gives back the same model. `gapscope record` writes its merged
/// recording with it. (The collector streams the same format with its own writer; it cannot link core.)
class NativeTraceWriter {
public:
    struct Options {
        /// The clock the trace's times are on (a recording: the collector's clock).
        native::ClockId clock = native::ClockId::Unknown;
    };

    /// Writes the file. Returns false when the stream failed.
    static bool write(const Trace& trace, std::ostream& out, const Options& options);
    /// Writes atomically (temporary file, then rename).
    static IoResult<void> writeFile(const Trace& trace, const std::string& path, const Options& options);
    static IoResult<void> writeFile(const Trace& trace, const std::string& path)
    {
        return writeFile(trace, path, Options {});
    }
};

} // namespace gapscope
