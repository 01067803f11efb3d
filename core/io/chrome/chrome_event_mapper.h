// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/chrome/chrome_counters.h"
#include "core/io/chrome/chrome_event_parser.h"
#include "core/io/chrome/chrome_trace_builder.h"
#include "core/io/common/read_filter.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gapscope::chrome {

/// Turns parsed trace events into the model through a ChromeTraceBuilder: `ph` decides what an event is
/// (X/B/E/i slices, M metadata, s/f flows, C counters and `[memory]` instants also to counters(); flow steps are
/// dropped), `cat` its EventKind, and the
/// kind whether it goes to a GPU stream lane (device and stream from args, pid, tid) or a host thread lane.
/// A malformed event is skipped with a warning at its byte offset.
class ChromeEventMapper {
public:
    ChromeEventMapper(ChromeTraceBuilder& builder, bool keepArgs, const ReadFilter& filter = {})
        : m_builder(builder)
        , m_keepArgs(keepArgs)
        , m_filter(filter)
    {
        m_builder.setFilter(filter);
    }

    /// Maps one event; `offset` is where it starts in the content, for warnings.
    void map(const ParsedEvent& ev, std::uint64_t offset);
    /// Adds one warning per unsupported phase seen ("b", "P"...), with the count and first offset.
    void reportUnsupportedPhases();
    /// The `[memory]` and `C` events seen, to be made counter tracks once the trace is taken.
    ChromeCounterCollector& counters() { return m_counters; }

private:
    void mapSlice(const ParsedEvent& ev, std::uint64_t offset, char phase);
    void mapMetadata(const ParsedEvent& ev, std::uint64_t offset);
    void mapFlow(const ParsedEvent& ev, std::uint64_t offset);
    void countUnsupported(std::string_view phase, std::uint64_t offset);
    std::uint32_t laneFor(const ParsedEvent& ev, EventKind kind);
    EventKind kindOf(const ParsedEvent& ev);
    StringId internName(const ParsedEvent& ev);

    /// An event the filter dropped: counted, and a flow right after it (its launch link) is dropped too.
    void dropFiltered(const ParsedEvent& ev, EventKind kind);

    ChromeTraceBuilder& m_builder;
    ChromeCounterCollector m_counters;
    bool m_keepArgs;
    ReadFilter m_filter;
    struct DroppedEvent {
        RawId pid;
        RawId tid;
        TimeNs ts = 0;
        bool valid = false;
    };
    DroppedEvent m_lastDropped; // the slice the filter dropped last: the flow right after it is dropped too
    struct LastEvent {
        RawId pid;
        RawId tid;
        Event* event = nullptr;
    };
    LastEvent m_lastEvent; // the slice mapped last, which a flow event right after it usually binds
    std::string m_scratch;
    struct NameCacheSlot {
        std::uint32_t id = 0; // 0: empty (the empty string never needs the cache)
        std::uint32_t length = 0;
    };
    std::array<NameCacheSlot, 4096> m_nameCache {};
    std::vector<std::pair<std::string, EventKind>> m_categoryKinds; // categories seen, for a fast lookup
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> m_unsupportedPhases; // count, first offset
};

} // namespace gapscope::chrome
