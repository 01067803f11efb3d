// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/nsys/nsys_evidence_rows.h"
#include "core/io/nsys/nsys_strings.h"
#include "core/io/nsys/sqlite_database.h"
#include "core/model/trace_builder.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gapscope::nsys {

/// nsys packs a process and a thread into one 64-bit "global id": bits 24-47 hold the pid, bits 0-23 the tid
/// (the higher bits name the machine). A globalPid is a globalTid whose tid bits are 0.
constexpr std::int64_t pidOf(std::int64_t globalId)
{
    return (globalId >> 24) & 0xffffff;
}
constexpr std::int64_t tidOf(std::int64_t globalId)
{
    return globalId & 0xffffff;
}
constexpr std::int64_t globalPidOf(std::int64_t globalId)
{
    return globalId & ~std::int64_t { 0xffffff };
}

/// The tables an import reads, by what they hold.
enum class NsysTable : std::uint8_t {
    Kernel,
    Memcpy,
    Memset,
    Synchronization,
    Runtime,
    Driver,
    OsRuntime,
    Nvtx,
    StringIds,
    ThreadNames,
    Processes,
    TargetGpu,
    TargetCudaDevice,
    ExportMetadata,
    Count,
};

/// Rows [first, last] by rowid (nsys numbers a table's rows 1, 2, ...), or the whole table.
struct RowRange {
    std::int64_t first = 0;
    std::int64_t last = 0;
    bool whole = true;
    /// Room the first lanes of the table are given (0: the range's rows).
    std::int64_t reserveRows = 0;
    /// The range runs to the table's end: `last` is the largest rowid when the import began.
    bool toEnd = false;
    std::string whereClause() const;
};

/// One import of an nsys SQLite export into a Trace: a prepared statement per table, one pass each, rows
/// routed straight into their lanes. Which tables and columns exist varies with the nsys version: a missing
/// table or column is noted (missingTables()) and the rest is read.
class NsysImport {
public:
    NsysImport(SqliteDatabase& db, std::string fileName, const std::vector<std::string>& tables, bool keepArgs);

    /// Whether the database holds any table nsys writes.
    bool looksLikeNsysExport() const;
    bool has(std::string_view table) const { return m_tables.count(std::string(table)) != 0; }

    /// How the file was opened, for the connections of other threads.
    void setOpenMode(std::string path, bool withoutLocking, bool cutOff);

    void readStrings();
    void readExportMetadata();
    void readGpuActivity(NsysTable table, RowRange range = {});
    void readApiCalls(NsysTable table, RowRange range = {});
    /// OSRT_API: the OS runtime calls nsys traced (pthread_mutex_lock, poll, ioctl, read, ...), as events of kind
    /// Other on their thread's lane, named as nsys names them. Not CUDA calls: they launch nothing and are not
    /// synchronizing calls, but a host gap's evidence can name one as what the launching thread was doing.
    void readOsRuntimeCalls(RowRange range = {});
    /// Whichever of the three above reads `table`.
    void readEventTable(NsysTable table, RowRange range = {});
    /// The GPU activity and API tables, on up to `threads` threads (0: as many as the machine runs at once) when
    /// they hold many rows: each thread reads its share of each table's rows on a connection of its own into a
    /// trace of its own, and the shares are joined in row order.
    void readEventTables(unsigned threads, std::int64_t parallelFromRows);
    void readNvtx();
    void readRanks();
    /// The device of each CUDA context that synchronization rows name, (globalPid, contextId) -> deviceId, from
    /// the GPU work of that context (kernels, then copies, then memsets): CUPTI's synchronization records carry
    /// no device, and nsys writes 0 in their deviceId column whatever device the context is on. A context that
    /// ran no GPU work has no entry: its synchronization rows are skipped, so that no device is made of them.
    void readContextDevices();
    /// The event tables (readEventTables) and, beside them on a connection of their own when the export has
    /// them and threads allow, the rows of the evidence tables (readEvidenceRows): kept until applyEvidence().
    void readEventAndEvidenceTables(unsigned threads, std::int64_t parallelFromRows);
    /// The rows of the evidence tables, without the trace's processes, devices or names: COMPOSITE_EVENTS and
    /// SAMPLING_CALLCHAINS (CPU samples and their distinct callchains), CUDA_GPU_MEMORY_USAGE_EVENTS (the running
    /// sum of the allocations (+) and frees (-) per process and device) and GPU_METRICS (with
    /// TARGET_INFO_GPU_METRICS's names). Nothing, and no warning, for a table the export lacks.
    void readEvidenceRows();
    /// The evidence rows read into the trace, after the event tables: the samples of each thread with their
    /// callchains (in the trace's samples, not its events), a `memory allocated` track per process and device,
    /// a counter track per GPU metric and GPU.
    void applyEvidence();
    /// Notes that the file was read without locking, another program holding a write lock on it.
    void warnLocked();
    /// Notes that the file is shorter than its header says, and was read up to where it ends.
    void warnCutOff();
    /// Merges nested API rows that share a correlation id (schema 2.x), names processes, lanes and devices,
    /// and reports what was missing: the trace, to be finished.
    TraceBuilder takeTrace();

private:
    struct GpuKey {
        std::int64_t globalPid = 0;
        std::int64_t device = 0;
        std::int64_t stream = 0;
        friend bool operator==(const GpuKey&, const GpuKey&) = default;
    };
    struct ArgsKey {
        std::int64_t values[9];
        friend bool operator==(const ArgsKey&, const ArgsKey&) = default;
    };
    struct ArgsKeyHash {
        std::size_t operator()(const ArgsKey& key) const noexcept;
    };

    /// `SELECT` of the wanted columns (NULL for optional ones the table lacks); nullopt, noted, when a
    /// required one is missing.
    struct Column {
        std::string_view name;
        bool required;
    };
    std::optional<SqliteStatement> select(
        std::string_view table, const std::vector<Column>& columns, std::string_view tail = {});
    /// The wanted columns, quoted and comma-separated, as select() puts them.
    std::optional<std::string> columnList(std::string_view table, const std::vector<Column>& columns);
    /// Reads every row; false on a read error (noted, the rows before it are kept).
    template <typename OnRow> void forEachRow(std::string_view table, SqliteStatement& statement, OnRow&& onRow);
    /// The same for the large tables: every row of `SELECT columns FROM table tail` into onRow(row, index) by
    /// SqliteDatabase::scan, without a step per row. Problems are noted as select() and forEachRow() note them.
    template <typename OnRow>
    void scanRows(std::string_view table, const std::vector<Column>& columns, std::string_view tail, OnRow&& onRow);

    /// The name the export gives a table, or nullopt (noted as missing) when it has none of nsys's names.
    std::optional<std::string_view> tableName(NsysTable table);
    ProcessIndex process(std::int64_t globalPid);
    /// The device of that id of that process, if its events made one.
    std::optional<DeviceIndex> existingDevice(std::int64_t globalPid, std::int64_t deviceId) const;
    LaneIndex gpuLane(const GpuKey& key);
    LaneIndex threadLane(std::int64_t globalTid);
    ArgsId kernelArgs(const ArgsKey& key);
    /// Before a table's rows: how many it has at most (its largest rowid, found without reading it).
    void beginTable(std::string_view table, const RowRange& range);
    std::int64_t largestRowid(std::string_view table);
    /// Moves the events the other threads read into this import's lanes, remapping names and args.
    /// `lanesBeforeTask[w][t]`: how many lanes worker w had before it read its share of table t (and, last,
    /// after the last table).
    void absorb(std::vector<std::unique_ptr<NsysImport>>& workers,
        const std::vector<std::vector<std::size_t>>& lanesBeforeTask);
    /// Appends a row's event to its lane. The first lanes a table fills are given room for all its rows at once:
    /// a vector that doubles as it grows touches twice its final memory, and the page faults on fresh memory cost
    /// a quarter of an import. Room a lane does not use is address space only; its pages are never touched.
    void addEvent(LaneIndex lane, const Event& e)
    {
        EventVector& events = m_trace.lanes()[lane.value].events;
        if (events.capacity() == 0 && m_lanesReserved < kLanesReservedPerTable) {
            events.reserve(m_tableRowsHint);
            ++m_lanesReserved;
        }
        events.push_back(e);
    }
    void skipRow(std::string_view table, std::uint64_t row, const std::string& why);
    /// A warning whose place is `place` ("table KERNEL, row 7"), or the database as a whole when empty.
    void warn(std::string message, std::string place = {});
    void mergeNestedApiDuplicates();
    void nameThreadsAndProcesses();
    void nameDevices();
    void readSampleRows();
    void readGpuMemoryUsageRows();
    void readGpuMetricRows();
    void applySampleRows();
    void applyGpuMemoryUsageRows();
    void applyGpuMetricRows();

    SqliteDatabase& m_db;
    std::string m_fileName;
    std::set<std::string> m_tables;
    bool m_keepArgs = true;
    TraceBuilder m_trace;
    NsysStrings m_strings;
    bool m_stringsRead = false;

    std::unordered_map<std::int64_t, ProcessIndex> m_processes; // by globalPid
    std::unordered_map<std::int64_t, LaneIndex> m_threadLanes; // by globalTid
    // The lanes of the last few (process, device, stream) keys: kernels of several streams interleave row by row.
    static constexpr std::size_t kRecentGpuLanes = 8;
    std::array<GpuKey, kRecentGpuLanes> m_recentGpuKeys;
    std::array<LaneIndex, kRecentGpuLanes> m_recentGpuLanes {};
    std::size_t m_nextRecentGpuLane = 0;
    // The same for the lanes of the last few threads: the calls of a program's threads interleave row by row.
    static constexpr std::size_t kRecentThreadLanes = 8;
    std::array<std::int64_t, kRecentThreadLanes> m_recentGlobalTids {};
    std::array<LaneIndex, kRecentThreadLanes> m_recentThreadLanes {};
    std::size_t m_nextRecentThreadLane = 0;
    std::unordered_map<ArgsKey, ArgsId, ArgsKeyHash> m_kernelArgs; // element pointers stay valid as it grows
    const std::pair<const ArgsKey, ArgsId>* m_lastArgs = nullptr;
    // Configurations by the low bits of their hash, in front of m_kernelArgs: one compare instead of a lookup.
    static constexpr std::size_t kArgsCacheSlots = 256;
    std::array<const std::pair<const ArgsKey, ArgsId>*, kArgsCacheSlots> m_argsCache {};
    std::map<std::int64_t, std::string> m_nvtxThreadNames; // by globalTid, from nvtxNameOsThread
    std::map<std::int64_t, int> m_ranks; // by globalPid
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> m_contextDevices; // readContextDevices()
    bool m_contextDevicesRead = false;
    std::uint64_t m_syncRowsWithoutWork = 0; // synchronization rows of contexts that ran no GPU work
    NsysEvidenceRows m_evidence; // readEvidenceRows() until applyEvidence()
    std::vector<ImportWarning> m_evidenceWarnings; // what reading them on another connection noted

    static constexpr unsigned kMaxThreads = 4;
    static constexpr int kLanesReservedPerTable = 4;
    static constexpr std::size_t kMaxReservedEvents = std::size_t { 1 } << 25;
    std::size_t m_tableRowsHint = 0;
    int m_lanesReserved = 0;

    std::string m_path;
    bool m_withoutLocking = false;
    bool m_cutOff = false;
    std::int64_t m_rowBase = 0; // rowid of the row before the first one read from the current table
    std::uint64_t m_absorbedMissingNames = 0;

    std::vector<std::string> m_missing; // "TABLE (what it holds)"
    std::uint64_t m_skippedRows = 0;
    std::uint64_t m_mergedApiRows = 0;
    std::uint64_t m_unclosedRanges = 0;
    bool m_runtimeMissing = false;
};

/// The table names nsys has used for each NsysTable (first match wins) and what they hold, in words.
std::vector<std::string_view> nsysTableNames(NsysTable table);
std::string_view nsysTableContent(NsysTable table);

} // namespace gapscope::nsys

// ---- template definitions -------------------------------------------------------------------------------------

namespace gapscope::nsys {

template <typename OnRow> void NsysImport::forEachRow(std::string_view table, SqliteStatement& statement, OnRow&& onRow)
{
    for (std::uint64_t row = 0;; ++row) {
        const SqliteStatement::Step step = statement.step();
        if (step == SqliteStatement::Step::Done)
            return;
        if (step == SqliteStatement::Step::Error) {
            warn("reading stopped after " + std::to_string(row) + " rows: " + m_db.lastError()
                    + "; the rows before were loaded",
                "table " + std::string(table));
            return;
        }
        onRow(row);
    }
}

template <typename OnRow>
void NsysImport::scanRows(
    std::string_view table, const std::vector<Column>& columns, std::string_view tail, OnRow&& onRow)
{
    const std::optional<std::string> list = columnList(table, columns);
    if (!list)
        return;
    struct Context {
        std::remove_reference_t<OnRow>* onRow;
        std::uint64_t row;
    };
    Context context { &onRow, 0 };
    const SqliteDatabase::RowVisitor visit = [](void* c, const SqliteRow& row) {
        auto& ctx = *static_cast<Context*>(c);
        (*ctx.onRow)(row, ctx.row++);
    };
    std::uint64_t rows = 0;
    switch (m_db.scan(*list, "FROM \"" + std::string(table) + "\"" + std::string(tail), visit, &context, rows)) {
    case SqliteDatabase::ScanEnd::Done:
        return;
    case SqliteDatabase::ScanEnd::NotPrepared:
        warn("cannot be read: " + m_db.lastError(), "table " + std::string(table));
        return;
    case SqliteDatabase::ScanEnd::Stopped:
        warn("reading stopped after " + std::to_string(rows) + " rows: " + m_db.lastError()
                + "; the rows before were loaded",
            "table " + std::string(table));
        return;
    }
}

} // namespace gapscope::nsys
