// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/chrome/chrome_event_mapper.h"
#include "core/io/chrome/chrome_event_parser.h"
#include "core/io/chrome/content_window.h"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gapscope::chrome {

/// Maps parsed events on a second thread while the reader parses the next ones: on a large Kineto file, parsing
/// (reading, scanning the JSON, converting numbers) and mapping (interning names, storing args, routing events to
/// lanes) each take about half of the import, and they overlap.
///
/// The pipeline is the ContentWindow's buffer pool. Events parsed from a window buffer are views into it; when the
/// window moves to a fresh buffer, the old one travels with its events to the mapping thread, which maps them in
/// file order with the one ChromeEventMapper and hands the buffer back. So the mapper sees exactly the events, in
/// the order and with the byte offsets, that a single-threaded read gives it: the result is the same trace, with
/// the same warnings. At most kMaxBuffers buffers are alive: the parser waits when the mapper lags.
class EventPipeline final : public WindowBufferPool {
public:
    explicit EventPipeline(ChromeEventMapper& mapper);
    ~EventPipeline() override;
    EventPipeline(const EventPipeline&) = delete;
    EventPipeline& operator=(const EventPipeline&) = delete;

    /// Starts the mapping thread: from now on events go through slot()/commit() until finish().
    void start();
    /// Where to parse the next event: a slot of the current buffer's batch.
    ParsedEvent& slot();
    /// The event parsed into slot() is complete; `offset` is where it starts in the content.
    void commit(std::uint64_t offset);
    /// Waits until every committed event is mapped and stops the thread; the caller may use the mapper again.
    /// Rethrows what mapping threw (std::bad_alloc).
    void finish();

    char* take(std::size_t bytes, std::size_t& capacity) override;
    void retire(char* data, std::size_t capacity) override;

    /// Buffers alive at most: the window's, and those whose events wait to be mapped or are being mapped.
    static constexpr std::size_t kMaxBuffers = 8;

private:
    struct Batch {
        char* buffer = nullptr; // owned; nullptr: the window still uses the buffer (finish())
        std::size_t capacity = 0;
        std::vector<ParsedEvent> events; // [0, count) parsed; kept allocated between uses
        std::vector<std::uint64_t> offsets;
        std::size_t count = 0;
    };
    struct Buffer {
        char* data;
        std::size_t capacity;
    };
    void run();
    /// Queues a batch for mapping; returns an empty one to fill next (its vectors reused).
    Batch submit(Batch&& batch);
    Batch takeBatch();

    ChromeEventMapper& m_mapper;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<Batch> m_queue; // to map, in file order
    std::vector<Batch> m_spareBatches; // mapped, their vectors kept for reuse
    std::vector<Buffer> m_freeBuffers;
    std::size_t m_buffers = 0; // alive: in the window, queued, being mapped or free
    std::size_t m_unmapped = 0; // batches submitted and not yet mapped
    bool m_closing = false;
    std::exception_ptr m_failure;
    Batch m_current; // the window buffer's events, filled by the parsing thread
    std::size_t m_largestBatch = 0; // the most events a batch held so far
    std::thread m_thread;
};

} // namespace gapscope::chrome
