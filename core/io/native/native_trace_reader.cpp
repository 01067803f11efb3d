// SPDX-License-Identifier: MIT
#include "core/io/native/native_trace_reader.h"

#include "core/io/common/cut_short.h"
#include "core/io/common/skipped_warnings.h"
#include "core/io/native/native_byte_source.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <system_error>
#include <unordered_map>

#include <sys/mman.h>
#include <sys/stat.h>

namespace gapscope {

namespace {

constexpr std::uint32_t kUndefined = 0xffffffffu;
constexpr std::int64_t kTimeLimit = std::int64_t { 1 } << 62;

/// EventCode -> EventKind + 1 (0: not a code this build knows). A table, not a switch: kinds alternate
/// from one record to the next, and a jump table's mispredictions cost a fifth of the parse.
constexpr std::array<std::uint8_t, 256> kKindOfCode = [] {
    using native::EventCode;
    std::array<std::uint8_t, 256> table {};
    const auto map = [&table](EventCode code, EventKind kind) {
        table[static_cast<std::size_t>(code)] = static_cast<std::uint8_t>(static_cast<int>(kind) + 1);
    };
    map(EventCode::Kernel, EventKind::Kernel);
    map(EventCode::Memcpy, EventKind::Memcpy);
    map(EventCode::Memset, EventKind::Memset);
    map(EventCode::Sync, EventKind::Sync);
    map(EventCode::RuntimeApi, EventKind::RuntimeApi);
    map(EventCode::DriverApi, EventKind::DriverApi);
    map(EventCode::NvtxRange, EventKind::NvtxRange);
    map(EventCode::NvtxMark, EventKind::NvtxMark);
    map(EventCode::Overhead, EventKind::Overhead);
    map(EventCode::CpuOp, EventKind::CpuOp);
    map(EventCode::PythonFunction, EventKind::PythonFunction);
    map(EventCode::UserAnnotation, EventKind::UserAnnotation);
    map(EventCode::GpuUserAnnotation, EventKind::GpuUserAnnotation);
    map(EventCode::Other, EventKind::Other);
    return table;
}();

/// Turns the chunks of one file into a trace (unfinished). One instance per file.
class NativeParser {
public:
    NativeParser(native::ByteSource& source, const std::string& fileName, std::stop_token stop = {},
        const ReadFilter& filter = {})
        : m_source(source)
        , m_fileName(fileName)
        , m_stop(std::move(stop))
        , m_filter(filter)
    { }

    IoResult<NativeTraceReader::UnfinishedCapture> run()
    {
        if (auto error = readHeader())
            return *error;
        m_stringIds.push_back(StringId { 0 });
        m_info.bytesLoaded = m_source.offset();
        while (m_source.remaining() > 0) {
            if (m_stop.stop_requested())
                return IoError { m_fileName, m_source.offset(), "canceled" };
            if (!readChunk())
                break;
            m_info.bytesLoaded = m_source.offset();
        }
        if (!m_anySection && m_headerPid != 0) {
            // A process that died before its first flush still says who it was.
            section();
        }
        finishSection();
        if (!m_info.closedCleanly && m_stopReason.empty()) {
            warn(m_info.bytesLoaded,
                "the capture was not closed cleanly (the process crashed, was killed or is still running): "
                "everything up to its last flush was loaded");
        }
        if (m_filter.active()) // first: every figure depends on it
            m_trace.warnings().insert(m_trace.warnings().begin(),
                ImportWarning { m_fileName, 0, m_filter.warning(m_filtered), "the whole file" });
        if (auto unlisted = unlistedSkipsWarning(m_badEvents, "malformed events"))
            warn(m_info.bytesLoaded, std::move(*unlisted));
        return NativeTraceReader::UnfinishedCapture { std::move(m_trace), std::move(m_info) };
    }

private:
    struct Section {
        ProcessIndex process;
        std::size_t info = 0; // index into m_info.processes
        std::unordered_map<std::int64_t, std::uint32_t> threadLanes;
        std::map<std::pair<int, std::int64_t>, std::uint32_t> streamLanes;
        std::int64_t lastTid = 0;
        std::uint32_t lastThreadLane = kUndefined;
        std::pair<int, std::int64_t> lastStream {};
        std::uint32_t lastStreamLane = kUndefined;
        // Names and sort indices apply at the end of the section, to the lanes and devices that exist.
        std::map<std::int64_t, std::string> threadNames;
        std::map<std::int64_t, std::string> threadOsNames;
        std::map<std::int64_t, int> threadSortIndex;
        std::map<int, std::string> deviceNames;
        std::map<int, std::string> deviceProperties;
        std::map<std::pair<int, std::int64_t>, std::string> streamNames;
        std::map<std::pair<int, std::int64_t>, int> streamSortIndex;
        /// (device or -1, lane id) -> events announced for the lane (LaneEventCount).
        std::map<std::pair<int, std::int64_t>, std::uint64_t> laneSizes;
    };

    std::optional<IoError> readHeader()
    {
        const std::uint64_t size = m_source.size();
        m_info.fileSize = size;
        const unsigned char* magic = m_source.take(sizeof(native::kMagic));
        if (!magic || std::memcmp(magic, native::kMagic, sizeof(native::kMagic)) != 0) {
            return IoError { m_fileName, std::nullopt,
                "not a GapScope capture file (it does not start with the native format's signature)" };
        }
        native::FileHeader header {};
        std::memcpy(header.magic, magic, sizeof(header.magic));
        const unsigned char* rest = m_source.take(8);
        if (!rest)
            return IoError { m_fileName, m_source.offset(), "the file is cut off inside its header" };
        std::memcpy(&header.formatVersion, rest, 4);
        std::memcpy(&header.headerSize, rest + 4, 4);
        if (header.formatVersion > native::kFormatVersion) {
            return IoError { m_fileName, 8,
                "written by a newer GapScope (capture format version " + std::to_string(header.formatVersion)
                    + "; this build reads versions up to " + std::to_string(native::kFormatVersion)
                    + "): update GapScope to open it" };
        }
        if (header.formatVersion == 0)
            return IoError { m_fileName, 8, "invalid capture format version 0" };
        if (header.headerSize < sizeof(native::FileHeader) || header.headerSize > 4096 || header.headerSize % 8 != 0)
            return IoError { m_fileName, 12, "invalid header size " + std::to_string(header.headerSize) };
        const unsigned char* body = m_source.take(header.headerSize - 16);
        if (!body)
            return IoError { m_fileName, m_source.offset(), "the file is cut off inside its header" };
        std::memcpy(reinterpret_cast<unsigned char*>(&header) + 16, body, sizeof(native::FileHeader) - 16);
        m_info.formatVersion = header.formatVersion;
        m_info.producer.assign(header.producer, strnlen(header.producer, sizeof(header.producer)));
        m_info.clock = static_cast<native::ClockId>(header.clock);
        m_headerPid = header.pid;
        m_headerRank = header.rank;
        return std::nullopt;
    }

    /// Reads and applies one chunk; false when the file ends or stops making sense here.
    bool readChunk()
    {
        const std::uint64_t chunkOffset = m_source.offset();
        if (m_source.remaining() < sizeof(native::ChunkHeader))
            return stop(chunkOffset, "the file is cut off inside a chunk header");
        native::ChunkHeader chunk {};
        std::memcpy(&chunk, m_source.take(sizeof(chunk)), sizeof(chunk));
        if (chunk.marker != native::kChunkMarker)
            return stop(chunkOffset, "no chunk starts here (the file is damaged)");
        if (chunk.payloadSize % 8 != 0 || chunk.payloadSize > native::kMaxChunkPayload)
            return stop(
                chunkOffset, "invalid chunk size " + std::to_string(chunk.payloadSize) + " (the file is damaged)");
        const unsigned char* payload = m_source.take(chunk.payloadSize);
        if (!payload)
            return stop(chunkOffset, std::string(kChunkCutOff));
        const std::uint64_t payloadOffset = chunkOffset + sizeof(chunk);
        switch (static_cast<native::ChunkType>(chunk.type)) {
        case native::ChunkType::Strings:
            readStrings(chunk, payload, payloadOffset);
            break;
        case native::ChunkType::Metadata:
            if (const unsigned char* records = fixedRecords<native::MetadataRecord>(chunk, payload, chunkOffset))
                readMetadata(chunk, records);
            break;
        case native::ChunkType::Events:
            if (const unsigned char* records = fixedRecords<native::EventRecord>(chunk, payload, chunkOffset))
                readEvents(chunk, records, payloadOffset);
            break;
        case native::ChunkType::Counters:
            if (const unsigned char* records = fixedRecords<native::CountersRecord>(chunk, payload, chunkOffset))
                readCounters(chunk, records);
            break;
        case native::ChunkType::Process:
            if (const unsigned char* records = fixedRecords<native::ProcessRecord>(chunk, payload, chunkOffset))
                readProcess(chunk, records);
            break;
        case native::ChunkType::End:
            if (fixedRecords<native::EndRecord>(chunk, payload, chunkOffset))
                m_info.closedCleanly = true;
            break;
        default:
            if (m_unknownChunkTypes++ == 0) {
                warn(chunkOffset,
                    "skipped a chunk of unknown type " + std::to_string(chunk.type)
                        + " (written by a newer GapScope?)");
            }
            break;
        }
        return true;
    }

    bool stop(std::uint64_t offset, const std::string& why)
    {
        m_stopReason = why;
        warn(offset,
            why + ": loaded the " + std::to_string(offset) + " bytes before it (of " + std::to_string(m_source.size())
                + "), up to the last complete chunk");
        return false;
    }

    /// The payload as records of T, or nullptr (with a warning) when the chunk's records are too short.
    template <typename T>
    const unsigned char* fixedRecords(
        const native::ChunkHeader& chunk, const unsigned char* payload, std::uint64_t chunkOffset)
    {
        const std::uint64_t needed = std::uint64_t(chunk.recordSize) * chunk.recordCount;
        if (chunk.recordSize < sizeof(T) || needed > chunk.payloadSize) {
            warn(chunkOffset,
                "skipped a chunk of type " + std::to_string(chunk.type) + " with invalid record size "
                    + std::to_string(chunk.recordSize) + " x " + std::to_string(chunk.recordCount));
            return nullptr;
        }
        return payload;
    }

    void readStrings(const native::ChunkHeader& chunk, const unsigned char* payload, std::uint64_t payloadOffset)
    {
        std::uint32_t pos = 0;
        // A string takes at least 8 bytes of file, which bounds the ids a sane file can use.
        const std::uint64_t maxId = m_source.size() / sizeof(native::StringRecord) + 1;
        for (std::uint32_t i = 0; i < chunk.recordCount; ++i) {
            native::StringRecord entry {};
            if (chunk.payloadSize - pos < sizeof(entry)) {
                warn(payloadOffset + pos, "a strings chunk ends inside an entry; the rest of the chunk is skipped");
                return;
            }
            std::memcpy(&entry, payload + pos, sizeof(entry));
            const std::uint64_t entrySize = native::paddedStringSize(entry.length);
            if (entry.length > chunk.payloadSize || entrySize > chunk.payloadSize - pos || entry.id == 0
                || entry.id > maxId) {
                warn(payloadOffset + pos,
                    "invalid string entry (id " + std::to_string(entry.id) + ", length " + std::to_string(entry.length)
                        + "); the rest of the chunk is skipped");
                return;
            }
            const std::string_view text(reinterpret_cast<const char*>(payload + pos + sizeof(entry)), entry.length);
            if (entry.id >= m_stringIds.size()) {
                m_stringIds.resize(entry.id + 1, StringId { kUndefined });
                m_stringTexts.resize(entry.id + 1);
            }
            m_stringIds[entry.id] = m_trace.strings().intern(text);
            m_stringTexts[entry.id] = m_trace.strings().view(m_stringIds[entry.id]);
            pos += static_cast<std::uint32_t>(entrySize);
        }
    }

    std::string_view text(std::uint32_t id) const
    {
        return id < m_stringTexts.size() ? m_stringTexts[id] : std::string_view {};
    }

    Section& section()
    {
        if (!m_section) {
            // Data before any Process chunk belongs to the process the file header names.
            native::ProcessRecord record { m_headerPid, m_headerRank, 0 };
            startSection(record);
        }
        return *m_section;
    }

    void startSection(const native::ProcessRecord& record)
    {
        finishSection();
        m_anySection = true;
        Process process;
        process.pid = record.pid;
        if (record.rank >= 0)
            process.rank = record.rank;
        process.name = std::string(text(record.name));
        process.sourceFile = m_fileName;
        m_section = std::make_unique<Section>();
        m_section->process = m_trace.addProcess(std::move(process));
        NativeProcessInfo info;
        info.process = m_section->process;
        info.pid = record.pid;
        if (record.rank >= 0)
            info.rank = record.rank;
        m_section->info = m_info.processes.size();
        m_info.processes.push_back(std::move(info));
    }

    void readProcess(const native::ChunkHeader& chunk, const unsigned char* records)
    {
        for (std::uint32_t i = 0; i < chunk.recordCount; ++i) {
            native::ProcessRecord record {};
            std::memcpy(&record, records + std::size_t(i) * chunk.recordSize, sizeof(record));
            startSection(record);
        }
    }

    void readMetadata(const native::ChunkHeader& chunk, const unsigned char* records)
    {
        Section& s = section();
        Process& process = m_trace.processes()[s.process.value];
        NativeProcessInfo& info = m_info.processes[s.info];
        using Key = native::MetadataKey;
        for (std::uint32_t i = 0; i < chunk.recordCount; ++i) {
            native::MetadataRecord m {};
            std::memcpy(&m, records + std::size_t(i) * chunk.recordSize, sizeof(m));
            const std::string value(text(m.text));
            switch (static_cast<Key>(m.key)) {
            case Key::ProcessName:
                process.name = value;
                break;
            case Key::CommandLine:
                info.commandLine = value;
                break;
            case Key::ParentPid:
                info.parentPid = m.number;
                break;
            case Key::ThreadName:
                s.threadNames[m.subject] = value;
                break;
            case Key::ThreadOsName:
                s.threadOsNames[m.subject] = value;
                break;
            case Key::DeviceName:
                s.deviceNames[m.device] = value;
                break;
            case Key::DeviceProperties:
                s.deviceProperties[m.device] = value;
                break;
            case Key::StreamName:
                s.streamNames[{ m.device, m.subject }] = value;
                break;
            case Key::CollectorError:
                info.collectorErrors.push_back(value);
                m_trace.warnings().push_back({ m_fileName, m_source.offset(),
                    "collector in process " + std::to_string(info.pid) + ": " + value });
                break;
            case Key::CollectorNote:
                info.collectorNotes.push_back(value);
                break;
            case Key::CuptiStatus:
                info.cuptiActive = m.number != 0;
                info.cuptiDetail = value;
                break;
            case Key::ProcessSortIndex:
                process.sortIndex = static_cast<int>(m.number);
                break;
            case Key::ThreadSortIndex:
                s.threadSortIndex[m.subject] = static_cast<int>(m.number);
                break;
            case Key::StreamSortIndex:
                s.streamSortIndex[{ m.device, m.subject }] = static_cast<int>(m.number);
                break;
            case Key::ImportWarning:
                m_trace.warnings().push_back(
                    { std::string(text(m.text2)), static_cast<std::uint64_t>(m.number), value });
                break;
            case Key::ProcessFileMetadata:
                process.fileMetadataJson = value;
                break;
            case Key::RecordWindow:
                info.recordWindow = std::make_pair(m.subject, m.number);
                break;
            case Key::LaneEventCount:
                if (m.number > 0)
                    s.laneSizes[{ m.device < 0 ? -1 : m.device, m.subject }] = static_cast<std::uint64_t>(m.number);
                break;
            default:
                break; // a key from a newer writer: nothing this build can do with it
            }
        }
    }

    void readCounters(const native::ChunkHeader& chunk, const unsigned char* records)
    {
        NativeProcessInfo& info = m_info.processes[section().info];
        for (std::uint32_t i = 0; i < chunk.recordCount; ++i) {
            native::CountersRecord c {};
            std::memcpy(&c, records + std::size_t(i) * chunk.recordSize, sizeof(c));
            info.counters.droppedRecords += c.droppedRecords;
            info.counters.skippedRecords += c.skippedRecords;
            info.counters.unknownRecords += c.unknownRecords;
            info.counters.truncatedBytes += c.truncatedBytes;
            m_trace.droppedRecords() += c.droppedRecords;
            m_trace.skippedEvents() += c.skippedRecords;
        }
    }

    void badEvent(std::uint64_t offset, const std::string& why)
    {
        ++m_trace.skippedEvents();
        if (listsSkip(++m_badEvents))
            warn(offset, "skipped an event: " + why);
    }

    /// Sizes a new lane once when the file announced its size, within what the file can hold.
    void reserveAnnounced(const Section& s, int device, std::int64_t laneId, std::uint32_t lane)
    {
        const auto it = s.laneSizes.find({ device, laneId });
        if (it == s.laneSizes.end())
            return;
        const std::uint64_t possible = m_source.size() / sizeof(native::EventRecord);
        EventVector& events = m_trace.lanes()[lane].events;
        events.reserve(static_cast<std::size_t>(std::min(it->second, possible)));
    }

    std::uint32_t threadLane(Section& s, std::int64_t tid)
    {
        if (s.lastThreadLane != kUndefined && s.lastTid == tid)
            return s.lastThreadLane;
        auto [it, inserted] = s.threadLanes.try_emplace(tid, 0);
        if (inserted) {
            it->second = m_trace.threadLane(s.process, tid).value;
            reserveAnnounced(s, -1, tid, it->second);
        }
        s.lastTid = tid;
        s.lastThreadLane = it->second;
        return it->second;
    }

    std::uint32_t streamLane(Section& s, int device, std::int64_t stream)
    {
        const std::pair<int, std::int64_t> key { device, stream };
        if (s.lastStreamLane != kUndefined && s.lastStream == key)
            return s.lastStreamLane;
        auto [it, inserted] = s.streamLanes.try_emplace(key, 0);
        if (inserted) {
            it->second = m_trace.streamLane(m_trace.device(s.process, device), stream).value;
            reserveAnnounced(s, device, stream, it->second);
        }
        s.lastStream = key;
        s.lastStreamLane = it->second;
        return it->second;
    }

    ArgsId argsOf(std::uint32_t id)
    {
        if (id >= m_argsIds.size())
            m_argsIds.resize(m_stringIds.size(), kUndefined);
        if (m_argsIds[id] == kUndefined)
            m_argsIds[id] = m_trace.addArgs(text(id)).value;
        return ArgsId { m_argsIds[id] };
    }

    void readEvents(const native::ChunkHeader& chunk, const unsigned char* records, std::uint64_t payloadOffset)
    {
        Section& s = section();
        const std::size_t stride = chunk.recordSize;
        const StringId* strings = m_stringIds.data();
        const std::size_t stringCount = m_stringIds.size();
        for (std::uint32_t i = 0; i < chunk.recordCount; ++i) {
            native::EventRecord r;
            std::memcpy(&r, records + i * stride, sizeof(r));
            const std::uint8_t kind = kKindOfCode[r.code];
            const bool nameOk = r.name < stringCount && strings[r.name].value != kUndefined;
            const bool argsOk = r.args == 0 || (r.args < stringCount && strings[r.args].value != kUndefined);
            // Times within +-2^62 ns (146 years around the clock's zero): any difference of two of them, a
            // duration or a gap, fits in an int64 (fuzzing found events 8.7e18 ns apart that overflowed them).
            const bool timesOk = r.start > -kTimeLimit && r.end < kTimeLimit;
            if (kind == 0 || !nameOk || !argsOk || r.end < r.start || !timesOk) [[unlikely]] {
                const std::uint64_t offset = payloadOffset + i * stride;
                if (kind == 0)
                    badEvent(offset, "unknown event kind " + std::to_string(r.code));
                else if (!nameOk || !argsOk)
                    badEvent(offset, "it refers to a string the file does not define");
                else if (r.end < r.start)
                    badEvent(offset, "it ends before it starts");
                else
                    badEvent(offset, "its times lie beyond 2^62 ns (146 years) from the clock's zero");
                continue;
            }
            if (m_filter.active() && !m_filter.keeps(static_cast<EventKind>(kind - 1), r.start, r.end)) {
                ++m_filtered;
                continue;
            }
            Event e;
            e.start = r.start;
            e.end = r.end;
            e.bytes = r.bytes;
            e.name = strings[r.name];
            e.correlation = r.correlation;
            e.args = r.args == 0 ? kNoArgs : argsOf(r.args);
            e.kind = static_cast<EventKind>(kind - 1);
            e.copyKind = r.copy <= static_cast<std::uint8_t>(CopyKind::PtoP) ? static_cast<CopyKind>(r.copy)
                                                                             : CopyKind::Unknown;
            const std::uint32_t lane = r.device >= 0 ? streamLane(s, r.device, r.lane) : threadLane(s, r.lane);
            m_trace.lanes()[lane].events.push_back(e);
        }
    }

    /// Applies the section's names and sort indices to the lanes and devices that got events.
    void finishSection()
    {
        if (!m_section)
            return;
        Section& s = *m_section;
        for (const auto& [tid, laneIndex] : s.threadLanes) {
            Lane& lane = m_trace.lanes()[laneIndex];
            if (auto it = s.threadNames.find(tid); it != s.threadNames.end())
                lane.name = it->second;
            else if (auto os = s.threadOsNames.find(tid); os != s.threadOsNames.end())
                lane.name = os->second;
            else if (tid == native::kCollectorLane)
                lane.name = native::kCollectorLaneName;
            if (auto it = s.threadSortIndex.find(tid); it != s.threadSortIndex.end())
                lane.sortIndex = it->second;
        }
        for (const auto& [key, laneIndex] : s.streamLanes) {
            Lane& lane = m_trace.lanes()[laneIndex];
            if (auto it = s.streamNames.find(key); it != s.streamNames.end())
                lane.name = it->second;
            if (auto it = s.streamSortIndex.find(key); it != s.streamSortIndex.end())
                lane.sortIndex = it->second;
            Device& device = m_trace.devices()[lane.device.value];
            if (auto it = s.deviceNames.find(key.first); it != s.deviceNames.end())
                device.name = it->second;
            if (auto it = s.deviceProperties.find(key.first); it != s.deviceProperties.end())
                device.propertiesJson = it->second;
        }
        m_section.reset();
    }

    void warn(std::uint64_t offset, std::string message)
    {
        m_trace.warnings().push_back({ m_fileName, offset, std::move(message) });
    }

    native::ByteSource& m_source;
    const std::string& m_fileName;
    const std::stop_token m_stop;
    const ReadFilter m_filter;
    std::uint64_t m_filtered = 0;
    TraceBuilder m_trace;
    NativeFileInfo m_info;
    std::int64_t m_headerPid = 0;
    std::int32_t m_headerRank = -1;
    /// File string id -> trace string id (value kUndefined: not defined yet).
    std::vector<StringId> m_stringIds;
    std::vector<std::string_view> m_stringTexts;
    /// File string id -> ArgsId of that text, created on first use.
    std::vector<std::uint32_t> m_argsIds;
    std::unique_ptr<Section> m_section;
    bool m_anySection = false;
    std::size_t m_badEvents = 0;
    std::size_t m_unknownChunkTypes = 0;
    std::string m_stopReason;
};

} // namespace

bool NativeTraceReader::hasMagic(std::string_view head)
{
    return head.size() >= 4 && std::memcmp(head.data(), native::kMagic, 4) == 0;
}

namespace {

/// A whole file mapped read-only for one sequential pass; unmapped when it goes out of scope.
struct FileMapping {
    FileMapping(int fd, std::size_t length)
        : size(length)
        , data(::mmap(nullptr, length, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0))
    {
        if (data != MAP_FAILED)
            ::madvise(data, size, MADV_SEQUENTIAL);
    }
    ~FileMapping()
    {
        if (data != MAP_FAILED)
            ::munmap(data, size);
    }
    FileMapping(const FileMapping&) = delete;
    FileMapping& operator=(const FileMapping&) = delete;

    std::size_t size;
    void* data;
};

} // namespace

namespace {

IoResult<NativeTraceReader::Capture> finishedCapture(IoResult<NativeTraceReader::UnfinishedCapture>&& read)
{
    if (!read)
        return read.error();
    return NativeTraceReader::Capture { std::move(read.value().trace).finish(), std::move(read.value().info) };
}

} // namespace

IoResult<NativeTraceReader::Capture> NativeTraceReader::parse(std::string_view bytes, const std::string& fileName)
{
    native::MemorySource source(bytes);
    return finishedCapture(NativeParser(source, fileName).run());
}

IoResult<NativeTraceReader::Capture> NativeTraceReader::readCapture(
    const std::string& path, std::stop_token stop, const ReadFilter& filter)
{
    return finishedCapture(readUnfinished(path, std::move(stop), filter));
}

IoResult<NativeTraceReader::UnfinishedCapture> NativeTraceReader::readUnfinished(
    const std::string& path, std::stop_token stop, const ReadFilter& filter)
{
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file)
        return IoError { path, std::nullopt, "cannot open: " + std::generic_category().message(errno) };
    struct stat st { };
    if (::fstat(::fileno(file), &st) != 0 || !S_ISREG(st.st_mode)) {
        std::fclose(file);
        return IoError { path, std::nullopt, "not a regular file" };
    }
    // Mapped, the file's pages are parsed where the page cache holds them: read() would copy every byte
    // once more (a fifth of the load time). Where mapping fails, the file is read chunk by chunk instead.
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > 0) {
        const FileMapping mapping(::fileno(file), size);
        if (mapping.data != MAP_FAILED) {
            std::fclose(file);
            native::MemorySource source(std::string_view(static_cast<const char*>(mapping.data), size));
            return NativeParser(source, path, stop, filter).run();
        }
    }
    native::FileSource source(file, size);
    return NativeParser(source, path, stop, filter).run();
}

IoResult<Trace> NativeTraceReader::readFile(const std::string& path)
{
    auto capture = readCapture(path);
    if (!capture)
        return capture.error();
    return std::move(capture.value().trace);
}

} // namespace gapscope
