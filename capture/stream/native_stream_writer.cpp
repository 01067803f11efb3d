// SPDX-License-Identifier: MIT
#include "capture/stream/native_stream_writer.h"

#include "capture/collector_env.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace gapscope::capture {

namespace {

std::atomic<std::uint64_t> g_nextInstance { 1 };

/// The last writer this thread added to, and its buffer there. A plain struct: no TLS destructor.
struct ThreadBufferCache {
    std::uint64_t instance = 0;
    void* buffer = nullptr;
};
thread_local ThreadBufferCache t_cache;

} // namespace

NativeStreamWriter::NativeStreamWriter()
    : m_instance(g_nextInstance.fetch_add(1))
{ }

NativeStreamWriter::~NativeStreamWriter()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

bool NativeStreamWriter::open(const std::string& path, const Header& header, std::string& error)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_APPEND, 0644);
    if (fd < 0) {
        m_openErrno = errno;
        error = "cannot create " + path + ": " + std::strerror(m_openErrno);
        return false;
    }
    m_fd = fd;
    m_path = path;
    const native::FileHeader h = native::makeFileHeader(header.clock, header.rank, header.pid, header.startTimeNs);
    const FlushResult written = writeAll(std::string(reinterpret_cast<const char*>(&h), sizeof(h)));
    if (written.error != 0) {
        m_openErrno = written.error;
        error = "cannot write " + path + ": " + std::strerror(written.error);
        ::close(m_fd);
        m_fd = -1;
        return false;
    }
    return true;
}

bool NativeStreamWriter::openInDirectory(
    const std::string& directory, const Header& header, std::string& path, std::string& error)
{
    std::string base = directory.empty() ? std::string(".") : directory;
    if (base.back() != '/')
        base += '/';
    base += kPartFilePrefix;
    if (header.rank >= 0)
        base += "rank" + std::to_string(header.rank) + "-";
    base += std::to_string(header.pid);
    for (int attempt = 0; attempt < 100; ++attempt) {
        // Appended piece by piece: GCC 12 at -O2 warns (-Wrestrict, a false positive) on "-" + std::string&&.
        path = base;
        if (attempt > 0) {
            path += '-';
            path += std::to_string(attempt);
        }
        path += native::kFileExtension;
        if (open(path, header, error))
            return true;
        if (m_openErrno != EEXIST)
            return false;
    }
    return false;
}

void NativeStreamWriter::setWindow(std::int64_t from, std::int64_t until)
{
    m_windowFrom.store(from, std::memory_order_relaxed);
    m_windowUntil.store(until, std::memory_order_relaxed);
}

std::uint32_t NativeStreamWriter::internString(std::string_view text)
{
    if (text.empty())
        return 0;
    std::lock_guard lock(m_stringsMutex);
    if (auto it = m_stringIds.find(text); it != m_stringIds.end())
        return it->second;
    const std::string& stored = m_strings.emplace_back(text);
    const auto id = static_cast<std::uint32_t>(m_strings.size());
    m_stringIds.emplace(std::string_view(stored), id);
    return id;
}

NativeStreamWriter::ThreadBuffer& NativeStreamWriter::bufferOfThisThread()
{
    if (t_cache.instance == m_instance)
        return *static_cast<ThreadBuffer*>(t_cache.buffer);
    std::lock_guard lock(m_buffersMutex);
    ThreadBuffer*& buffer = m_bufferOfThread[std::this_thread::get_id()];
    if (!buffer)
        buffer = m_buffers.emplace_back(std::make_unique<ThreadBuffer>()).get();
    t_cache = { m_instance, buffer };
    return *buffer;
}

void NativeStreamWriter::addEvent(const native::EventRecord& event)
{
    if (m_closed.load(std::memory_order_relaxed) || m_writeFailed.load(std::memory_order_relaxed))
        return;
    if (event.end < m_windowFrom.load(std::memory_order_relaxed)
        || event.start >= m_windowUntil.load(std::memory_order_relaxed))
        return;
    ThreadBuffer& buffer = bufferOfThisThread();
    std::lock_guard lock(buffer.mutex);
    buffer.events.push_back(event);
}

void NativeStreamWriter::addMetadata(const native::MetadataRecord& record)
{
    if (m_writeFailed.load(std::memory_order_relaxed))
        return;
    std::lock_guard lock(m_pendingMutex);
    m_metadata.push_back(record);
}

void NativeStreamWriter::addCounters(const native::CountersRecord& delta)
{
    std::lock_guard lock(m_pendingMutex);
    m_counters.droppedRecords += delta.droppedRecords;
    m_counters.skippedRecords += delta.skippedRecords;
    m_counters.unknownRecords += delta.unknownRecords;
    m_counters.truncatedBytes += delta.truncatedBytes;
    m_countersPending = true;
}

void NativeStreamWriter::appendChunk(std::string& out, native::ChunkType type, std::uint16_t recordSize,
    std::uint32_t count, const void* payload, std::size_t payloadSize)
{
    const native::ChunkHeader header { native::kChunkMarker, static_cast<std::uint16_t>(type), recordSize, count,
        static_cast<std::uint32_t>(payloadSize) };
    out.append(reinterpret_cast<const char*>(&header), sizeof(header));
    out.append(static_cast<const char*>(payload), payloadSize);
}

NativeStreamWriter::FlushResult NativeStreamWriter::flush()
{
    std::lock_guard flushLock(m_flushMutex);
    if (m_fd < 0 || m_writeFailed)
        return {};
    // Events first, then metadata, then strings: every string an event or a record refers to was
    // interned before the event was added, so it is in the strings written below.
    std::vector<std::vector<native::EventRecord>> batches;
    {
        std::lock_guard lock(m_buffersMutex);
        for (const auto& buffer : m_buffers) {
            std::lock_guard bufferLock(buffer->mutex);
            if (!buffer->events.empty())
                batches.emplace_back().swap(buffer->events);
        }
    }
    std::vector<native::MetadataRecord> metadata;
    native::CountersRecord counters {};
    bool countersPending = false;
    {
        std::lock_guard lock(m_pendingMutex);
        metadata.swap(m_metadata);
        counters = m_counters;
        countersPending = m_countersPending;
        m_counters = {};
        m_countersPending = false;
    }
    std::string bytes;
    {
        std::lock_guard lock(m_stringsMutex);
        std::string payload;
        std::uint32_t count = 0;
        for (; m_stringsWritten < m_strings.size(); ++m_stringsWritten) {
            const std::string& text = m_strings[m_stringsWritten];
            if (payload.size() + text.size() + 16 > native::kMaxChunkPayload / 2) {
                appendChunk(bytes, native::ChunkType::Strings, 0, count, payload.data(), payload.size());
                payload.clear();
                count = 0;
            }
            const native::StringRecord entry { static_cast<std::uint32_t>(m_stringsWritten + 1),
                static_cast<std::uint32_t>(text.size()) };
            payload.append(reinterpret_cast<const char*>(&entry), sizeof(entry));
            payload.append(text);
            payload.append(native::paddedStringSize(entry.length) - sizeof(entry) - text.size(), '\0');
            ++count;
        }
        if (count > 0)
            appendChunk(bytes, native::ChunkType::Strings, 0, count, payload.data(), payload.size());
    }
    if (!metadata.empty()) {
        appendChunk(bytes, native::ChunkType::Metadata, sizeof(native::MetadataRecord),
            static_cast<std::uint32_t>(metadata.size()), metadata.data(),
            metadata.size() * sizeof(native::MetadataRecord));
    }
    std::uint64_t events = 0;
    constexpr std::size_t kPerChunk = native::kMaxChunkPayload / 2 / sizeof(native::EventRecord);
    for (const auto& batch : batches) {
        for (std::size_t first = 0; first < batch.size(); first += kPerChunk) {
            const std::size_t count = std::min(kPerChunk, batch.size() - first);
            appendChunk(bytes, native::ChunkType::Events, sizeof(native::EventRecord),
                static_cast<std::uint32_t>(count), batch.data() + first, count * sizeof(native::EventRecord));
        }
        events += batch.size();
    }
    if (countersPending)
        appendChunk(bytes, native::ChunkType::Counters, sizeof(counters), 1, &counters, sizeof(counters));
    FlushResult result = writeAll(bytes);
    result.events = result.error == 0 ? events : 0;
    if (result.error == 0) {
        m_eventsWritten.fetch_add(events, std::memory_order_relaxed);
        std::lock_guard lock(m_stringsMutex);
        m_stringsDurable = m_stringsWritten;
    }
    return result;
}

NativeStreamWriter::FlushResult NativeStreamWriter::close(std::int64_t endTimeNs)
{
    FlushResult result = flush();
    m_closed.store(true);
    std::lock_guard flushLock(m_flushMutex);
    if (m_fd < 0)
        return result;
    if (m_writeFailed) {
        ::close(m_fd);
        m_fd = -1;
        return result;
    }
    const native::EndRecord end { endTimeNs, m_eventsWritten.load() };
    std::string bytes;
    appendChunk(bytes, native::ChunkType::End, sizeof(end), 1, &end, sizeof(end));
    const FlushResult written = writeAll(bytes);
    result.bytes += written.bytes;
    if (result.error == 0)
        result.error = written.error;
    ::close(m_fd);
    m_fd = -1;
    return result;
}

NativeStreamWriter::FlushResult NativeStreamWriter::writeAll(const std::string& bytes)
{
    FlushResult result;
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(m_fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            result.error = errno;
            break;
        }
        done += static_cast<std::size_t>(n);
    }
    result.bytes = done;
    if (result.error == 0) {
        m_bytesDurable += done;
    } else if (!m_writeFailed.exchange(true)) {
        // A partial chunk may now end the file: appending after it would hide everything that
        // follows from readers, so this writer stops here, and says so.
        std::fprintf(stderr,
            "gapscope collector: writing %s failed: %s; the collector stops recording this process (the program "
            "goes on)\n",
            m_path.c_str(), std::strerror(result.error));
        stopAfterFailedWrite(result.error);
    }
    return result;
}

void NativeStreamWriter::stopAfterFailedWrite(int error)
{
    m_writeError.store(error, std::memory_order_relaxed);
    if (m_fd < 0 || m_bytesDurable == 0)
        return; // the header itself failed: open() reports it
    if (::ftruncate(m_fd, static_cast<off_t>(m_bytesDurable)) != 0)
        return; // cannot even cut it back: the reader stops at the partial chunk
    const std::string message = "writing the capture file failed after " + std::to_string(m_bytesDurable) + " bytes ("
        + std::strerror(error) + "): the collector stopped recording this process here; the program went on";
    // Its id is the first one not on disk: nothing on disk refers to it or to any later one.
    std::uint32_t id = 0;
    {
        std::lock_guard lock(m_stringsMutex);
        id = static_cast<std::uint32_t>(m_stringsDurable + 1);
    }
    std::string bytes;
    std::string payload;
    const native::StringRecord entry { id, static_cast<std::uint32_t>(message.size()) };
    payload.append(reinterpret_cast<const char*>(&entry), sizeof(entry));
    payload.append(message);
    payload.append(native::paddedStringSize(entry.length) - sizeof(entry) - message.size(), '\0');
    appendChunk(bytes, native::ChunkType::Strings, 0, 1, payload.data(), payload.size());
    const native::MetadataRecord note { static_cast<std::uint32_t>(native::MetadataKey::CollectorError), -1, 0, 0, id,
        0 };
    appendChunk(bytes, native::ChunkType::Metadata, sizeof(note), 1, &note, sizeof(note));
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(m_fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += static_cast<std::size_t>(n);
    }
    if (done != bytes.size() && ::ftruncate(m_fd, static_cast<off_t>(m_bytesDurable)) != 0) {
        // no room even for that, and no cutting back: the reader stops at the partial chunk
    }
}

} // namespace gapscope::capture
