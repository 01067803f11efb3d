// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/common/io_error.h"
#include "core/io/common/read_filter.h"
#include "core/model/trace_builder.h"

#include <cstddef>
#include <stop_token>
#include <string>
#include <string_view>

namespace gapscope {

struct ChromeReadOptions {
    /// Keep each event's `args` object as raw JSON text (Trace::args), for the writer and the UI. Without it a
    /// Kineto trace takes about a fifth of the memory (56 instead of 295 bytes per event in import_bench), but
    /// args are lost on export.
    bool keepArgs = true;
    /// Initial size of the sliding window the content is parsed in (it grows for longer items). The default
    /// suits real files; tests make it tiny to exercise items that straddle window boundaries.
    std::size_t windowBytes = 1 << 20;
    /// What to keep (everything by default): only the GPU lanes and/or a time range, for traces too large to load
    /// whole. The trace then carries a warning that says what was left out.
    ReadFilter filter;
    /// Asked to stop: the read ends at the next window refill with the error "canceled".
    std::stop_token stop;
    /// 1: parse and map the events on the calling thread. 0 (where the machine has two cores or more) or 2: map
    /// them on a second thread while the next ones are parsed (core/io/chrome/event_pipeline.h); the trace is
    /// the same either way.
    unsigned threads = 0;
};

/// Reads Chrome trace-event JSON as the PyTorch profiler (Kineto) writes it: an object with
/// `traceEvents` or a bare array, `.json` or `.json.gz`, every dialect of README.md "File formats".
/// A malformed event is skipped, counted in Trace::skippedEvents and reported in Trace::warnings
/// with its byte offset; a file cut short loads the complete events before the cut, with a warning; a file that
/// is not JSON or is not a trace, or that ends before any complete event, is an IoError.
/// The returned trace is finished.
///
/// How the file maps onto the model:
/// - ts/dur are µs (whatever `displayTimeUnit` says), converted to ns exactly from the number's text,
///   rounding half away from zero: "1.0005" → 1001 ns.
/// - The file's host process is the pid that issued the most cuda_runtime/driver calls, else the pid of
///   the first CPU event. GPU events (kernel, memcpy, memset, cuda_sync, gpu_user_annotation) go to
///   stream lanes of that process's devices: device = args.device (else the pid), stream = args.stream
///   (else tid "stream 7" or the numeric tid; 4294967295 is read as -1). Kineto's GPU pids are not processes:
///   CPU events written under them (the Python tracer's pid 0), and pseudo-processes with string pids
///   ("Spans", "Traces"), belong to the host process. Any other pid with CPU events is its own Process.
/// - A non-numeric tid gets a stable synthetic id and names its lane; thread_name / process_name metadata
///   override names, *_sort_index set sortIndex.
/// - Flows `s`/`f` of cat ac2g / async (or none) bind their id as correlation to the event of that
///   pid/tid starting at the flow's ts (API calls and GPU ops first) when it has none; other flow cats
///   (fwdbwd) are ignored, as are counters (`C`). B/E pairs match per pid/tid; `i`/`I` are zero-length.
/// - Top-level keys other than traceEvents are kept as one raw JSON object in every Process::fileMetadataJson;
///   distributedInfo.rank sets Process::rank; deviceProperties name the devices that have events.
class ChromeTraceReader {
public:
    /// Reads a file; gzip is detected by its magic bytes, not its name.
    static IoResult<Trace> readFile(const std::string& path);
    static IoResult<Trace> readFile(const std::string& path, const ChromeReadOptions& options);
    /// What readFile reads, not yet finished: to append to other files' before one TraceBuilder::finish().
    static IoResult<TraceBuilder> readUnfinished(const std::string& path, const ChromeReadOptions& options);
    /// Parses JSON text already in memory. `fileName` is used in messages and Process::sourceFile.
    static IoResult<Trace> parse(std::string_view json, const std::string& fileName);
    static IoResult<Trace> parse(std::string_view json, const std::string& fileName, const ChromeReadOptions& options);
};

} // namespace gapscope
