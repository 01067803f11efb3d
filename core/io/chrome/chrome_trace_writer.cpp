// SPDX-License-Identifier: MIT
#include "core/io/chrome/chrome_trace_writer.h"

#include "core/io/chrome/chrome_categories.h"
#include "core/io/common/atomic_file.h"
#include "core/io/common/gzip_writer.h"
#include "core/io/common/json_stream_writer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace gapscope {

namespace {

// Kineto's sort index for the pseudo-process of GPU N is kGpuSortBase + N, which puts GPUs after the
// host processes in Perfetto and chrome://tracing.
constexpr std::int64_t kGpuSortBase = 16777216;

bool hasGzipSuffix(std::string_view path)
{
    return path.size() >= 3 && path[path.size() - 3] == '.' && (path[path.size() - 2] | 0x20) == 'g'
        && (path[path.size() - 1] | 0x20) == 'z';
}

/// The correlation ids of one process that link a launch call to at least one GPU op: only these get
/// an `ac2g` flow, as in Kineto (a flow with one end dangles in Perfetto).
std::vector<std::uint32_t> linkedCorrelations(const Trace& trace, ProcessIndex process)
{
    std::vector<std::uint32_t> launches;
    std::vector<std::uint32_t> gpuOps;
    for (const Lane& lane : trace.lanes()) {
        if (lane.process != process)
            continue;
        const bool gpu = lane.kind == LaneKind::GpuStream;
        for (const Event& e : lane.events) {
            if (e.correlation == 0)
                continue;
            if (gpu)
                gpuOps.push_back(e.correlation);
            else if (e.kind == EventKind::RuntimeApi || e.kind == EventKind::DriverApi)
                launches.push_back(e.correlation);
        }
    }
    for (auto* ids : { &launches, &gpuOps }) {
        std::sort(ids->begin(), ids->end());
        ids->erase(std::unique(ids->begin(), ids->end()), ids->end());
    }
    std::vector<std::uint32_t> linked;
    std::set_intersection(launches.begin(), launches.end(), gpuOps.begin(), gpuOps.end(), std::back_inserter(linked));
    return linked;
}

/// Writes the trace; one instance per write() call.
class TraceJsonEmitter {
public:
    TraceJsonEmitter(const Trace& trace, std::ostream& out)
        : m_trace(trace)
        , m_json(out)
    {
        const auto span = trace.timeSpan();
        m_metadataTs = span ? span->first : 0;
    }

    void write()
    {
        m_json.raw('{');
        writeFileMetadata();
        m_json.raw("\"traceEvents\":[");
        for (std::uint32_t p = 0; p < m_trace.processes().size(); ++p)
            writeProcess(ProcessIndex { p });
        for (const CounterTrack& track : m_trace.counters().tracks()) {
            if (!track.keptAsEvents)
                writeCounterTrack(track);
        }
        m_json.raw("\n]}\n");
        m_json.flush();
    }

private:
    // ---- top level ----------------------------------------------------------------------------

    /// Top-level keys: those kept from the loaded files (first process wins on a clash), then what the
    /// model knows and the metadata lacks: schemaVersion, deviceProperties, distributedInfo.rank.
    void writeFileMetadata()
    {
        nlohmann::ordered_json metadata = nlohmann::ordered_json::object();
        for (const Process& process : m_trace.processes()) {
            if (process.fileMetadataJson.empty())
                continue;
            auto parsed = nlohmann::ordered_json::parse(process.fileMetadataJson, nullptr, false);
            if (!parsed.is_object())
                continue;
            for (auto& [key, value] : parsed.items()) {
                if (key != "traceEvents" && !metadata.contains(key))
                    metadata[key] = std::move(value);
            }
        }
        if (!metadata.contains("schemaVersion"))
            metadata["schemaVersion"] = 1;
        if (!metadata.contains("deviceProperties")) {
            if (auto properties = devicePropertiesFromModel(); !properties.empty())
                metadata["deviceProperties"] = std::move(properties);
        }
        if (const auto rank = fileRank()) {
            auto& info = metadata["distributedInfo"];
            if (!info.is_object())
                info = nlohmann::ordered_json::object();
            if (!info.contains("rank"))
                info["rank"] = *rank;
        }
        for (const auto& [key, value] : metadata.items()) {
            m_json.raw('\n');
            m_json.string(key);
            m_json.raw(':');
            m_json.raw(value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
            m_json.raw(',');
        }
        m_json.raw('\n');
    }

    /// The rank the file's `distributedInfo` states: the first process's, when it has one.
    std::optional<int> fileRank() const
    {
        for (const Process& process : m_trace.processes()) {
            if (process.rank)
                return process.rank;
        }
        return std::nullopt;
    }

    nlohmann::ordered_json devicePropertiesFromModel() const
    {
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        std::set<int> written;
        for (const Device& device : m_trace.devices()) {
            if (!written.insert(device.id).second)
                continue;
            nlohmann::ordered_json entry;
            if (!device.propertiesJson.empty())
                entry = nlohmann::ordered_json::parse(device.propertiesJson, nullptr, false);
            if (!entry.is_object()) {
                if (device.name.empty())
                    continue;
                entry = nlohmann::ordered_json::object();
            }
            if (!entry.contains("id"))
                entry["id"] = device.id;
            if (!entry.contains("name") && !device.name.empty())
                entry["name"] = device.name;
            list.push_back(std::move(entry));
        }
        return list;
    }

    // ---- per process ------------------------------------------------------------------------

    void writeProcess(ProcessIndex index)
    {
        const Process& process = m_trace.processes()[index.value];
        m_linked = linkedCorrelations(m_trace, index);

        writeProcessMetadata(process.pid, process.name,
            process.rank ? "rank " + std::to_string(*process.rank) : std::string("CPU"), process.sortIndex);
        for (std::uint32_t d = 0; d < m_trace.devices().size(); ++d) {
            const Device& device = m_trace.devices()[d];
            if (device.process != index)
                continue;
            const std::string gpuName = "GPU " + std::to_string(device.id);
            writeProcessMetadata(device.id, gpuName, gpuName, kGpuSortBase + device.id);
        }
        for (const Lane& lane : m_trace.lanes()) {
            if (lane.process != index)
                continue;
            const bool gpu = lane.kind == LaneKind::GpuStream;
            const std::int64_t pid = gpu ? m_trace.devices()[lane.device.value].id : process.pid;
            const std::int64_t tid = gpu ? lane.stream : lane.tid;
            const std::string name = !lane.name.empty() || !gpu ? lane.name : "stream " + std::to_string(lane.stream);
            // Streams sort by their id, as Kineto writes them, unless the trace says otherwise.
            if (lane.sortIndex || gpu)
                writeThreadMetadata(pid, tid, name, true, lane.sortIndex ? *lane.sortIndex : lane.stream);
            else
                writeThreadMetadata(pid, tid, name, false, 0);
        }
        for (const Lane& lane : m_trace.lanes()) {
            if (lane.process != index)
                continue;
            if (lane.kind == LaneKind::GpuStream)
                writeGpuLane(lane);
            else
                writeCpuLane(lane, process.pid);
        }
    }

    // ---- counters ---------------------------------------------------------------------------

    /// A device's memory as Kineto's `[memory]` instants (Total Allocated and the Bytes of each step), which
    /// the reader makes the same track of; any other track as `C` events of its process (or, for a device's
    /// counter, of the device's pid, as Kineto groups a GPU's lanes), one `value` each.
    void writeCounterTrack(const CounterTrack& track)
    {
        const bool memory = track.device && track.name == kMemoryAllocatedTrack;
        const std::int64_t pid
            = track.device ? m_trace.devices()[track.device->value].id : m_trace.processes()[track.process.value].pid;
        const std::int64_t hostPid = m_trace.processes()[track.process.value].pid;
        double before = 0.0;
        char number[32];
        for (const CounterPoint& p : track.points) {
            beginEvent();
            if (memory) {
                m_json.raw("{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"cpu_instant_event\",\"name\":\"[memory]\",\"pid\":");
                m_json.integer(hostPid);
                m_json.raw(",\"tid\":");
                m_json.integer(hostPid);
                m_json.raw(",\"ts\":");
                m_json.microseconds(p.time);
                m_json.raw(",\"args\":{\"Total Allocated\":");
                m_json.integer(static_cast<std::int64_t>(p.value));
                m_json.raw(",\"Bytes\":");
                m_json.integer(static_cast<std::int64_t>(p.value - before));
                m_json.raw(",\"Device Id\":");
                m_json.integer(pid);
                m_json.raw(",\"Device Type\":1}}");
                before = p.value;
                continue;
            }
            m_json.raw("{\"ph\":\"C\",\"name\":");
            m_json.string(track.name);
            m_json.raw(",\"pid\":");
            m_json.integer(pid);
            m_json.raw(",\"tid\":0,\"ts\":");
            m_json.microseconds(p.time);
            m_json.raw(",\"args\":{\"value\":");
            const int n = std::snprintf(number, sizeof number, "%.17g", std::isfinite(p.value) ? p.value : 0.0);
            m_json.raw(std::string_view(number, static_cast<std::size_t>(n)));
            m_json.raw("}}");
        }
    }

    void metadataEventStart(std::string_view name, std::int64_t pid, std::int64_t tid)
    {
        beginEvent();
        m_json.raw("{\"name\":");
        m_json.string(name);
        m_json.raw(",\"ph\":\"M\",\"ts\":");
        m_json.microseconds(m_metadataTs);
        m_json.raw(",\"pid\":");
        m_json.integer(pid);
        m_json.raw(",\"tid\":");
        m_json.integer(tid);
    }

    void writeProcessMetadata(
        std::int64_t pid, std::string_view name, std::string_view labels, std::optional<std::int64_t> sortIndex)
    {
        if (!name.empty()) {
            metadataEventStart("process_name", pid, 0);
            m_json.raw(",\"args\":{\"name\":");
            m_json.string(name);
            m_json.raw("}}");
        }
        metadataEventStart("process_labels", pid, 0);
        m_json.raw(",\"args\":{\"labels\":");
        m_json.string(labels);
        m_json.raw("}}");
        if (sortIndex) {
            metadataEventStart("process_sort_index", pid, 0);
            m_json.raw(",\"args\":{\"sort_index\":");
            m_json.integer(*sortIndex);
            m_json.raw("}}");
        }
    }

    void writeThreadMetadata(
        std::int64_t pid, std::int64_t tid, std::string_view name, bool hasSortIndex, std::int64_t sortIndex)
    {
        if (!name.empty()) {
            metadataEventStart("thread_name", pid, tid);
            m_json.raw(",\"args\":{\"name\":");
            m_json.string(name);
            m_json.raw("}}");
        }
        if (hasSortIndex) {
            metadataEventStart("thread_sort_index", pid, tid);
            m_json.raw(",\"args\":{\"sort_index\":");
            m_json.integer(sortIndex);
            m_json.raw("}}");
        }
    }

    // ---- events -------------------------------------------------------------------------------

    void beginEvent()
    {
        if (m_firstEvent)
            m_json.raw('\n');
        else
            m_json.raw(",\n");
        m_firstEvent = false;
    }

    bool isLinked(std::uint32_t correlation) const
    {
        return correlation != 0 && std::binary_search(m_linked.begin(), m_linked.end(), correlation);
    }

    /// `"ph":"X","cat":...,"name":...,"pid":...,"tid":...,"ts":...[,"dur":...]` (or an instant for marks).
    void writeEventHead(const Event& e, std::int64_t pid, std::int64_t tid)
    {
        beginEvent();
        // Marks are instants, and so are zero-length events of no known kind: what the reader makes of the
        // instants Kineto writes without a category (its `[memory]` events, which the TensorBoard plugin
        // reads as instants). Anything with a duration stays a complete event so that nothing is lost.
        const bool instant = (e.kind == EventKind::NvtxMark || e.kind == EventKind::Other) && e.end == e.start;
        m_json.raw(instant ? "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"" : "{\"ph\":\"X\",\"cat\":\"");
        m_json.raw(categoryForKind(e.kind));
        m_json.raw("\",\"name\":");
        m_json.string(m_trace.name(e));
        m_json.raw(",\"pid\":");
        m_json.integer(pid);
        m_json.raw(",\"tid\":");
        m_json.integer(tid);
        m_json.raw(",\"ts\":");
        m_json.microseconds(e.start);
        if (!instant) {
            m_json.raw(",\"dur\":");
            m_json.microseconds(e.end - e.start);
        }
    }

    struct ExtraArgs {
        std::optional<std::int64_t> device;
        std::optional<std::int64_t> stream;
        std::uint32_t correlation = 0;
        std::optional<std::uint64_t> bytes;
    };

    /// `,"args":{...}}`: the stored args as they were (whitespace included), with the model's fields added
    /// where the stored text lacks them (a key is never written twice). Omitted when there is nothing to write.
    void writeArgsAndClose(const Event& e, const ExtraArgs& extra)
    {
        const std::string_view stored = m_trace.argsJson(e);
        const ObjectBody body = objectBody(stored);
        bool hasDevice = false, hasStream = false, hasCorrelation = false, hasBytes = false;
        if (body.isObject && !body.members.empty()) {
            forEachTopLevelKey(body.object, [&](std::string_view key) {
                hasDevice = hasDevice || key == "device";
                hasStream = hasStream || key == "stream";
                hasCorrelation = hasCorrelation || key == "correlation";
                hasBytes = hasBytes || key == "bytes";
            });
        }
        const bool addDevice = extra.device && !hasDevice;
        const bool addStream = extra.stream && !hasStream;
        const bool addCorrelation = extra.correlation != 0 && !hasCorrelation;
        const bool addBytes = extra.bytes && !hasBytes;
        if (!addDevice && !addStream && !addCorrelation && !addBytes) {
            if (body.isObject) {
                m_json.raw(",\"args\":");
                m_json.raw(body.object);
            }
            m_json.raw('}');
            return;
        }
        m_json.raw(",\"args\":");
        bool first = true;
        if (body.isObject && !body.members.empty()) {
            // Everything up to the last member; the added keys and the closing brace follow.
            m_json.raw(body.object.substr(
                0, static_cast<std::size_t>(body.members.data() + body.members.size() - body.object.data())));
            first = false;
        } else {
            m_json.raw('{');
        }
        const auto key = [&](std::string_view quotedKey) {
            m_json.raw(first ? "\"" : ",\"");
            m_json.raw(quotedKey);
            m_json.raw("\":");
            first = false;
        };
        if (addDevice) {
            key("device");
            m_json.integer(*extra.device);
        }
        if (addStream) {
            key("stream");
            m_json.integer(*extra.stream);
        }
        if (addCorrelation) {
            key("correlation");
            m_json.unsignedInteger(extra.correlation);
        }
        if (addBytes) {
            key("bytes");
            m_json.unsignedInteger(*extra.bytes);
        }
        m_json.raw("}}");
    }

    void writeFlow(bool start, std::uint32_t id, std::int64_t pid, std::int64_t tid, TimeNs ts)
    {
        beginEvent();
        m_json.raw(start ? "{\"ph\":\"s\",\"id\":" : "{\"ph\":\"f\",\"id\":");
        m_json.unsignedInteger(id);
        m_json.raw(",\"pid\":");
        m_json.integer(pid);
        m_json.raw(",\"tid\":");
        m_json.integer(tid);
        m_json.raw(",\"ts\":");
        m_json.microseconds(ts);
        // Kineto's launch-to-GPU flow; "bp":"e" binds the end to the enclosing slice (the GPU op).
        m_json.raw(
            start ? ",\"cat\":\"ac2g\",\"name\":\"ac2g\"}" : ",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"bp\":\"e\"}");
    }

    void writeCpuLane(const Lane& lane, std::int64_t pid)
    {
        for (const Event& e : lane.events) {
            writeEventHead(e, pid, lane.tid);
            ExtraArgs extra;
            extra.correlation = e.correlation;
            if (e.bytes != 0 || e.kind == EventKind::Memcpy || e.kind == EventKind::Memset)
                extra.bytes = e.bytes;
            writeArgsAndClose(e, extra);
            const bool launch = e.kind == EventKind::RuntimeApi || e.kind == EventKind::DriverApi;
            if (launch && isLinked(e.correlation))
                writeFlow(true, e.correlation, pid, lane.tid, e.start);
        }
    }

    void writeGpuLane(const Lane& lane)
    {
        const std::int64_t deviceId = m_trace.devices()[lane.device.value].id;
        for (const Event& e : lane.events) {
            writeEventHead(e, deviceId, lane.stream);
            ExtraArgs extra;
            extra.device = deviceId;
            extra.stream = lane.stream;
            extra.correlation = e.correlation;
            if (e.bytes != 0 || e.kind == EventKind::Memcpy || e.kind == EventKind::Memset)
                extra.bytes = e.bytes;
            writeArgsAndClose(e, extra);
            if (isLinked(e.correlation))
                writeFlow(false, e.correlation, deviceId, lane.stream, e.start);
        }
    }

    const Trace& m_trace;
    JsonStreamWriter m_json;
    TimeNs m_metadataTs = 0;
    bool m_firstEvent = true;
    std::vector<std::uint32_t> m_linked;
};

} // namespace

void ChromeTraceWriter::write(const Trace& trace, std::ostream& out)
{
    TraceJsonEmitter(trace, out).write();
}

IoResult<void> ChromeTraceWriter::writeFile(const Trace& trace, const std::string& path)
{
    auto file = AtomicFile::create(path);
    if (!file)
        return file.error();
    std::ostream& stream = file.value().stream();
    if (hasGzipSuffix(path)) {
        // zlib's default level 6. On the ResNet-50 sample's 31.7 MB of JSON: level 1 gives 1.82 MB in 0.11 s,
        // level 6 1.17 MB in 0.19 s, level 9 1.03 MB in 0.35 s (Kineto's own file: 1.16 MB).
        GzipOutputStream gzip(stream, 6);
        write(trace, gzip);
        if (!gzip.finish()) {
            // A failed file write (disk full...) is reported by commit(), which then leaves the target alone.
            if (!stream)
                return file.value().commit();
            return IoError { path, std::nullopt, "gzip compression failed" };
        }
    } else {
        write(trace, stream);
    }
    return file.value().commit();
}

} // namespace gapscope
