// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/native/native_format.h"

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace gapscope::capture {

/// Receives what the collector records. NativeStreamWriter implements it; the CUPTI translator
/// writes to it. All functions are thread-safe.
class NativeSink {
public:
    virtual ~NativeSink() = default;
    /// The file string id of `text` (0 for the empty string); the same text always gets the same id.
    virtual std::uint32_t internString(std::string_view text) = 0;
    virtual void addEvent(const native::EventRecord& event) = 0;
    virtual void addMetadata(const native::MetadataRecord& record) = 0;
    virtual void addCounters(const native::CountersRecord& delta) = 0;
};

/// Streams one process's capture to a native file (core/io/native/native_format.h) while the program runs.
///
/// Events are buffered per calling thread (one uncontended lock per event); flush() moves
/// everything buffered so far into whole chunks written with one write(), so a crash loses at most
/// what came after the last flush and leaves a file that loads up to it. Strings are interned
/// once per file and written before the first chunk that uses them.
///
/// Part of the injected collector: no core .cpp, no exceptions thrown to callers that the
/// collector's C entry points do not catch (only std::bad_alloc can escape).
class NativeStreamWriter final : public NativeSink {
public:
    struct Header {
        std::int64_t pid = 0;
        std::int32_t rank = -1;
        native::ClockId clock = native::ClockId::Unknown;
        std::int64_t startTimeNs = 0;
    };

    NativeStreamWriter();
    /// Closes the file descriptor without writing an End chunk (the file then reads as cut off).
    ~NativeStreamWriter() override;
    NativeStreamWriter(const NativeStreamWriter&) = delete;
    NativeStreamWriter& operator=(const NativeStreamWriter&) = delete;

    /// Creates `path` (never replacing an existing file) and writes the header.
    bool open(const std::string& path, const Header& header, std::string& error);
    /// Creates "gapscope-[rank<R>-]<pid>.gapscope" in `directory`, adding "-1", "-2", ... when the name
    /// is taken (a reused pid). `path` receives the name used.
    bool openInDirectory(const std::string& directory, const Header& header, std::string& path, std::string& error);
    bool isOpen() const { return m_fd >= 0; }
    const std::string& path() const { return m_path; }

    /// Events that end before `from` or start at or after `until` are dropped from now on.
    void setWindow(std::int64_t from, std::int64_t until);

    std::uint32_t internString(std::string_view text) override;
    void addEvent(const native::EventRecord& event) override;
    void addMetadata(const native::MetadataRecord& record) override;
    void addCounters(const native::CountersRecord& delta) override;

    struct FlushResult {
        std::uint64_t events = 0;
        std::uint64_t bytes = 0;
        /// errno of a failed write, 0 when the write succeeded.
        int error = 0;
    };
    /// Writes what was buffered so far. One flush runs at a time; adding goes on meanwhile.
    FlushResult flush();
    /// Flushes, writes the End chunk and closes the file. Events added later are dropped.
    FlushResult close(std::int64_t endTimeNs);

    std::uint64_t eventsWritten() const { return m_eventsWritten.load(std::memory_order_relaxed); }
    /// errno of the write that failed (the disk filled, a file size limit): from then on nothing is
    /// buffered or written. 0 while writing works.
    int writeError() const { return m_writeError.load(std::memory_order_relaxed); }

private:
    struct ThreadBuffer {
        std::mutex mutex;
        std::vector<native::EventRecord> events;
    };
    ThreadBuffer& bufferOfThisThread();
    void appendChunk(std::string& out, native::ChunkType type, std::uint16_t recordSize, std::uint32_t count,
        const void* payload, std::size_t payloadSize);
    FlushResult writeAll(const std::string& bytes);
    /// After a failed write: cuts the file back to its last complete chunk and, space permitting,
    /// appends a CollectorError saying where and why recording stopped.
    void stopAfterFailedWrite(int error);

    /// Distinguishes writers in the per-thread buffer cache (addresses can be reused).
    const std::uint64_t m_instance;
    int m_fd = -1;
    std::string m_path;
    std::atomic<bool> m_closed { false };
    std::atomic<std::int64_t> m_windowFrom { INT64_MIN };
    std::atomic<std::int64_t> m_windowUntil { INT64_MAX };

    std::mutex m_buffersMutex;
    std::vector<std::unique_ptr<ThreadBuffer>> m_buffers;
    std::unordered_map<std::thread::id, ThreadBuffer*> m_bufferOfThread;

    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view> {}(s); }
    };
    std::mutex m_stringsMutex;
    std::deque<std::string> m_strings; // id - 1 -> text
    std::unordered_map<std::string_view, std::uint32_t, StringHash, std::equal_to<>> m_stringIds;
    std::size_t m_stringsWritten = 0;
    /// Strings known to be on disk (m_stringsWritten counts those of a write that may still fail).
    std::size_t m_stringsDurable = 0;

    std::mutex m_pendingMutex;
    std::vector<native::MetadataRecord> m_metadata;
    native::CountersRecord m_counters {};
    bool m_countersPending = false;

    std::mutex m_flushMutex;
    std::atomic<std::uint64_t> m_eventsWritten { 0 };
    std::atomic<bool> m_writeFailed { false };
    std::atomic<int> m_writeError { 0 };
    /// File size after the last write that succeeded: always the end of a complete chunk.
    std::uint64_t m_bytesDurable = 0;
    int m_openErrno = 0;
};

} // namespace gapscope::capture
