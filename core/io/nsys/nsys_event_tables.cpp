// SPDX-License-Identifier: MIT
// The event tables of an nsys export: GPU activity (kernels, copies, memsets, synchronization), CUDA API calls
// and NVTX. One prepared statement per table, one pass, each row routed into its lane as it is read.
#include "core/io/nsys/nsys_import.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>
#include <map>
#include <tuple>

namespace gapscope::nsys {

namespace {

std::uint32_t correlationOf(std::int64_t value)
{
    return value > 0 && value <= std::numeric_limits<std::uint32_t>::max() ? static_cast<std::uint32_t>(value) : 0;
}

// ENUM_CUDA_MEMCPY_OPER: the CUPTI copy kinds, then the unified-memory migrations (11-13).
CopyKind copyKindOf(std::int64_t value)
{
    if (value >= 0 && value <= static_cast<std::int64_t>(CopyKind::PtoP))
        return static_cast<CopyKind>(value);
    switch (value) {
    case 11:
        return CopyKind::HtoD;
    case 12:
        return CopyKind::DtoH;
    case 13:
        return CopyKind::DtoD;
    default:
        return CopyKind::Unknown;
    }
}

// ENUM_CUDA_MEM_KIND (nsys's order, not CUPTI's), worded as Kineto words memory kinds in copy names.
std::string_view memoryKindName(std::int64_t value)
{
    constexpr std::array<std::string_view, 8> kNames
        = { "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static", "Managed Static", "Unknown" };
    return value >= 0 && value < static_cast<std::int64_t>(kNames.size()) ? kNames[static_cast<std::size_t>(value)]
                                                                          : std::string_view("Unknown");
}

// CUPTI_ACTIVITY_KIND_SYNCHRONIZATION.syncType, named as Kineto names its cuda_sync events. The values are not
// those of the ENUM_CUPTI_SYNC_TYPE table the same exports carry (CUPTI's order): in real exports
// cudaDeviceSynchronize rows hold 1 and cudaStreamSynchronize rows 2 (tests/data: CloverLeaf, mock.sqlite), which
// is CUPTI's order reversed; 3 and 4 follow that order.
std::string_view syncName(std::int64_t value)
{
    switch (value) {
    case 1:
        return "Context Sync";
    case 2:
        return "Stream Sync";
    case 3:
        return "Stream Wait Event";
    case 4:
        return "Event Sync";
    default:
        return "Unknown Sync";
    }
}

// ENUM_NSYS_EVENT_TYPE values of NVTX_EVENTS rows.
constexpr std::int64_t kNvtxMark = 34;
constexpr std::int64_t kNvtxThread = 39; // nvtxNameOsThread
constexpr std::int64_t kNvtxPushPopRange = 59;
constexpr std::int64_t kNvtxStartEndRange = 60;
constexpr std::int64_t kNvtxDomainCreate = 75;
// ENUM_NSYS_EVENT_CLASS value of CUPTI_ACTIVITY_KIND_RUNTIME rows that are driver calls.
constexpr std::int64_t kCudaDriverClass = 1;
// ENUM_NSYS_EVENT_CLASS values of the OSRT_API rows that mark where OS runtime tracing started and finished
// (zero-length, on a thread id 0 of the process, named "OS runtime libraries profiling started"): not calls.
constexpr std::int64_t kOsRuntimeStartClass = 31;
constexpr std::int64_t kOsRuntimeFinishClass = 32;

std::optional<int> mpiRankFromThreadName(std::string_view name)
{
    // Nsight Systems' MPI tracing names the main thread "MPI Rank N".
    constexpr std::string_view prefix = "MPI Rank ";
    if (!name.starts_with(prefix))
        return std::nullopt;
    int rank = 0;
    const std::string_view digits = name.substr(prefix.size());
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), rank);
    if (ec != std::errc() || end != digits.data() + digits.size() || rank < 0)
        return std::nullopt;
    return rank;
}

} // namespace

std::optional<std::string_view> NsysImport::tableName(NsysTable table)
{
    for (const std::string_view name : nsysTableNames(table)) {
        if (has(name))
            return name;
    }
    std::string names;
    for (const std::string_view name : nsysTableNames(table))
        names += (names.empty() ? "" : " or ") + std::string(name);
    m_missing.push_back(names + " (" + std::string(nsysTableContent(table)) + ")");
    if (table == NsysTable::Runtime)
        m_runtimeMissing = true;
    return std::nullopt;
}

void NsysImport::readGpuActivity(NsysTable table, RowRange range)
{
    const auto name = tableName(table);
    if (!name)
        return;
    std::vector<Column> columns = { { "start", true }, { "end", true }, { "deviceId", true }, { "streamId", true },
        { "correlationId", false }, { "globalPid", false } };
    switch (table) {
    case NsysTable::Kernel: {
        const std::vector<std::string> present = m_db.columns(*name);
        const bool demangled = std::find(present.begin(), present.end(), "demangledName") != present.end();
        columns.push_back({ demangled ? "demangledName" : "shortName", true });
        for (const std::string_view c : { "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ", "registersPerThread",
                 "staticSharedMemory", "dynamicSharedMemory" })
            columns.push_back({ m_keepArgs ? c : std::string_view(), false }); // unnamed: NULL, not read
        break;
    }
    case NsysTable::Memcpy:
        columns.insert(
            columns.end(), { { "bytes", false }, { "copyKind", false }, { "srcKind", false }, { "dstKind", false } });
        break;
    case NsysTable::Memset:
        columns.insert(columns.end(), { { "bytes", false }, { "memKind", false } });
        break;
    case NsysTable::Synchronization:
        columns.insert(columns.end(), { { "syncType", false }, { "contextId", false } });
        if (!m_contextDevicesRead)
            readContextDevices();
        break;
    default:
        return;
    }
    beginTable(*name, range);
    std::array<StringId, 8> syncNames {};
    std::map<std::tuple<int, std::int64_t, std::int64_t>, StringId> copyNames;
    scanRows(*name, columns, range.whereClause(), [&](const SqliteRow& s, std::uint64_t row) {
        Event e;
        e.start = s.integer(0);
        e.end = s.integer(1);
        if (e.end < e.start) {
            skipRow(*name, row, "it ends before it starts");
            return;
        }
        e.correlation = correlationOf(s.integer(4));
        GpuKey key { s.integer(5), s.integer(2), s.integer(3) };
        if (table == NsysTable::Synchronization && !s.isNull(7)) {
            const auto device = m_contextDevices.find({ globalPidOf(key.globalPid), s.integer(7) });
            if (device == m_contextDevices.end()) {
                ++m_syncRowsWithoutWork;
                ++m_trace.skippedEvents();
                return;
            }
            key.device = device->second;
        }
        switch (table) {
        case NsysTable::Kernel:
            e.kind = EventKind::Kernel;
            e.name = m_strings.name(s.integer(6), m_trace);
            if (m_keepArgs && !s.isNull(7)) {
                ArgsKey args;
                for (int i = 0; i < 9; ++i)
                    args.values[i] = s.integer(7 + i);
                e.args = kernelArgs(args);
            }
            break;
        case NsysTable::Memcpy: {
            e.kind = EventKind::Memcpy;
            e.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(s.integer(6), 0));
            e.copyKind = copyKindOf(s.integer(7));
            // Named as Kineto names copies: "Memcpy HtoD (Pageable -> Device)".
            const auto nameKey = std::make_tuple(
                static_cast<int>(e.copyKind), s.isNull(8) ? 7 : s.integer(8), s.isNull(9) ? 7 : s.integer(9));
            auto [it, inserted] = copyNames.try_emplace(nameKey);
            if (inserted) {
                it->second = m_trace.strings().intern("Memcpy "
                    + std::string(e.copyKind == CopyKind::Unknown ? "Unknown" : copyKindName(e.copyKind)) + " ("
                    + std::string(memoryKindName(std::get<1>(nameKey))) + " -> "
                    + std::string(memoryKindName(std::get<2>(nameKey))) + ")");
            }
            e.name = it->second;
            break;
        }
        case NsysTable::Memset: {
            e.kind = EventKind::Memset;
            e.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(s.integer(6), 0));
            const auto nameKey = std::make_tuple(-1, s.isNull(7) ? 7 : s.integer(7), std::int64_t { 0 });
            auto [it, inserted] = copyNames.try_emplace(nameKey);
            if (inserted)
                it->second
                    = m_trace.strings().intern("Memset (" + std::string(memoryKindName(std::get<1>(nameKey))) + ")");
            e.name = it->second;
            break;
        }
        default: {
            e.kind = EventKind::Sync;
            const std::int64_t type = s.integer(6);
            const std::size_t slot = type >= 0 && type < 5 ? static_cast<std::size_t>(type) : 0;
            if (syncNames[slot].value == 0)
                syncNames[slot] = m_trace.strings().intern(syncName(type));
            e.name = syncNames[slot];
            break;
        }
        }
        addEvent(gpuLane(key), e);
    });
}

void NsysImport::readContextDevices()
{
    m_contextDevicesRead = true;
    const auto sync = tableName(NsysTable::Synchronization);
    if (!sync)
        return;
    const std::vector<std::string> syncColumns = m_db.columns(*sync);
    if (std::find(syncColumns.begin(), syncColumns.end(), "contextId") == syncColumns.end())
        return; // the deviceId column is all there is
    auto contexts = m_db.prepare("SELECT DISTINCT globalPid, contextId FROM \"" + std::string(*sync) + "\"");
    if (!contexts) {
        warn("cannot be read: " + m_db.lastError(), "table " + std::string(*sync));
        return;
    }
    std::vector<std::pair<std::int64_t, std::int64_t>> wanted;
    forEachRow(
        *sync, *contexts, [&](std::uint64_t) { wanted.emplace_back(contexts->integer(0), contexts->integer(1)); });
    // One row of the context's work tells its device: the first that matches ends the scan.
    std::vector<SqliteStatement> lookups;
    for (const NsysTable work : { NsysTable::Kernel, NsysTable::Memcpy, NsysTable::Memset }) {
        for (const std::string_view name : nsysTableNames(work)) {
            const std::vector<std::string> present = has(name) ? m_db.columns(name) : std::vector<std::string> {};
            if (std::find(present.begin(), present.end(), "contextId") == present.end())
                continue;
            if (auto s = m_db.prepare("SELECT deviceId FROM \"" + std::string(name)
                    + "\" WHERE globalPid = ?1 AND contextId = ?2 LIMIT 1"))
                lookups.push_back(std::move(*s));
        }
    }
    for (const auto& [globalPid, context] : wanted) {
        for (SqliteStatement& lookup : lookups) {
            lookup.reset();
            lookup.bind(1, globalPid);
            lookup.bind(2, context);
            if (lookup.step() == SqliteStatement::Step::Row) {
                m_contextDevices[{ globalPidOf(globalPid), context }] = lookup.integer(0);
                break;
            }
        }
    }
}

void NsysImport::readApiCalls(NsysTable table, RowRange range)
{
    // The driver table is not in the exports of any nsys version seen so far (driver calls are RUNTIME rows
    // of event class 1): read it where it exists, and do not list it as missing.
    if (table == NsysTable::Driver && !has(nsysTableNames(table).front()))
        return;
    const auto name = tableName(table);
    if (!name)
        return;
    beginTable(*name, range);
    const bool driverTable = table == NsysTable::Driver;
    scanRows(*name,
        { { "start", true }, { "end", true }, { "globalTid", false }, { "correlationId", false }, { "nameId", true },
            { "eventClass", false } },
        range.whereClause(), [&](const SqliteRow& s, std::uint64_t row) {
            Event e;
            e.start = s.integer(0);
            e.end = s.integer(1);
            if (e.end < e.start) {
                skipRow(*name, row, "it ends before it starts");
                return;
            }
            e.correlation = correlationOf(s.integer(3));
            e.name = m_strings.apiName(s.integer(4), m_trace);
            e.kind = driverTable || s.integer(5) == kCudaDriverClass ? EventKind::DriverApi : EventKind::RuntimeApi;
            addEvent(threadLane(s.integer(2)), e);
        });
}

void NsysImport::readOsRuntimeCalls(RowRange range)
{
    const auto name = tableName(NsysTable::OsRuntime);
    if (!name)
        return;
    beginTable(*name, range);
    scanRows(*name,
        { { "start", true }, { "end", true }, { "globalTid", false }, { "nameId", true }, { "eventClass", false } },
        range.whereClause(), [&](const SqliteRow& s, std::uint64_t row) {
            const std::int64_t eventClass = s.integer(4);
            if (eventClass == kOsRuntimeStartClass || eventClass == kOsRuntimeFinishClass)
                return;
            Event e;
            e.start = s.integer(0);
            e.end = s.integer(1);
            if (e.end < e.start) {
                skipRow(*name, row, "it ends before it starts");
                return;
            }
            e.kind = EventKind::Other;
            e.name = m_strings.name(s.integer(3), m_trace);
            addEvent(threadLane(s.integer(2)), e);
        });
}

void NsysImport::readEventTable(NsysTable table, RowRange range)
{
    switch (table) {
    case NsysTable::Runtime:
    case NsysTable::Driver:
        readApiCalls(table, range);
        return;
    case NsysTable::OsRuntime:
        readOsRuntimeCalls(range);
        return;
    default:
        readGpuActivity(table, range);
        return;
    }
}

void NsysImport::readNvtx()
{
    const auto name = tableName(NsysTable::Nvtx);
    if (!name)
        return;
    auto statement = select(*name,
        { { "start", true }, { "end", false }, { "eventType", true }, { "text", false }, { "textId", false },
            { "globalTid", false }, { "domainId", false } });
    if (!statement)
        return;
    SqliteStatement& s = *statement;
    struct Pending {
        LaneIndex lane;
        std::size_t index;
        std::int64_t domain;
    };
    std::vector<Pending> inDomains; // ranges and marks of a named domain: their args name it, once all are read
    std::map<std::int64_t, std::string> domains;
    forEachRow(*name, s, [&](std::uint64_t row) {
        const std::int64_t type = s.integer(2);
        const auto textOf = [&]() -> std::string_view {
            if (!s.isNull(3))
                return s.text(3);
            if (!s.isNull(4))
                return m_strings.text(s.integer(4)).value_or(std::string_view());
            return {};
        };
        if (type == kNvtxDomainCreate) {
            domains[s.integer(6)] = std::string(textOf());
            return;
        }
        if (type == kNvtxThread) {
            const std::string_view text = textOf();
            m_nvtxThreadNames[s.integer(5)] = std::string(text);
            if (const auto rank = mpiRankFromThreadName(text))
                m_ranks.emplace(globalPidOf(s.integer(5)), *rank);
            return;
        }
        if (type != kNvtxMark && type != kNvtxPushPopRange && type != kNvtxStartEndRange)
            return; // categories, NVTXT file events, payload-only records: nothing to draw
        Event e;
        e.start = s.integer(0);
        if (type == kNvtxMark) {
            e.kind = EventKind::NvtxMark;
            e.end = e.start;
        } else {
            e.kind = EventKind::NvtxRange;
            if (s.isNull(1)) {
                ++m_unclosedRanges;
                ++m_trace.skippedEvents();
                return;
            }
            e.end = s.integer(1);
            if (e.end < e.start) {
                skipRow(*name, row, "the NVTX range ends before it starts");
                return;
            }
        }
        if (s.isNull(3) && !s.isNull(4))
            e.name = m_strings.name(s.integer(4), m_trace);
        else
            e.name = m_trace.strings().intern(s.text(3));
        const LaneIndex lane = threadLane(s.integer(5));
        EventVector& events = m_trace.lanes()[lane.value].events;
        if (m_keepArgs && s.integer(6) != 0)
            inDomains.push_back(Pending { lane, events.size(), s.integer(6) });
        events.push_back(e);
    });
    std::map<std::int64_t, ArgsId> domainArgs;
    for (const Pending& p : inDomains) {
        const auto domain = domains.find(p.domain);
        if (domain == domains.end() || domain->second.empty())
            continue;
        auto [it, inserted] = domainArgs.try_emplace(p.domain);
        if (inserted) {
            std::string json = "{\"domain\":\"";
            for (const char c : domain->second) {
                if (c == '"' || c == '\\')
                    json += '\\';
                if (static_cast<unsigned char>(c) >= 0x20)
                    json += c;
            }
            it->second = m_trace.addArgs(json + "\"}");
        }
        m_trace.lanes()[p.lane.value].events[p.index].args = it->second;
    }
}

} // namespace gapscope::nsys
