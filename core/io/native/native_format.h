// SPDX-License-Identifier: MIT
#pragma once

// The GapScope native capture format (README.md "File formats"): the one record layout shared by the injected
// collector (capture/, which must not link core) and core's reader and writer. Plain structs and
// constants only; no other dependency.
//
// A file is a FileHeader followed by self-delimiting chunks, each a ChunkHeader and a payload of
// `payloadSize` bytes (a multiple of 8, so every chunk starts 8-byte aligned):
//
//   FileHeader | Strings | Metadata | Events ... | Counters | Strings | Events ... | ... | End
//
// - The collector appends whole chunks with one write() per flush, so a process that crashes
//   leaves a file whose last complete chunk ends at its last flush. Readers load up to the last
//   complete chunk and warn; a file without an End chunk was not closed cleanly.
// - Strings are interned per file: a Strings chunk defines ids (1, 2, ...; 0 is the empty string)
//   before any later chunk refers to them.
// - Records of the fixed-size chunks carry their size in the chunk header (`recordSize`): a newer
//   writer may append fields to a record, an older reader reads the prefix it knows. Unknown chunk
//   types are skipped. Anything else that changes the meaning of existing bytes bumps
//   kFormatVersion, and readers refuse versions newer than their own.
// - Events before the first Process chunk belong to the process the FileHeader names (the
//   collector writes one process per file); each Process chunk starts a new process section (a
//   merged recording of several processes).
// - All times are int64 nanoseconds on the clock named by FileHeader::clock; intervals are
//   half-open [start, end). Integers are little-endian (the only byte order GapScope runs on).

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gapscope::native {

/// First bytes of every file. The high-bit first byte and the CR LF pair catch 7-bit and
/// text-mode transfers, as PNG's signature does; 0x89 'G' 'S' 'C' is what content sniffing checks.
inline constexpr unsigned char kMagic[8] = { 0x89, 'G', 'S', 'C', '\r', '\n', 0x1a, '\n' };
/// The version this build writes and the newest it reads.
inline constexpr std::uint32_t kFormatVersion = 1;
/// Extension of native files, per-process capture files and merged recordings alike.
inline constexpr const char* kFileExtension = ".gapscope";
/// Marks the start of every chunk; a mismatch means the bytes are not a chunk boundary.
inline constexpr std::uint32_t kChunkMarker = 0x4b434753u; // "GSCK" in little-endian byte order
/// Writers keep chunks below this so a reader's per-chunk buffer stays small.
inline constexpr std::uint32_t kMaxChunkPayload = 64u << 20;

/// The clock of every timestamp in the file.
enum class ClockId : std::uint32_t {
    Unknown = 0,
    /// cuptiGetTimestamp(): CLOCK_REALTIME in ns on Linux, the clock of CUPTI activity records.
    CuptiTimestamp = 1,
    /// clock_gettime(CLOCK_REALTIME) read directly (a collector built without CUPTI).
    Realtime = 2,
};

struct FileHeader {
    unsigned char magic[8];
    std::uint32_t formatVersion;
    /// sizeof(FileHeader) as the writer knew it; readers skip bytes they do not know.
    std::uint32_t headerSize;
    /// NUL-padded "gapscope 0.1.0" of the program that wrote the file.
    char producer[24];
    std::uint32_t clock; // ClockId
    /// MPI/torchrun rank of the process, -1 if unknown.
    std::int32_t rank;
    std::int64_t pid;
    /// When the writer opened the file.
    std::int64_t startTimeNs;
};
static_assert(sizeof(FileHeader) == 64, "FileHeader is part of the file format");

/// The header every writer puts first (the collector's stream writer and core's trace writer alike): the magic,
/// this format version, the header's own size, "gapscope VERSION" as the producer, and the given fields.
inline FileHeader makeFileHeader(ClockId clock, std::int32_t rank, std::int64_t pid, std::int64_t startTimeNs)
{
    FileHeader h {};
    std::memcpy(h.magic, kMagic, sizeof(h.magic));
    h.formatVersion = kFormatVersion;
    h.headerSize = sizeof(h);
    std::strncpy(h.producer, "gapscope " GAPSCOPE_VERSION, sizeof(h.producer) - 1);
    h.clock = static_cast<std::uint32_t>(clock);
    h.rank = rank;
    h.pid = pid;
    h.startTimeNs = startTimeNs;
    return h;
}

enum class ChunkType : std::uint16_t {
    Strings = 1, // StringRecord entries (variable size; recordSize 0)
    Metadata = 2, // MetadataRecord[]
    Events = 3, // EventRecord[]
    Counters = 4, // CountersRecord[]: deltas, summed by readers
    Process = 5, // one ProcessRecord: starts a new process section
    End = 6, // one EndRecord: the writer closed the file cleanly
};

struct ChunkHeader {
    std::uint32_t marker; // kChunkMarker
    std::uint16_t type; // ChunkType
    /// Size of one record of the payload; 0 for variable-size payloads (Strings).
    std::uint16_t recordSize;
    std::uint32_t recordCount;
    /// Payload bytes after this header, a multiple of 8.
    std::uint32_t payloadSize;
};
static_assert(sizeof(ChunkHeader) == 16, "ChunkHeader is part of the file format");

/// One entry of a Strings chunk: the header, then `length` bytes of UTF-8 (not NUL-terminated),
/// then zero padding up to the next multiple of 8.
struct StringRecord {
    std::uint32_t id;
    std::uint32_t length;
};
static_assert(sizeof(StringRecord) == 8, "StringRecord is part of the file format");

constexpr std::uint32_t paddedStringSize(std::uint32_t length)
{
    return static_cast<std::uint32_t>(sizeof(StringRecord)) + ((length + 7u) & ~7u);
}

/// Event kinds as stored. Deliberately not core's EventKind: the values are frozen here.
enum class EventCode : std::uint8_t {
    Kernel = 1,
    Memcpy = 2,
    Memset = 3,
    Sync = 4, // a synchronization wait as CUPTI reports it (drawn on the stream's lane)
    RuntimeApi = 5,
    DriverApi = 6,
    NvtxRange = 7,
    NvtxMark = 8,
    Overhead = 9, // the collector's and CUPTI's own cost, on the collector lane
    CpuOp = 10,
    PythonFunction = 11,
    UserAnnotation = 12,
    GpuUserAnnotation = 13,
    Other = 14,
};

/// True for codes a collector puts on a GPU stream lane (with EventRecord::device set).
constexpr bool isStreamLaneCode(EventCode code)
{
    return code == EventCode::Kernel || code == EventCode::Memcpy || code == EventCode::Memset
        || code == EventCode::Sync || code == EventCode::GpuUserAnnotation;
}

/// Copy directions; the values are CUPTI's CUpti_ActivityMemcpyKind (and core's CopyKind).
enum class CopyCode : std::uint8_t {
    Unknown = 0,
    HtoD = 1,
    DtoH = 2,
    HtoA = 3,
    AtoH = 4,
    AtoA = 5,
    AtoD = 6,
    DtoA = 7,
    DtoD = 8,
    HtoH = 9,
    PtoP = 10,
};

/// The `lane` of events that are the collector's own cost (EventCode::Overhead). Not a thread id:
/// readers give it a lane of its own so nobody mistakes profiler cost for the program's.
inline constexpr std::int64_t kCollectorLane = -1;
/// Name readers give the collector lane.
inline constexpr const char* kCollectorLaneName = "GapScope collector (overhead)";
/// Stream id of synchronization records that belong to no stream (context and event syncs), as Kineto writes it.
inline constexpr std::int64_t kNoStream = -1;

struct EventRecord {
    std::int64_t start;
    std::int64_t end;
    /// Bytes moved by a memcpy or set by a memset; 0 otherwise.
    std::uint64_t bytes;
    /// Stream id on a stream lane (device >= 0); OS thread id on a thread lane (device -1), or
    /// kCollectorLane for the collector's own cost.
    std::int64_t lane;
    std::uint32_t name; // string id
    /// Links an API call to the GPU work it launched; 0 = none.
    std::uint32_t correlation;
    /// String id of a JSON object with extra arguments; 0 = none.
    std::uint32_t args;
    /// CUDA device ordinal when the event lives on a stream lane of that device; -1 when it lives on a
    /// thread lane. (The lane follows this field, not the code: imports may put any kind anywhere.)
    std::int16_t device;
    std::uint8_t code; // EventCode
    std::uint8_t copy; // CopyCode
};
static_assert(sizeof(EventRecord) == 48, "EventRecord is part of the file format");

enum class MetadataKey : std::uint32_t {
    ProcessName = 1, // text
    CommandLine = 2, // text: arguments joined by spaces
    ParentPid = 3, // number
    ThreadName = 4, // subject = tid, text: name the program gave (nvtxNameOsThread); wins over ThreadOsName
    ThreadOsName = 5, // subject = tid, text: the kernel's name for the thread (/proc/.../comm)
    DeviceName = 6, // device, text
    DeviceProperties = 7, // device, text: JSON object
    StreamName = 8, // device, subject = stream, text
    CollectorError = 9, // text: something failed in the collector (CUPTI errors); recording went on
    CollectorNote = 10, // text: information from the collector
    CuptiStatus = 11, // number: 1 = CUDA activity is recorded, 0 = it is not; text: detail
    ProcessSortIndex = 12, // number
    ThreadSortIndex = 13, // subject = tid, number
    StreamSortIndex = 14, // device, subject = stream, number
    ImportWarning = 15, // text: message, text2: file, number: byte offset (kept by merged files)
    ProcessFileMetadata = 16, // text: JSON object of the source file's top-level keys
    RecordWindow = 17, // subject = first ns, number = end ns: the collector dropped events outside it
    /// device (-1: thread lane), subject = lane id, number = events the lane will get: lets readers
    /// size the lane once (written by writers that know it, such as a merged recording's).
    LaneEventCount = 18,
};

struct MetadataRecord {
    std::uint32_t key; // MetadataKey
    std::int32_t device; // -1 when not about a device
    std::int64_t subject;
    std::int64_t number;
    std::uint32_t text; // string id
    std::uint32_t text2; // string id
};
static_assert(sizeof(MetadataRecord) == 32, "MetadataRecord is part of the file format");

/// Counts since the previous Counters chunk of the same process.
struct CountersRecord {
    /// Activity records CUPTI dropped for lack of buffer space (cuptiActivityGetNumDroppedRecords).
    std::uint64_t droppedRecords;
    /// Records skipped because they had no timestamps (start == end == 0) or ended before they began.
    std::uint64_t skippedRecords;
    /// Records of kinds the collector does not translate.
    std::uint64_t unknownRecords;
    /// Bytes at the end of CUPTI buffers that did not hold a complete record.
    std::uint64_t truncatedBytes;
};
static_assert(sizeof(CountersRecord) == 32, "CountersRecord is part of the file format");

struct ProcessRecord {
    std::int64_t pid;
    std::int32_t rank; // -1 if unknown
    std::uint32_t name; // string id
};
static_assert(sizeof(ProcessRecord) == 16, "ProcessRecord is part of the file format");

struct EndRecord {
    std::int64_t endTimeNs;
    /// Events the writer wrote in total (all processes).
    std::uint64_t eventCount;
};
static_assert(sizeof(EndRecord) == 16, "EndRecord is part of the file format");

} // namespace gapscope::native
