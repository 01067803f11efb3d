// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/nsys/nsys_strings.h"
#include "core/io/nsys/sqlite_database.h"
#include "core/model/trace.h"

#include <cstdint>
#include <map>
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
    Nvtx,
    StringIds,
    ThreadNames,
    Processes,
    TargetGpu,
    TargetCudaDevice,
    ExportMetadata,
    Count,
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

    void readStrings();
    void readExportMetadata();
    void readGpuActivity(NsysTable table);
    void readApiCalls(NsysTable table);
    void readNvtx();
    void readRanks();
    /// Notes that the file was read without locking, another program holding a write lock on it.
    void warnLocked();
    /// Notes that the file is shorter than its header says, and was read up to where it ends.
    void warnCutOff();
    /// Merges nested API rows that share a correlation id (schema 2.x), names processes, lanes and devices,
    /// reports what was missing, and finalizes.
    Trace finish();

private:
    struct GpuKey {
        std::int64_t globalPid;
        std::int64_t device;
        std::int64_t stream;
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
    /// Reads every row; false on a read error (noted, the rows before it are kept).
    template <typename OnRow> void forEachRow(std::string_view table, SqliteStatement& statement, OnRow&& onRow);

    /// The name the export gives a table, or nullopt (noted as missing) when it has none of nsys's names.
    std::optional<std::string_view> tableName(NsysTable table);
    ProcessIndex process(std::int64_t globalPid);
    LaneIndex gpuLane(const GpuKey& key);
    LaneIndex threadLane(std::int64_t globalTid);
    ArgsId kernelArgs(const ArgsKey& key);
    void skipRow(std::string_view table, std::uint64_t row, const std::string& why);
    void warn(std::string message);
    void mergeNestedApiDuplicates();
    void nameThreadsAndProcesses();
    void nameDevices();

    SqliteDatabase& m_db;
    std::string m_fileName;
    std::set<std::string> m_tables;
    bool m_keepArgs = true;
    Trace m_trace;
    NsysStrings m_strings;
    bool m_stringsRead = false;

    std::unordered_map<std::int64_t, ProcessIndex> m_processes; // by globalPid
    std::unordered_map<std::int64_t, LaneIndex> m_threadLanes; // by globalTid
    GpuKey m_lastGpuKey { -1, -1, -1 };
    LaneIndex m_lastGpuLane;
    std::int64_t m_lastGlobalTid = -1;
    LaneIndex m_lastThreadLane;
    std::unordered_map<ArgsKey, ArgsId, ArgsKeyHash> m_kernelArgs;
    std::map<std::int64_t, std::string> m_nvtxThreadNames; // by globalTid, from nvtxNameOsThread
    std::map<std::int64_t, int> m_ranks; // by globalPid

    std::vector<std::string> m_missing; // "TABLE (what it holds)"
    std::uint64_t m_skippedWarnings = 0;
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
            warn("table " + std::string(table) + ": reading stopped after " + std::to_string(row)
                + " rows: " + m_db.lastError() + "; the rows before were loaded");
            return;
        }
        onRow(row);
    }
}

} // namespace gapscope::nsys
