// SPDX-License-Identifier: MIT
#include "core/io/native/native_trace_writer.h"

#include "core/io/common/atomic_file.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <unordered_map>

namespace gapscope {

namespace {

using native::ChunkType;
using native::MetadataKey;

constexpr std::uint32_t kEventsPerChunk = 65536;
constexpr std::uint32_t kStringBytesPerChunk = 8u << 20;

native::EventCode eventCodeOf(EventKind kind)
{
    using native::EventCode;
    switch (kind) {
    case EventKind::Kernel:
        return EventCode::Kernel;
    case EventKind::Memcpy:
        return EventCode::Memcpy;
    case EventKind::Memset:
        return EventCode::Memset;
    case EventKind::Sync:
        return EventCode::Sync;
    case EventKind::RuntimeApi:
        return EventCode::RuntimeApi;
    case EventKind::DriverApi:
        return EventCode::DriverApi;
    case EventKind::NvtxRange:
        return EventCode::NvtxRange;
    case EventKind::NvtxMark:
        return EventCode::NvtxMark;
    case EventKind::CpuOp:
        return EventCode::CpuOp;
    case EventKind::PythonFunction:
        return EventCode::PythonFunction;
    case EventKind::UserAnnotation:
        return EventCode::UserAnnotation;
    case EventKind::GpuUserAnnotation:
        return EventCode::GpuUserAnnotation;
    case EventKind::Overhead:
        return EventCode::Overhead;
    case EventKind::Other:
        return EventCode::Other;
    }
    return EventCode::Other;
}

/// Emits chunks to a stream. File string ids of the trace's own strings are their StringIds;
/// texts the trace does not intern (names, args, messages) get ids after them.
class ChunkEmitter {
public:
    ChunkEmitter(const Trace& trace, std::ostream& out)
        : m_trace(trace)
        , m_out(out)
        , m_nextId(static_cast<std::uint32_t>(trace.strings().size()))
    { }

    void header(const NativeTraceWriter::Options& options)
    {
        const auto span = m_trace.timeSpan();
        const native::FileHeader h = native::makeFileHeader(options.clock, -1,
            m_trace.processes().empty() ? 0 : m_trace.processes().front().pid, span ? span->first : 0);
        m_out.write(reinterpret_cast<const char*>(&h), sizeof(h));
    }

    /// The trace's own strings, ids 1..size-1.
    void traceStrings()
    {
        for (std::uint32_t id = 1; id < m_trace.strings().size(); ++id)
            queueString(id, m_trace.strings().view(StringId { id }));
        flushStrings();
    }

    /// A file string id for any text; new ones are written by the next flushStrings().
    std::uint32_t text(std::string_view value)
    {
        if (value.empty())
            return 0;
        if (auto id = m_trace.strings().find(value))
            return id->value;
        auto [it, inserted] = m_extra.try_emplace(std::string(value), m_nextId);
        if (inserted) {
            ++m_nextId;
            queueString(it->second, it->first);
        }
        return it->second;
    }

    std::uint32_t argsText(ArgsId args)
    {
        if (args == kNoArgs || args.value >= m_trace.args().size())
            return 0;
        if (m_argsIds.empty())
            m_argsIds.assign(m_trace.args().size(), std::numeric_limits<std::uint32_t>::max());
        std::uint32_t& id = m_argsIds[args.value];
        if (id == std::numeric_limits<std::uint32_t>::max())
            id = text(m_trace.args()[args.value]);
        return id;
    }

    void flushStrings()
    {
        if (m_stringCount > 0)
            chunk(ChunkType::Strings, 0, m_stringCount, m_strings);
        m_strings.clear();
        m_stringCount = 0;
    }

    template <typename T> void records(ChunkType type, const std::vector<T>& values)
    {
        if (values.empty())
            return;
        chunk(type, sizeof(T), static_cast<std::uint32_t>(values.size()),
            std::string_view(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)));
    }

    void chunk(ChunkType type, std::uint16_t recordSize, std::uint32_t count, std::string_view payload)
    {
        native::ChunkHeader h { native::kChunkMarker, static_cast<std::uint16_t>(type), recordSize, count,
            static_cast<std::uint32_t>(payload.size()) };
        m_out.write(reinterpret_cast<const char*>(&h), sizeof(h));
        m_out.write(payload.data(), static_cast<std::streamsize>(payload.size()));
    }

private:
    void queueString(std::uint32_t id, std::string_view value)
    {
        if (m_strings.size() + value.size() + 16 > kStringBytesPerChunk)
            flushStrings();
        native::StringRecord entry { id, static_cast<std::uint32_t>(value.size()) };
        m_strings.append(reinterpret_cast<const char*>(&entry), sizeof(entry));
        m_strings.append(value);
        m_strings.append(native::paddedStringSize(entry.length) - sizeof(entry) - value.size(), '\0');
        ++m_stringCount;
    }

    const Trace& m_trace;
    std::ostream& m_out;
    std::uint32_t m_nextId;
    std::unordered_map<std::string, std::uint32_t> m_extra;
    std::vector<std::uint32_t> m_argsIds;
    std::string m_strings;
    std::uint32_t m_stringCount = 0;
};

native::MetadataRecord metadata(MetadataKey key, std::uint32_t text, std::int64_t subject = 0, std::int64_t number = 0,
    std::int32_t device = -1, std::uint32_t text2 = 0)
{
    return native::MetadataRecord { static_cast<std::uint32_t>(key), device, subject, number, text, text2 };
}

void writeProcess(const Trace& trace, ProcessIndex index, ChunkEmitter& emitter, std::uint64_t& eventCount)
{
    const Process& process = trace.processes()[index.value];
    std::vector<native::MetadataRecord> meta;
    if (process.sortIndex)
        meta.push_back(metadata(MetadataKey::ProcessSortIndex, 0, 0, *process.sortIndex));
    if (!process.fileMetadataJson.empty())
        meta.push_back(metadata(MetadataKey::ProcessFileMetadata, emitter.text(process.fileMetadataJson)));
    if (index.value == 0) {
        // Trace-wide facts go with the first process.
        for (const ImportWarning& w : trace.warnings()) {
            meta.push_back(metadata(MetadataKey::ImportWarning, emitter.text(w.message), 0,
                static_cast<std::int64_t>(w.byteOffset), -1, emitter.text(w.file)));
        }
    }
    std::vector<bool> deviceDescribed(trace.devices().size());
    for (const Lane& lane : trace.lanes()) {
        if (lane.process != index)
            continue;
        if (!lane.events.empty()) {
            const bool stream = lane.kind == LaneKind::GpuStream;
            meta.push_back(metadata(MetadataKey::LaneEventCount, 0, stream ? lane.stream : lane.tid,
                static_cast<std::int64_t>(lane.events.size()), -1));
            if (stream)
                meta.back().device = trace.devices()[lane.device.value].id;
        }
        if (lane.kind == LaneKind::CpuThread) {
            if (!lane.name.empty())
                meta.push_back(metadata(MetadataKey::ThreadName, emitter.text(lane.name), lane.tid));
            if (lane.sortIndex)
                meta.push_back(metadata(MetadataKey::ThreadSortIndex, 0, lane.tid, *lane.sortIndex));
            continue;
        }
        const Device& device = trace.devices()[lane.device.value];
        if (!lane.name.empty())
            meta.push_back(metadata(MetadataKey::StreamName, emitter.text(lane.name), lane.stream, 0, device.id));
        if (lane.sortIndex)
            meta.push_back(metadata(MetadataKey::StreamSortIndex, 0, lane.stream, *lane.sortIndex, device.id));
        if (!deviceDescribed[lane.device.value]) {
            deviceDescribed[lane.device.value] = true;
            if (!device.name.empty())
                meta.push_back(metadata(MetadataKey::DeviceName, emitter.text(device.name), 0, 0, device.id));
            if (!device.propertiesJson.empty()) {
                meta.push_back(
                    metadata(MetadataKey::DeviceProperties, emitter.text(device.propertiesJson), 0, 0, device.id));
            }
        }
    }
    const native::ProcessRecord record { process.pid, process.rank ? *process.rank : -1, emitter.text(process.name) };
    // Args texts first, so one Strings chunk before the section defines every id it uses.
    for (const Lane& lane : trace.lanes()) {
        if (lane.process != index)
            continue;
        for (const Event& e : lane.events)
            emitter.argsText(e.args);
    }
    emitter.flushStrings();
    emitter.records(ChunkType::Process, std::vector<native::ProcessRecord> { record });
    emitter.records(ChunkType::Metadata, meta);
    if (index.value == 0 && (trace.droppedRecords() > 0 || trace.skippedEvents() > 0)) {
        emitter.records(ChunkType::Counters,
            std::vector<native::CountersRecord> { { trace.droppedRecords(), trace.skippedEvents(), 0, 0 } });
    }

    std::vector<native::EventRecord> batch;
    batch.reserve(kEventsPerChunk);
    for (const Lane& lane : trace.lanes()) {
        if (lane.process != index)
            continue;
        const bool stream = lane.kind == LaneKind::GpuStream;
        const auto device
            = stream ? static_cast<std::int16_t>(trace.devices()[lane.device.value].id) : std::int16_t(-1);
        const std::int64_t laneId = stream ? lane.stream : lane.tid;
        for (const Event& e : lane.events) {
            batch.push_back(native::EventRecord { e.start, e.end, e.bytes, laneId, e.name.value, e.correlation,
                emitter.argsText(e.args), device, static_cast<std::uint8_t>(eventCodeOf(e.kind)),
                static_cast<std::uint8_t>(e.copyKind) });
            if (batch.size() == kEventsPerChunk) {
                emitter.records(ChunkType::Events, batch);
                eventCount += batch.size();
                batch.clear();
            }
        }
    }
    emitter.records(ChunkType::Events, batch);
    eventCount += batch.size();
}

} // namespace

bool NativeTraceWriter::write(const Trace& trace, std::ostream& out, const Options& options)
{
    ChunkEmitter emitter(trace, out);
    emitter.header(options);
    emitter.traceStrings();
    std::uint64_t eventCount = 0;
    for (std::uint32_t p = 0; p < trace.processes().size(); ++p)
        writeProcess(trace, ProcessIndex { p }, emitter, eventCount);
    const auto span = trace.timeSpan();
    emitter.records(ChunkType::End, std::vector<native::EndRecord> { { span ? span->second : 0, eventCount } });
    out.flush();
    return static_cast<bool>(out);
}

IoResult<void> NativeTraceWriter::writeFile(const Trace& trace, const std::string& path, const Options& options)
{
    auto file = AtomicFile::create(path);
    if (!file)
        return file.error();
    if (!write(trace, file.value().stream(), options))
        return IoError { path, std::nullopt, "writing failed (disk full?)" };
    return file.value().commit();
}

} // namespace gapscope
