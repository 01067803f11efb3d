// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/common/io_error.h"
#include "core/model/trace_builder.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace gapscope {

struct NsysReadOptions {
    /// Keep each kernel's launch configuration (grid, block, registers, shared memory) and each NVTX event's
    /// domain as args, as Kineto writes them; identical configurations share one args text.
    bool keepArgs = true;
    /// Threads that read the large tables, each its share of the rows on a connection of its own (0: as many
    /// as the machine runs at once, at most 4; 1: the calling thread only).
    unsigned threads = 0;
    /// Event tables of fewer rows than this in all are read on the calling thread (the same events either way).
    std::int64_t parallelFromRows = 200'000;
};

/// Reads the SQLite database `nsys export --type sqlite` writes (Nsight Systems 2021 and later; export schema 2.x
/// and 3.x) into the model, opened read-only: the file is never written to, indexed or locked for writing.
///
/// How the export maps onto the model:
/// - A process per globalPid that has events (pid = (globalPid >> 24) & 0xffffff), named from PROCESSES (else
///   its main thread); a host lane per globalTid (tid = globalTid & 0xffffff), named from ThreadNames, or by
///   nvtxNameOsThread; the rank from MPI_RANKS, or a thread named "MPI Rank N" (nsys's MPI tracing).
/// - CUPTI_ACTIVITY_KIND_KERNEL / MEMCPY / MEMSET / SYNCHRONIZATION: events on lane (deviceId, streamId) of the
///   process's device (stream 0xffffffff is -1); kernels are named by demangledName (else shortName) through
///   StringIds; copies and memsets as Kineto names them ("Memcpy HtoD (Pageable -> Device)", "Memset (Device)"),
///   synchronization as Kineto's cuda_sync events ("Stream Sync"); devices named from TARGET_INFO_GPU (through
///   TARGET_INFO_CUDA_DEVICE where it exists, else its cuDevice).
///   A synchronization row's device is its context's (the device of that context's kernels, copies or memsets
///   in the same process): nsys writes 0 in its deviceId column whatever the device. A row whose context ran no
///   GPU work is skipped and counted, so that no device is made of synchronization rows alone.
/// - CUPTI_ACTIVITY_KIND_RUNTIME (and _DRIVER): API calls on their thread's lane, runtime or driver by event
///   class, named without nsys's version suffix (cudaLaunchKernel_v7000 → cudaLaunchKernel). A call nested in
///   another with the same correlation id (schema 2.x writes each call twice) is merged into the outer one.
/// - NVTX_EVENTS: push/pop and start/end ranges and marks on their (start) thread's lane, named by text or
///   textId; a range without an end is skipped and counted.
/// - COMPOSITE_EVENTS + SAMPLING_CALLCHAINS (CPU sampling): each thread's samples with their callchains (function
///   and module through StringIds), in the trace's samples beside the events.
/// - CUDA_GPU_MEMORY_USAGE_EVENTS: a `memory allocated` counter track per process and device, the running sum of
///   the allocations and frees; GPU_METRICS: a counter track per metric (TARGET_INFO_GPU_METRICS's name) and GPU.
/// - Times are the export's int64 ns, unchanged.
/// A table or column that is absent, or a table that stops being readable halfway (a damaged or cut-off file),
/// is a warning and the rest loads; a row that ends before it starts is skipped and counted. A file that is not
/// an SQLite database, has no tables, or none of the tables nsys writes, is an IoError. A file that another
/// program holds a write lock on is read as it is on disk, with a warning. The first warning states the nsys
/// version and export schema. readFile's trace is finished.
class NsysSqliteReader {
public:
    /// Whether these first bytes are an SQLite database's ("SQLite format 3" and a NUL).
    static bool hasMagic(std::string_view head);
    static IoResult<Trace> readFile(const std::string& path, const NsysReadOptions& options = {});
    /// What readFile reads, not yet finished: to append to other files' before one TraceBuilder::finish().
    static IoResult<TraceBuilder> readUnfinished(const std::string& path, const NsysReadOptions& options = {});
};

} // namespace gapscope
