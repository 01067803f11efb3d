// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/common/read_filter.h"
#include "core/model/trace_builder.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gapscope::chrome {

/// A pid or tid as a Chrome trace file wrote it. Numbers and numeric strings ("4093687616") are their value;
/// other strings ("stream 7", "Spans") get a stable synthetic value (a hash of the text) and `isString`.
struct RawId {
    std::int64_t value = 0;
    bool isString = false;
    friend bool operator==(RawId, RawId) = default;
};

/// The synthetic id of a non-numeric pid/tid string: the same text always gives the same id, in any file.
std::int64_t syntheticId(std::string_view text);

enum class MetadataKind : std::uint8_t {
    ProcessName,
    ProcessSortIndex,
    ThreadName,
    ThreadSortIndex,
};

/// Collects a Chrome trace file's events as they are parsed and turns them into a Trace once the whole file has
/// been seen: only then is it known which pid is the file's host process (Kineto writes GPU events under
/// pid = device index, and those pids are not processes), which lanes the `M` events name, and which events
/// the flow events bind. Events are grouped per lane while parsing; finishing joins, sorts and moves them.
class ChromeTraceBuilder {
public:
    explicit ChromeTraceBuilder(std::string fileName);

    /// The trace under construction: parsers intern names in `strings` and store args in `args` directly.
    TraceBuilder& trace() { return m_trace; }

    /// The lane index for a host event of (pid, tid); `tidText` names the lane when the tid was not numeric.
    std::uint32_t hostLane(RawId pid, RawId tid, std::string_view tidText);
    /// The lane index for an event on GPU stream (device, stream); (pid, tid) as written bind metadata and flows.
    std::uint32_t gpuLane(int device, std::int64_t stream, std::string_view streamText, RawId pid, RawId tid);
    /// Stores an event; the returned pointer stays valid until finish() (storage grows in chunks, never moves).
    Event* addEvent(std::uint32_t lane, const Event& event)
    {
        PendingLane& l = m_lanes[lane];
        if (l.eventCount == 0)
            l.firstOrder = m_eventOrder;
        ++m_eventOrder;
        ++l.eventCount;
        if (event.kind == EventKind::RuntimeApi || event.kind == EventKind::DriverApi)
            ++l.apiCalls;
        if (l.direct.size() < l.direct.capacity()) {
            l.direct.push_back(event);
            return &l.direct.back();
        }
        // Past a projection the last leading chunk is closed: the events after `direct` start a chunk of their own.
        if (l.chunks.size() == l.leadingChunks || l.chunks.back().size() == l.chunks.back().capacity())
            addChunk(l);
        l.chunks.back().push_back(event);
        return &l.chunks.back().back();
    }

    /// The content's size, when known before the read (a plain file's size): once a 32nd of it is read, each
    /// lane gets a vector of its projected final size, which its events then fill directly, so that finish()
    /// need not copy them out of chunks (a second copy of every event, in fresh memory, on a large trace).
    void expectContentBytes(std::uint64_t bytes)
    {
        if (bytes >= kProjectFrom)
            m_projectAt = bytes / 32;
        m_expectedBytes = bytes;
    }
    /// The reader has reached `offset` of the content.
    void noteProgress(std::uint64_t offset)
    {
        if (offset >= m_projectAt)
            projectLaneSizes(offset);
    }

    /// What the read keeps (ReadFilter): end() drops a slice outside its range, finish() says what was dropped.
    void setFilter(const ReadFilter& filter) { m_filter = filter; }
    /// A dropped event of `pid`: host events still vote for the host process (chooseHostPid), so that a
    /// GPU-only load names the same process, pid and rank as a whole one.
    void countFiltered(RawId pid, EventKind kind)
    {
        ++m_filtered;
        if (isGpuLaneKind(kind) || pid.isString)
            return;
        DroppedHostEvents& d = m_droppedHostEvents[pid.value];
        d.firstOrder = std::min(d.firstOrder, m_eventOrder++);
        d.apiCalls += kind == EventKind::RuntimeApi || kind == EventKind::DriverApi ? 1 : 0;
    }
    bool hasOpenSlice(RawId pid, RawId tid) const
    {
        const auto it = m_openSlices.find({ pid.value, tid.value });
        return it != m_openSlices.end() && !it->second.empty();
    }

    /// A `B` event: opens a slice on (pid, tid); `event.end` is set by the matching end().
    void begin(RawId pid, RawId tid, std::uint32_t lane, const Event& event, std::uint64_t byteOffset);
    /// An `E` event: closes the innermost open slice of (pid, tid) and returns it as stored. Warns (and returns
    /// nullptr) when none is open.
    Event* end(RawId pid, RawId tid, TimeNs ts, std::uint64_t byteOffset);

    /// A flow event (`s`/`f`): binds correlation `id` to the event of (pid, tid) that starts at `ts`.
    void addFlow(RawId pid, RawId tid, TimeNs ts, std::uint32_t id);
    void addMetadata(MetadataKind kind, RawId pid, RawId tid, std::string value, std::int64_t number);

    /// One top-level key other than traceEvents, with its raw JSON value.
    void addFileMetadata(std::string_view rawKey, std::string_view rawValue);
    void setRank(int rank) { m_rank = rank; }
    void addDeviceProperties(int id, std::string name, std::string json);

    /// A skipped malformed event: counted, and reported while no more than kListedSkips were
    /// (core/io/common/skipped_warnings.h).
    void warnSkipped(std::uint64_t byteOffset, std::string message);
    /// A warning that is not a skipped malformed event.
    void warn(std::uint64_t byteOffset, std::string message);
    /// The file was cut short, and what was loaded is what it held.
    void warnEndedEarly(std::uint64_t byteOffset, std::string message)
    {
        m_trace.warnings().push_back(ImportWarning { m_fileName, byteOffset, std::move(message) });
    }

    /// Assigns lanes to processes and devices, applies metadata and binds flows: the trace, to be finished.
    TraceBuilder takeTrace();

private:
    struct PendingLane {
        bool gpu = false;
        RawId pid; // host lanes: as written
        RawId tid; // host lanes: as written
        int device = 0; // GPU lanes
        std::int64_t stream = 0; // GPU lanes
        std::string name; // from a non-numeric tid; thread_name metadata overrides it
        std::optional<int> sortIndex;
        std::uint64_t firstOrder = 0;
        std::uint64_t apiCalls = 0;
        std::uint64_t eventCount = 0;
        // Events as parsed, in chunks: a growing vector would copy itself and, at the moment it does, hold
        // twice its size; chunks keep the peak of a load near its final size (docs/performance.md: ≤ 1.5×).
        std::vector<EventVector> chunks;
        // Reserved at the projection (expectContentBytes): [0, leading) is left for the events of the chunks
        // before it, which finish() copies there; the events after it go here until it is full, then to chunks.
        EventVector direct;
        std::size_t leading = 0; // events, and chunks, before `direct`
        std::size_t leadingChunks = 0;
        EventVector events; // the chunks joined, by finish()
    };
    /// Files smaller than this are read without projecting lane sizes.
    static constexpr std::uint64_t kProjectFrom = std::uint64_t { 256 } << 20;
    void projectLaneSizes(std::uint64_t offset);
    void joinLane(PendingLane& lane);
    static constexpr std::size_t kFirstChunk = 64;
    // 10 MB: large enough to be mostly huge pages (a fault per 2 MiB instead of per 4 KiB), small enough that
    // the one chunk per lane above the final size at the join stays a few % of a large trace.
    static constexpr std::size_t kMaxChunk = 262144;
    static void addChunk(PendingLane& lane);
    struct RouteKey {
        std::int64_t pid;
        std::int64_t tid;
        std::int64_t stream;
        std::int32_t device;
        bool gpu;
        bool pidIsString;
        bool tidIsString;
        friend bool operator==(const RouteKey&, const RouteKey&) = default;
    };
    struct RouteHash {
        std::size_t operator()(const RouteKey& k) const noexcept;
    };
    struct OpenSlice {
        std::uint32_t lane;
        Event event;
        std::uint64_t byteOffset;
    };
    struct Flow {
        RawId pid;
        RawId tid;
        TimeNs ts;
        std::uint32_t id;
    };
    struct Metadata {
        MetadataKind kind;
        RawId pid;
        RawId tid;
        std::string value;
        std::int64_t number;
    };
    struct DeviceInfo {
        std::string name;
        std::string json;
    };
    using RawKey = std::pair<std::int64_t, std::int64_t>;
    struct RawKeyHash {
        std::size_t operator()(const RawKey& k) const noexcept;
    };

    std::uint32_t lookupRoute(const RouteKey& key, std::string_view laneName);
    std::int64_t chooseHostPid() const;
    void bindFlows(const std::unordered_map<RawKey, std::vector<std::uint32_t>, RawKeyHash>& lanesByRawKey);

    std::string m_fileName;
    TraceBuilder m_trace;
    std::vector<PendingLane> m_lanes;
    std::unordered_map<RouteKey, std::uint32_t, RouteHash> m_routes;
    // Recently used routes: consecutive events mostly alternate between a handful of lanes.
    static constexpr std::size_t kRouteCacheSize = 4;
    std::array<std::pair<RouteKey, std::uint32_t>, kRouteCacheSize> m_routeCache {};
    std::size_t m_routeCacheUsed = 0;
    std::size_t m_routeCacheNext = 0;
    std::unordered_map<RouteKey, std::uint32_t, RouteHash> m_laneByIdentity; // host (pid, tid) / GPU (device, stream)
    std::unordered_map<RawKey, std::vector<OpenSlice>, RawKeyHash> m_openSlices;
    std::vector<Flow> m_flows;
    std::vector<Metadata> m_metadata;
    std::string m_fileMetadata;
    std::optional<int> m_rank;
    ReadFilter m_filter;
    std::uint64_t m_filtered = 0;
    struct DroppedHostEvents {
        std::uint64_t apiCalls = 0;
        std::uint64_t firstOrder = std::numeric_limits<std::uint64_t>::max();
    };
    std::unordered_map<std::int64_t, DroppedHostEvents> m_droppedHostEvents; // by pid
    std::unordered_map<int, DeviceInfo> m_deviceInfo;
    std::uint64_t m_eventOrder = 0;
    std::uint64_t m_expectedBytes = 0;
    std::uint64_t m_projectAt = std::numeric_limits<std::uint64_t>::max();
};

} // namespace gapscope::chrome
