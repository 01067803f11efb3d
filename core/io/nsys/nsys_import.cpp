// SPDX-License-Identifier: MIT
#include "core/io/nsys/nsys_import.h"

#include <algorithm>
#include <array>

namespace gapscope::nsys {

namespace {

struct TableInfo {
    std::array<std::string_view, 2> names; // nsys's names for it, newest first
    std::string_view content;
};

constexpr std::array<TableInfo, static_cast<std::size_t>(NsysTable::Count)> kTables = { {
    { { "CUPTI_ACTIVITY_KIND_KERNEL", {} }, "kernels" },
    { { "CUPTI_ACTIVITY_KIND_MEMCPY", {} }, "memory copies" },
    { { "CUPTI_ACTIVITY_KIND_MEMSET", {} }, "memsets" },
    { { "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", {} }, "synchronization on the GPU side" },
    { { "CUPTI_ACTIVITY_KIND_RUNTIME", {} }, "CUDA runtime and driver calls" },
    { { "CUPTI_ACTIVITY_KIND_DRIVER", {} }, "CUDA driver calls" },
    { { "NVTX_EVENTS", {} }, "NVTX ranges and marks" },
    { { "StringIds", {} }, "the names of kernels, calls and NVTX ranges" },
    { { "ThreadNames", {} }, "thread names" },
    { { "PROCESSES", {} }, "process names" },
    { { "TARGET_INFO_GPU", {} }, "GPU names" },
    { { "TARGET_INFO_CUDA_DEVICE", {} }, "which GPU each CUDA device of a process is" },
    { { "META_DATA_EXPORT", "EXPORT_META_DATA" }, "the nsys version that wrote the export" },
} };

std::uint64_t mix(std::uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

bool byStartThenLongest(const Event& a, const Event& b)
{
    return a.start != b.start ? a.start < b.start : a.end > b.end;
}

} // namespace

std::vector<std::string_view> nsysTableNames(NsysTable table)
{
    std::vector<std::string_view> names;
    for (const std::string_view name : kTables[static_cast<std::size_t>(table)].names) {
        if (!name.empty())
            names.push_back(name);
    }
    return names;
}

std::string_view nsysTableContent(NsysTable table)
{
    return kTables[static_cast<std::size_t>(table)].content;
}

std::size_t NsysImport::ArgsKeyHash::operator()(const ArgsKey& key) const noexcept
{
    std::uint64_t h = 0;
    for (const std::int64_t v : key.values)
        h = mix(h ^ static_cast<std::uint64_t>(v));
    return static_cast<std::size_t>(h);
}

NsysImport::NsysImport(SqliteDatabase& db, std::string fileName, const std::vector<std::string>& tables, bool keepArgs)
    : m_db(db)
    , m_fileName(std::move(fileName))
    , m_tables(tables.begin(), tables.end())
    , m_keepArgs(keepArgs)
{ }

bool NsysImport::looksLikeNsysExport() const
{
    for (std::size_t t = 0; t < kTables.size(); ++t) {
        for (const std::string_view name : kTables[t].names) {
            if (!name.empty() && has(name))
                return true;
        }
    }
    return false;
}

void NsysImport::warn(std::string message)
{
    m_trace.warnings.push_back(ImportWarning { m_fileName, 0, std::move(message) });
}

void NsysImport::warnLocked()
{
    warn("another program holds a write lock on this database (is `nsys export` still writing it?): it was read "
         "as it is on disk now, without waiting; what that program has not yet written is missing");
}

void NsysImport::warnCutOff()
{
    warn("the database is damaged or cut off (shorter than its header says): the tables were read as far as "
         "the file holds them");
}

void NsysImport::skipRow(std::string_view table, std::uint64_t row, const std::string& why)
{
    ++m_trace.skippedEvents;
    constexpr std::uint64_t kMaxSkipWarnings = 20;
    if (m_skippedWarnings++ < kMaxSkipWarnings)
        warn("table " + std::string(table) + ", row " + std::to_string(row + 1) + " skipped: " + why);
}

std::optional<SqliteStatement> NsysImport::select(
    std::string_view table, const std::vector<Column>& columns, std::string_view tail)
{
    const std::vector<std::string> present = m_db.columns(table);
    std::string sql = "SELECT ";
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const Column& c = columns[i];
        const bool found = std::find(present.begin(), present.end(), c.name) != present.end();
        if (!found && c.required) {
            warn("table " + std::string(table) + " has no column " + std::string(c.name)
                + " (an nsys version this build does not know?): the table was not read");
            return std::nullopt;
        }
        if (i)
            sql += ", ";
        sql += found ? "\"" + std::string(c.name) + "\"" : std::string("NULL");
    }
    sql += " FROM \"" + std::string(table) + "\"";
    sql += tail;
    auto statement = m_db.prepare(sql);
    if (!statement)
        warn("table " + std::string(table) + " cannot be read: " + m_db.lastError());
    return statement;
}

ProcessIndex NsysImport::process(std::int64_t globalPid)
{
    if (const auto it = m_processes.find(globalPid); it != m_processes.end())
        return it->second;
    Process p;
    p.pid = pidOf(globalPid);
    p.sourceFile = m_fileName;
    const ProcessIndex index = m_trace.addProcess(std::move(p));
    m_processes.emplace(globalPid, index);
    return index;
}

LaneIndex NsysImport::gpuLane(const GpuKey& key)
{
    if (key == m_lastGpuKey)
        return m_lastGpuLane;
    const ProcessIndex p = process(globalPidOf(key.globalPid));
    // CUPTI writes "no stream" as 0xffffffff; Kineto writes it as -1, and so do we.
    const std::int64_t stream = key.stream == 0xffffffffll ? -1 : key.stream;
    const DeviceIndex device = m_trace.device(p, static_cast<int>(key.device));
    m_lastGpuKey = key;
    m_lastGpuLane = m_trace.streamLane(device, stream);
    return m_lastGpuLane;
}

LaneIndex NsysImport::threadLane(std::int64_t globalTid)
{
    if (globalTid == m_lastGlobalTid)
        return m_lastThreadLane;
    auto it = m_threadLanes.find(globalTid);
    if (it == m_threadLanes.end())
        it = m_threadLanes.emplace(globalTid, m_trace.threadLane(process(globalPidOf(globalTid)), tidOf(globalTid)))
                 .first;
    m_lastGlobalTid = globalTid;
    m_lastThreadLane = it->second;
    return it->second;
}

ArgsId NsysImport::kernelArgs(const ArgsKey& key)
{
    if (const auto it = m_kernelArgs.find(key); it != m_kernelArgs.end())
        return it->second;
    // The keys Kineto writes for a kernel's launch configuration; identical configurations share one text.
    const auto* v = key.values;
    std::string json = "{\"grid\":[" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2])
        + "],\"block\":[" + std::to_string(v[3]) + "," + std::to_string(v[4]) + "," + std::to_string(v[5])
        + "],\"registers per thread\":" + std::to_string(v[6]) + ",\"shared memory\":" + std::to_string(v[7] + v[8])
        + "}";
    const ArgsId id = m_trace.addArgs(std::move(json));
    m_kernelArgs.emplace(key, id);
    return id;
}

void NsysImport::mergeNestedApiDuplicates()
{
    // Exports of schema 2.x hold two rows for one call, with one correlation id: the call as the application
    // made it (cudaLaunchKernel, with its backtrace) and, nested inside, the versioned entry point it reached
    // (cudaLaunchKernel_v7000). One call is one event: the inner row goes, and the GPU op links to the outer.
    std::vector<const Event*> open;
    for (Lane& lane : m_trace.lanes) {
        if (lane.kind != LaneKind::CpuThread || lane.events.empty())
            continue;
        if (!std::is_sorted(lane.events.begin(), lane.events.end(), byStartThenLongest))
            std::stable_sort(lane.events.begin(), lane.events.end(), byStartThenLongest);
        std::vector<bool> drop;
        open.clear();
        for (std::size_t i = 0; i < lane.events.size(); ++i) {
            const Event& e = lane.events[i];
            const bool api = e.kind == EventKind::RuntimeApi || e.kind == EventKind::DriverApi;
            if (!api || e.correlation == 0)
                continue;
            while (!open.empty() && open.back()->end < e.start)
                open.pop_back();
            bool nested = false;
            for (const Event* outer : open) {
                if (outer->correlation == e.correlation && e.end <= outer->end) {
                    nested = true;
                    break;
                }
            }
            if (nested) {
                if (drop.empty())
                    drop.assign(lane.events.size(), false);
                drop[i] = true;
                ++m_mergedApiRows;
                continue;
            }
            if (open.size() == 64) // calls overlap without nesting only in a damaged file: bound the scan
                open.erase(open.begin());
            open.push_back(&e);
        }
        if (drop.empty())
            continue;
        std::size_t out = 0;
        for (std::size_t i = 0; i < lane.events.size(); ++i) {
            if (!drop[i])
                lane.events[out++] = lane.events[i];
        }
        lane.events.resize(out);
    }
}

Trace NsysImport::finish()
{
    mergeNestedApiDuplicates();
    nameThreadsAndProcesses();
    nameDevices();
    for (const auto& [globalPid, rank] : m_ranks) {
        if (const auto it = m_processes.find(globalPid); it != m_processes.end())
            m_trace.processes[it->second.value].rank = rank;
    }
    if (m_mergedApiRows > 0) {
        warn(std::to_string(m_mergedApiRows)
            + " CUDA API rows nested in a call with the same correlation id (cudaLaunchKernel_v7000 inside "
              "cudaLaunchKernel, as exports of schema 2.x hold them) were merged into that call");
    }
    if (m_runtimeMissing && !m_trace.devices.empty()) {
        warn("no CUPTI_ACTIVITY_KIND_RUNTIME table: the GPU ops have no launch calls, so the causes of their gaps "
             "are unknown (export with CUDA API tracing on: nsys profile --trace=cuda)");
    }
    if (m_unclosedRanges > 0) {
        warn(std::to_string(m_unclosedRanges)
            + " NVTX ranges have no end (the capture stopped while they were open) and were skipped");
    }
    if (m_strings.missing() > 0) {
        warn(std::to_string(m_strings.missing()) + " names refer to ids that StringIds lacks: shown as [string N]");
    }
    if (m_skippedWarnings > 20)
        warn(std::to_string(m_skippedWarnings - 20) + " more rows were skipped");
    if (!m_missing.empty()) {
        std::string text = "tables not in this export (nothing of their kind was recorded or exported): ";
        for (std::size_t i = 0; i < m_missing.size(); ++i)
            text += (i ? ", " : "") + m_missing[i];
        warn(std::move(text));
    }
    m_trace.finalize();
    return std::move(m_trace);
}

} // namespace gapscope::nsys
