// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/common/io_error.h"
#include "core/model/trace.h"

#include <ostream>
#include <string>

namespace gapscope {

/// Writes a trace as Chrome trace-event JSON in the Kineto dialect (categories `kernel`, `gpu_memcpy`,
/// `gpu_memset`, `cuda_runtime`, ...; `args.device`/`args.stream`/`args.correlation`; `ac2g` flows;
/// `M` metadata; `distributedInfo`), readable by Perfetto, HTA and TraceLens, and by ChromeTraceReader
/// to the same model. One process per file is what those tools expect; several are written too.
class ChromeTraceWriter {
public:
    static void write(const Trace& trace, std::ostream& out);
    /// Writes atomically (temporary file, then rename); `.gz` names are gzip-compressed.
    static IoResult<void> writeFile(const Trace& trace, const std::string& path);
};

} // namespace gapscope
