// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/common/io_error.h"
#include "core/io/common/read_filter.h"
#include "core/io/native/native_format.h"
#include "core/model/trace_builder.h"

#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

/// What a native file said about one of its processes beyond the model: the collector's health.
struct NativeProcessInfo {
    ProcessIndex process;
    std::int64_t pid = 0;
    std::optional<int> rank;
    std::optional<std::int64_t> parentPid;
    std::string commandLine;
    /// Whether CUPTI recorded CUDA activity in this process: nullopt when the collector never
    /// started CUPTI (no CUDA driver, or the process did not use CUDA), false when it failed.
    std::optional<bool> cuptiActive;
    std::string cuptiDetail;
    std::vector<std::string> collectorErrors;
    std::vector<std::string> collectorNotes;
    native::CountersRecord counters {};
    /// The collector's recording window, when it had one.
    std::optional<std::pair<TimeNs, TimeNs>> recordWindow;
};

/// What a native file said about itself.
struct NativeFileInfo {
    std::uint32_t formatVersion = 0;
    std::string producer;
    native::ClockId clock = native::ClockId::Unknown;
    /// An End chunk was found: the writer closed the file (the process did not crash).
    bool closedCleanly = false;
    /// Bytes up to the end of the last complete chunk: everything before this offset was loaded.
    std::uint64_t bytesLoaded = 0;
    std::uint64_t fileSize = 0;
    std::vector<NativeProcessInfo> processes;
};

/// Reads the native capture format (core/io/native/native_format.h, README.md "File formats") into the model.
///
/// A file cut off by a crash loads up to its last complete chunk, with a warning in Trace::warnings
/// (as does a file without an End chunk). A single bad event (unknown kind or string, end before
/// start) is skipped, counted in Trace::skippedEvents and reported with its byte offset. A file
/// that is not a native capture, whose header is cut off, or that a newer format version wrote is
/// an IoError.
class NativeTraceReader {
public:
    /// A finished trace with what the file said about the collector.
    struct Capture {
        Trace trace;
        NativeFileInfo info;
    };
    /// The same, the trace not yet finished: to append several captures before one TraceBuilder::finish().
    struct UnfinishedCapture {
        TraceBuilder trace;
        NativeFileInfo info;
    };

    static IoResult<Trace> readFile(const std::string& path);
    /// Like readFile, with what the file said about the collector. `stop` is checked before each chunk, and a
    /// stop request ends the read with the error "canceled"; only what `filter` keeps is read (ReadFilter), and
    /// the trace's first warning says so.
    static IoResult<Capture> readCapture(
        const std::string& path, std::stop_token stop = {}, const ReadFilter& filter = {});
    /// What readCapture reads, not yet finished.
    static IoResult<UnfinishedCapture> readUnfinished(
        const std::string& path, std::stop_token stop = {}, const ReadFilter& filter = {});
    /// Parses bytes already in memory; `fileName` is used in messages and Process::sourceFile.
    static IoResult<Capture> parse(std::string_view bytes, const std::string& fileName);

    /// True when `head` (the first bytes of a file, at least 4) starts with the native magic.
    static bool hasMagic(std::string_view head);
};

} // namespace gapscope
