// SPDX-License-Identifier: MIT
#include "core/io/nsys/nsys_import.h"
#include "core/io/common/skipped_warnings.h"
#include "core/model/lane_order.h"
#include "core/parallel_for.h"

#include <algorithm>
#include <array>
#include <bit>

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
    { { "OSRT_API", {} }, "OS runtime calls" },
    { { "NVTX_EVENTS", {} }, "NVTX ranges and marks" },
    { { "StringIds", {} }, "the names of kernels, calls and NVTX ranges" },
    { { "ThreadNames", {} }, "thread names" },
    { { "PROCESSES", {} }, "process names" },
    { { "TARGET_INFO_GPU", {} }, "GPU names" },
    { { "TARGET_INFO_CUDA_DEVICE", {} }, "which GPU each CUDA device of a process is" },
    { { "META_DATA_EXPORT", "EXPORT_META_DATA" }, "the nsys version that wrote the export" },
} };

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
    // Launch configurations are small numbers: each value rotated in, then one multiply spreads them (a
    // multiply per value cost a fifth of a kernel row's own work).
    std::uint64_t h = 0;
    for (const std::int64_t v : key.values)
        h = std::rotl(h, 7) ^ static_cast<std::uint64_t>(v);
    h *= 0x9e3779b97f4a7c15ull;
    return static_cast<std::size_t>(h ^ (h >> 32));
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

void NsysImport::warn(std::string message, std::string place)
{
    m_trace.warnings().push_back(ImportWarning {
        m_fileName, 0, std::move(message), place.empty() ? "in the SQLite database" : std::move(place) });
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
    ++m_trace.skippedEvents();
    if (listsSkip(++m_skippedRows))
        warn("skipped: " + why,
            "table " + std::string(table) + ", row " + std::to_string(m_rowBase + static_cast<std::int64_t>(row) + 1));
}

std::optional<std::string> NsysImport::columnList(std::string_view table, const std::vector<Column>& columns)
{
    const std::vector<std::string> present = m_db.columns(table);
    std::string list;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const Column& c = columns[i];
        const bool found = std::find(present.begin(), present.end(), c.name) != present.end();
        if (!found && c.required) {
            warn("no column " + std::string(c.name)
                    + " (an nsys version this build does not know?): the table was not read",
                "table " + std::string(table));
            return std::nullopt;
        }
        if (i)
            list += ", ";
        list += found ? "\"" + std::string(c.name) + "\"" : std::string("NULL");
    }
    return list;
}

std::optional<SqliteStatement> NsysImport::select(
    std::string_view table, const std::vector<Column>& columns, std::string_view tail)
{
    const std::optional<std::string> list = columnList(table, columns);
    if (!list)
        return std::nullopt;
    auto statement = m_db.prepare("SELECT " + *list + " FROM \"" + std::string(table) + "\"" + std::string(tail));
    if (!statement)
        warn("cannot be read: " + m_db.lastError(), "table " + std::string(table));
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
    const std::size_t filled = std::min(m_nextRecentGpuLane, kRecentGpuLanes);
    for (std::size_t i = 0; i < filled; ++i) {
        if (m_recentGpuKeys[i] == key)
            return m_recentGpuLanes[i];
    }
    const ProcessIndex p = process(globalPidOf(key.globalPid));
    // CUPTI writes "no stream" as 0xffffffff; Kineto writes it as -1, and so do we.
    const std::int64_t stream = key.stream == 0xffffffffll ? -1 : key.stream;
    const DeviceIndex device = m_trace.device(p, static_cast<int>(key.device));
    const LaneIndex lane = m_trace.streamLane(device, stream);
    const std::size_t slot = m_nextRecentGpuLane++ % kRecentGpuLanes;
    m_recentGpuKeys[slot] = key;
    m_recentGpuLanes[slot] = lane;
    return lane;
}

LaneIndex NsysImport::threadLane(std::int64_t globalTid)
{
    const std::size_t filled = std::min(m_nextRecentThreadLane, kRecentThreadLanes);
    for (std::size_t i = 0; i < filled; ++i) {
        if (m_recentGlobalTids[i] == globalTid)
            return m_recentThreadLanes[i];
    }
    auto it = m_threadLanes.find(globalTid);
    if (it == m_threadLanes.end())
        it = m_threadLanes.emplace(globalTid, m_trace.threadLane(process(globalPidOf(globalTid)), tidOf(globalTid)))
                 .first;
    const std::size_t slot = m_nextRecentThreadLane++ % kRecentThreadLanes;
    m_recentGlobalTids[slot] = globalTid;
    m_recentThreadLanes[slot] = it->second;
    return it->second;
}

std::string RowRange::whereClause() const
{
    if (whole)
        return {};
    // SQLite seeks to the first rowid, but tests the last on every row (two VDBE opcodes, 8 % of a launch row's
    // instructions): the last share of a table, which runs to its end, goes without the test.
    std::string clause = " WHERE rowid >= " + std::to_string(first);
    return toEnd ? clause : clause + " AND rowid <= " + std::to_string(last);
}

void NsysImport::setOpenMode(std::string path, bool withoutLocking, bool cutOff)
{
    m_path = std::move(path);
    m_withoutLocking = withoutLocking;
    m_cutOff = cutOff;
}

std::int64_t NsysImport::largestRowid(std::string_view table)
{
    auto statement = m_db.prepare("SELECT max(rowid) FROM \"" + std::string(table) + "\"");
    if (statement && statement->step() == SqliteStatement::Step::Row)
        return std::max<std::int64_t>(statement->integer(0), 0);
    return 0;
}

void NsysImport::beginTable(std::string_view table, const RowRange& range)
{
    m_lanesReserved = 0;
    m_rowBase = range.whole ? 0 : range.first - 1;
    const std::int64_t rows = range.reserveRows > 0 ? range.reserveRows
        : range.whole                               ? largestRowid(table)
                                                    : range.last - range.first + 1;
    m_tableRowsHint = std::min(static_cast<std::size_t>(std::max<std::int64_t>(rows, 0)), kMaxReservedEvents);
}

void NsysImport::readEventTables(unsigned threads, std::int64_t parallelFromRows)
{
    struct Task {
        NsysTable table;
        std::int64_t rows;
    };
    std::vector<Task> tasks;
    std::int64_t total = 0;
    for (const NsysTable table : { NsysTable::Kernel, NsysTable::Memcpy, NsysTable::Memset, NsysTable::Synchronization,
             NsysTable::Runtime, NsysTable::Driver, NsysTable::OsRuntime }) {
        if (table == NsysTable::Driver && !has(nsysTableNames(table).front()))
            continue; // not written by any nsys seen so far: not listed as missing
        const auto name = tableName(table);
        if (!name)
            continue;
        tasks.push_back(Task { table, largestRowid(*name) });
        total += tasks.back().rows;
    }
    threads = std::min(threadsOrCores(threads), kMaxThreads);
    if (!m_contextDevicesRead && has(nsysTableNames(NsysTable::Synchronization).front()))
        readContextDevices();
    std::vector<std::unique_ptr<SqliteDatabase>> connections;
    std::vector<std::unique_ptr<NsysImport>> workers;
    if (threads > 1 && total >= parallelFromRows && !m_path.empty()) {
        const std::vector<std::string> tables(m_tables.begin(), m_tables.end());
        for (unsigned w = 0; w < threads; ++w) {
            auto db = std::make_unique<SqliteDatabase>(m_path, m_withoutLocking);
            if (!db->isOpen() || (m_cutOff && !db->tolerateCutOffFile()))
                break;
            auto worker = std::make_unique<NsysImport>(*db, m_fileName, tables, m_keepArgs);
            worker->m_strings = m_strings.copyWithoutInterned();
            worker->m_contextDevices = m_contextDevices;
            worker->m_contextDevicesRead = m_contextDevicesRead;
            connections.push_back(std::move(db));
            workers.push_back(std::move(worker));
        }
    }
    if (workers.size() < 2) {
        for (const Task& task : tasks)
            readEventTable(task.table);
        return;
    }
    // Each worker reads the same share of every table: the shares take the same time, whatever the tables hold.
    const auto count = static_cast<std::int64_t>(workers.size());
    std::vector<std::vector<std::size_t>> lanesBeforeTask(workers.size()); // and after the last
    parallelFor(workers.size(), static_cast<unsigned>(workers.size()), [&](std::size_t index) {
        const auto w = static_cast<std::int64_t>(index);
        NsysImport& worker = *workers[index];
        std::vector<std::size_t>& marks = lanesBeforeTask[index];
        for (const Task& task : tasks) {
            marks.push_back(worker.m_trace.lanes().size());
            // Worker 0's lanes become the trace's (absorb()): room for the whole table, so that the other
            // shares are appended to them without moving them.
            const RowRange range { task.rows * w / count + 1, task.rows * (w + 1) / count, false,
                w == 0 ? task.rows : 0, w == count - 1 };
            if (range.last < range.first)
                continue;
            worker.readEventTable(task.table, range);
        }
        marks.push_back(worker.m_trace.lanes().size());
    });
    absorb(workers, lanesBeforeTask);
}

void NsysImport::absorb(
    std::vector<std::unique_ptr<NsysImport>>& workers, const std::vector<std::vector<std::size_t>>& lanesBeforeTask)
{
    // First where each worker lane goes, in the order one thread would have made the lanes (table by table, and
    // within a table in row order: worker 0's rows come first), and how much each lane receives; then one
    // reservation per lane and one copy of each event.
    std::vector<std::vector<LaneIndex>> targets(workers.size());
    std::vector<std::vector<std::int64_t>> globalPidOf(workers.size());
    std::vector<std::vector<std::int64_t>> globalTidOf(workers.size());
    for (std::size_t w = 0; w < workers.size(); ++w) {
        const NsysImport& worker = *workers[w];
        targets[w].resize(worker.m_trace.lanes().size());
        globalPidOf[w].resize(worker.m_trace.processes().size(), 0);
        for (const auto& [globalPid, p] : worker.m_processes)
            globalPidOf[w][p.value] = globalPid;
        globalTidOf[w].resize(worker.m_trace.lanes().size(), 0);
        for (const auto& [globalTid, lane] : worker.m_threadLanes)
            globalTidOf[w][lane.value] = globalTid;
    }
    std::vector<std::size_t> incoming;
    const std::size_t taskCount = lanesBeforeTask.empty() ? 0 : lanesBeforeTask.front().size() - 1;
    for (std::size_t t = 0; t < taskCount; ++t) {
        for (std::size_t w = 0; w < workers.size(); ++w) {
            const TraceBuilder& src = workers[w]->m_trace;
            for (std::size_t l = lanesBeforeTask[w][t]; l < lanesBeforeTask[w][t + 1]; ++l) {
                const Lane& lane = src.lanes()[l];
                const LaneIndex to = lane.kind == LaneKind::GpuStream
                    ? gpuLane(
                        GpuKey { globalPidOf[w][lane.process.value], src.devices()[lane.device.value].id, lane.stream })
                    : threadLane(globalTidOf[w][l]);
                targets[w][l] = to;
                incoming.resize(m_trace.lanes().size(), 0);
                incoming[to.value] += lane.events.size();
            }
        }
    }
    // Worker 0's share comes first in each of its lanes, and the trace's lanes are empty: its vectors become
    // the lanes, renumbered in place, and only the other shares are copied (a copy of every event touched twice
    // the memory, and fresh pages cost their clearing by the kernel).
    NsysImport& first = *workers.front();
    std::vector<bool> moved(first.m_trace.lanes().size(), false);
    for (std::size_t l = 0; l < first.m_trace.lanes().size(); ++l) {
        EventVector& to = m_trace.lanes()[targets[0][l].value].events;
        if (to.empty() && to.capacity() == 0) {
            to.swap(first.m_trace.lanes()[l].events);
            moved[l] = true;
        }
    }
    for (std::size_t l = 0; l < incoming.size(); ++l) {
        EventVector& events = m_trace.lanes()[l].events;
        if (events.capacity() >= incoming[l])
            continue;
        EventVector bigger;
        bigger.reserve(incoming[l]);
        bigger.insert(bigger.end(), events.begin(), events.end());
        events.swap(bigger);
    }
    // The workers' names and args in the trace's tables: every one of them names an event (a worker interns a
    // name or adds a configuration when a row needs it). Then the lanes are independent: each target lane takes
    // its sources in worker order, half of the events on a second thread.
    std::vector<std::vector<StringId>> names(workers.size());
    std::vector<std::vector<ArgsId>> args(workers.size());
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> sources(m_trace.lanes().size()); // (w, l)
    for (std::size_t w = 0; w < workers.size(); ++w) {
        const TraceBuilder& src = workers[w]->m_trace;
        for (std::uint32_t i = 0; i < src.strings().size(); ++i)
            names[w].push_back(m_trace.strings().intern(src.strings().view(StringId { i })));
        for (std::uint32_t i = 0; i < src.args().size(); ++i)
            args[w].push_back(m_trace.addArgs(src.args()[i]));
        for (std::size_t l = 0; l < src.lanes().size(); ++l)
            sources[targets[w][l].value].emplace_back(w, l);
    }
    const auto fillLanes = [&](std::size_t begin, std::size_t end) {
        for (std::size_t target = begin; target < end; ++target) {
            EventVector& to = m_trace.lanes()[target].events;
            for (const auto& [w, l] : sources[target]) {
                const auto renumber = [&names = names[w], &args = args[w]](Event& e) {
                    e.name = names[e.name.value];
                    if (e.args != kNoArgs)
                        e.args = args[e.args.value];
                };
                if (w == 0 && moved[l]) {
                    for (Event& e : to)
                        renumber(e);
                    continue;
                }
                EventVector& from = workers[w]->m_trace.lanes()[l].events;
                for (Event e : from) {
                    renumber(e);
                    to.push_back(e);
                }
                EventVector().swap(from); // the worker's copy goes as soon as it is moved: the peak stays low
            }
        }
    };
    std::size_t total = 0;
    for (const std::size_t n : incoming)
        total += n;
    const std::size_t split = halfWeightSplit(incoming.size(), total, [&](std::size_t l) { return incoming[l]; });
    const std::size_t bounds[] = { 0, split, sources.size() };
    parallelFor(2, 2, [&](std::size_t part) { fillLanes(bounds[part], bounds[part + 1]); });
    for (const auto& worker : workers) {
        m_trace.skippedEvents() += worker->m_trace.skippedEvents();
        m_skippedRows += worker->m_skippedRows;
        m_syncRowsWithoutWork += worker->m_syncRowsWithoutWork;
        m_absorbedMissingNames += worker->m_strings.missing();
        m_trace.warnings().insert(
            m_trace.warnings().end(), worker->m_trace.warnings().begin(), worker->m_trace.warnings().end());
    }
}

ArgsId NsysImport::kernelArgs(const ArgsKey& key)
{
    // A kernel is often launched many times in a row: the same configuration as the row before.
    if (m_lastArgs && m_lastArgs->first == key)
        return m_lastArgs->second;
    const std::pair<const ArgsKey, ArgsId>*& cached = m_argsCache[ArgsKeyHash {}(key) % kArgsCacheSlots];
    if (cached && cached->first == key) {
        m_lastArgs = cached;
        return cached->second;
    }
    if (const auto it = m_kernelArgs.find(key); it != m_kernelArgs.end()) {
        m_lastArgs = cached = &*it;
        return it->second;
    }
    // The keys Kineto writes for a kernel's launch configuration; identical configurations share one text.
    const auto* v = key.values;
    std::string json = "{\"grid\":[" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2])
        + "],\"block\":[" + std::to_string(v[3]) + "," + std::to_string(v[4]) + "," + std::to_string(v[5])
        + "],\"registers per thread\":" + std::to_string(v[6]) + ",\"shared memory\":" + std::to_string(v[7] + v[8])
        + "}";
    const ArgsId id = m_trace.addArgs(std::move(json));
    m_lastArgs = cached = &*m_kernelArgs.emplace(key, id).first;
    return id;
}

void NsysImport::mergeNestedApiDuplicates()
{
    // Exports of schema 2.x hold two rows for one call, with one correlation id: the call as the application
    // made it (cudaLaunchKernel, with its backtrace) and, nested inside, the versioned entry point it reached
    // (cudaLaunchKernel_v7000). One call is one event: the inner row goes, and the GPU op links to the outer.
    std::vector<const Event*> open;
    for (Lane& lane : m_trace.lanes()) {
        if (lane.kind != LaneKind::CpuThread || lane.events.empty())
            continue;
        if (!std::is_sorted(lane.events.begin(), lane.events.end(), laneOrder))
            std::stable_sort(lane.events.begin(), lane.events.end(), laneOrder);
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

TraceBuilder NsysImport::takeTrace()
{
    mergeNestedApiDuplicates();
    nameThreadsAndProcesses();
    nameDevices();
    for (const auto& [globalPid, rank] : m_ranks) {
        if (const auto it = m_processes.find(globalPid); it != m_processes.end())
            m_trace.processes()[it->second.value].rank = rank;
    }
    if (m_mergedApiRows > 0) {
        warn(std::to_string(m_mergedApiRows)
            + " CUDA API rows nested in a call with the same correlation id (cudaLaunchKernel_v7000 inside "
              "cudaLaunchKernel, as exports of schema 2.x hold them) were merged into that call");
    }
    if (m_runtimeMissing && !m_trace.devices().empty()) {
        warn("no CUPTI_ACTIVITY_KIND_RUNTIME table: the GPU ops have no launch calls, so the causes of their gaps "
             "are unknown (export with CUDA API tracing on: nsys profile --trace=cuda)");
    }
    if (m_syncRowsWithoutWork > 0) {
        warn(std::to_string(m_syncRowsWithoutWork)
            + " synchronization rows name a CUDA context that ran no kernel, copy or memset: their device is "
              "unknown (nsys writes 0 in their deviceId column), so they were skipped rather than shown on a "
              "device that may not exist");
    }
    if (m_unclosedRanges > 0) {
        warn(std::to_string(m_unclosedRanges)
            + " NVTX ranges have no end (the capture stopped while they were open) and were skipped");
    }
    if (const std::uint64_t missing = m_strings.missing() + m_absorbedMissingNames; missing > 0)
        warn(std::to_string(missing) + " names refer to ids that StringIds lacks: shown as [string N]");
    if (auto unlisted = unlistedSkipsWarning(m_skippedRows, "rows"))
        warn(std::move(*unlisted));
    if (!m_missing.empty()) {
        std::string text = "tables not in this export (nothing of their kind was recorded or exported): ";
        for (std::size_t i = 0; i < m_missing.size(); ++i)
            text += (i ? ", " : "") + m_missing[i];
        warn(std::move(text));
    }
    return std::move(m_trace);
}

} // namespace gapscope::nsys
