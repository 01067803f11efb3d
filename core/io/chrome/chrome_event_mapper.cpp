// SPDX-License-Identifier: MIT
#include "core/io/chrome/chrome_event_mapper.h"

#include "core/io/chrome/chrome_categories.h"

#include <cstring>
#include <limits>

namespace gapscope::chrome {

namespace {

std::optional<std::int64_t> parseStreamTid(std::string_view text)
{
    // Legacy Kineto names GPU lanes "stream 7".
    constexpr std::string_view prefix = "stream ";
    if (text.size() <= prefix.size() || text.substr(0, prefix.size()) != prefix)
        return std::nullopt;
    std::string_view digits = text.substr(prefix.size());
    while (!digits.empty() && digits.back() == ' ')
        digits.remove_suffix(1);
    return json::parseInteger(digits);
}

} // namespace

EventKind ChromeEventMapper::kindOf(const ParsedEvent& ev)
{
    if (!ev.hasCat)
        return EventKind::Other;
    std::string_view cat = ev.cat;
    if (ev.catEscaped && json::unescapeString(ev.cat, m_scratch))
        cat = m_scratch;
    for (const auto& [known, kind] : m_categoryKinds) {
        if (known == cat)
            return kind;
    }
    const EventKind kind = kindFromCategory(cat);
    if (m_categoryKinds.size() < 64)
        m_categoryKinds.emplace_back(std::string(cat), kind);
    return kind;
}

StringId ChromeEventMapper::internName(const ParsedEvent& ev)
{
    if (ev.nameEscaped && json::unescapeString(ev.name, m_scratch))
        return m_builder.trace().strings().intern(m_scratch);
    // Names repeat (a few hundred distinct kernels in a million events) and are long (kernel signatures of
    // 200-600 bytes): a direct-mapped cache keyed by length and three 8-byte samples, verified by one memcmp,
    // spares hashing the whole name for the string table on every event.
    const std::string_view name = ev.name;
    const std::size_t n = name.size();
    std::uint64_t head = 0, middle = 0, tail = 0;
    if (n >= 8) {
        std::memcpy(&head, name.data(), 8);
        std::memcpy(&middle, name.data() + (n - 8) / 2, 8);
        std::memcpy(&tail, name.data() + n - 8, 8);
    } else {
        std::memcpy(&head, name.data(), n);
    }
    std::uint64_t h = (head ^ (middle * 0x9e3779b97f4a7c15ull) ^ (tail * 0xc2b2ae3d27d4eb4full)) + n;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    NameCacheSlot& slot = m_nameCache[h & (m_nameCache.size() - 1)];
    StringTable& strings = m_builder.trace().strings();
    if (slot.length == n && slot.id != 0) {
        const std::string_view cached = strings.view(StringId { slot.id });
        if (std::memcmp(cached.data(), name.data(), n) == 0)
            return StringId { slot.id };
    }
    const StringId id = strings.intern(name);
    slot.id = id.value;
    slot.length = static_cast<std::uint32_t>(n);
    return id;
}

std::uint32_t ChromeEventMapper::laneFor(const ParsedEvent& ev, EventKind kind)
{
    const RawId pid = ev.pid.id;
    const RawId tid = ev.tid.id;
    if (!isGpuLaneKind(kind))
        return m_builder.hostLane(pid, tid, tid.isString ? ev.tid.text : std::string_view());
    // Kineto: GPU events live under pid = device index and tid = stream; args.device / args.stream say so
    // explicitly and win. Legacy files name the lane "stream 7".
    int device = 0;
    if (ev.device && *ev.device >= 0 && *ev.device <= std::numeric_limits<int>::max())
        device = static_cast<int>(*ev.device);
    else if (!pid.isString && pid.value >= 0 && pid.value <= std::numeric_limits<int>::max())
        device = static_cast<int>(pid.value);
    std::int64_t stream = tid.value;
    std::string_view streamName;
    if (ev.stream) {
        stream = *ev.stream;
    } else if (tid.isString) {
        if (auto parsed = parseStreamTid(ev.tid.text))
            stream = *parsed;
        else
            streamName = ev.tid.text;
    }
    // Some Kineto versions wrote CUPTI's "no stream" as unsigned 4294967295, newer ones as -1: keep one lane.
    if (stream == 0xffffffffll)
        stream = -1;
    return m_builder.gpuLane(device, stream, streamName, pid, tid);
}

void ChromeEventMapper::map(const ParsedEvent& ev, std::uint64_t offset)
{
    m_builder.noteProgress(offset);
    if (!ev.isObject) {
        m_builder.warnSkipped(offset, "event skipped: it is not a JSON object");
        return;
    }
    if (ev.problem) {
        m_builder.warnSkipped(offset, std::string("event skipped: ") + ev.problem);
        return;
    }
    if (!ev.hasPh) {
        m_builder.warnSkipped(offset, "event skipped: it has no \"ph\"");
        return;
    }
    if (ev.ph.size() != 1) {
        countUnsupported(ev.ph, offset);
        return;
    }
    const char phase = ev.ph[0];
    switch (phase) {
    case 'i':
        if (ev.hasName && ev.name == "[memory]")
            m_counters.addMemory(ev);
        mapSlice(ev, offset, phase);
        return;
    case 'X':
    case 'B':
    case 'E':
    case 'I':
        mapSlice(ev, offset, phase);
        return;
    case 'M':
        mapMetadata(ev, offset);
        return;
    case 's':
    case 'f':
        mapFlow(ev, offset);
        return;
    case 'C':
        m_counters.addCounter(ev);
        return;
    case 't': // flow step: adds nothing to a launch → GPU op link
        return;
    default:
        countUnsupported(ev.ph, offset);
        return;
    }
}

void ChromeEventMapper::mapSlice(const ParsedEvent& ev, std::uint64_t offset, char phase)
{
    if (!ev.hasTs) {
        m_builder.warnSkipped(offset, "event skipped: it has no \"ts\"");
        return;
    }
    if (phase == 'E') {
        // A gpu-only read opened no host slice: the end of one it dropped is not malformed.
        if (m_filter.gpuOnly && !m_builder.hasOpenSlice(ev.pid.id, ev.tid.id)) {
            m_lastEvent = {}; // counted with its `B`
            return;
        }
        m_lastEvent = LastEvent { ev.pid.id, ev.tid.id, m_builder.end(ev.pid.id, ev.tid.id, ev.ts, offset) };
        return;
    }
    if (!ev.hasName) {
        m_builder.warnSkipped(offset, "event skipped: it has no \"name\"");
        return;
    }
    TimeNs end = ev.ts;
    if (phase == 'X') {
        if (!ev.hasDur) {
            m_builder.warnSkipped(offset, "complete event (\"X\") skipped: it has no \"dur\"");
            return;
        }
        if (ev.dur < 0) {
            m_builder.warnSkipped(offset, "event skipped: \"dur\" is negative");
            return;
        }
        if (__builtin_add_overflow(ev.ts, ev.dur, &end)) {
            m_builder.warnSkipped(offset, "event skipped: \"ts\" + \"dur\" is out of range");
            return;
        }
    }
    Event event;
    event.start = ev.ts;
    event.end = end;
    event.kind = kindOf(ev);
    // Filtered before the name and args are stored: a dropped event costs no memory. A `B` slice's end is not
    // known yet; ChromeTraceBuilder::end() checks its time.
    if (m_filter.active()
        && (phase == 'B' ? !m_filter.keepsKind(event.kind) : !m_filter.keeps(event.kind, event.start, event.end))) {
        dropFiltered(ev, event.kind);
        return;
    }
    event.name = internName(ev);
    if (ev.correlation && *ev.correlation > 0 && *ev.correlation <= std::numeric_limits<std::uint32_t>::max())
        event.correlation = static_cast<std::uint32_t>(*ev.correlation);
    if (event.kind == EventKind::Memcpy || event.kind == EventKind::Memset) {
        if (ev.bytes && *ev.bytes > 0)
            event.bytes = static_cast<std::uint64_t>(*ev.bytes);
        if (event.kind == EventKind::Memcpy)
            event.copyKind = copyKindFromMemcpyName(m_builder.trace().strings().view(event.name));
    }
    if (ev.hasArgs && !ev.argsEmpty && m_keepArgs)
        event.args = m_builder.trace().addArgs(ev.argsText);
    const std::uint32_t lane = laneFor(ev, event.kind);
    if (phase == 'B') {
        m_builder.begin(ev.pid.id, ev.tid.id, lane, event, offset);
        m_lastEvent = {};
    } else {
        m_lastEvent = LastEvent { ev.pid.id, ev.tid.id, m_builder.addEvent(lane, event) };
    }
}

void ChromeEventMapper::mapMetadata(const ParsedEvent& ev, std::uint64_t offset)
{
    if (!ev.hasName) {
        m_builder.warnSkipped(offset, "metadata event skipped: it has no \"name\"");
        return;
    }
    std::string value;
    if (ev.argNameEscaped && json::unescapeString(ev.argName, m_scratch))
        value = m_scratch;
    else
        value = std::string(ev.argName);
    const std::int64_t sortIndex = ev.sortIndex.value_or(0);
    if (ev.name == "process_name" && !ev.argName.empty())
        m_builder.addMetadata(MetadataKind::ProcessName, ev.pid.id, ev.tid.id, std::move(value), 0);
    else if (ev.name == "thread_name" && !ev.argName.empty())
        m_builder.addMetadata(MetadataKind::ThreadName, ev.pid.id, ev.tid.id, std::move(value), 0);
    else if (ev.name == "process_sort_index" && ev.sortIndex)
        m_builder.addMetadata(MetadataKind::ProcessSortIndex, ev.pid.id, ev.tid.id, {}, sortIndex);
    else if (ev.name == "thread_sort_index" && ev.sortIndex)
        m_builder.addMetadata(MetadataKind::ThreadSortIndex, ev.pid.id, ev.tid.id, {}, sortIndex);
    // process_labels ("CPU", "GPU 0") and other metadata are not modelled; the writer derives labels.
}

void ChromeEventMapper::mapFlow(const ParsedEvent& ev, std::uint64_t offset)
{
    if (!ev.hasTs) {
        m_builder.warnSkipped(offset, "flow event skipped: it has no \"ts\"");
        return;
    }
    if (!ev.hasId) {
        m_builder.warnSkipped(offset, "flow event skipped: it has no numeric \"id\"");
        return;
    }
    // Launch flows carry the correlation id: "ac2g" (Kineto), "async" (legacy Kineto). Others, such as
    // "fwdbwd" (forward → backward op), use ids of their own and must not become correlations.
    const bool launchFlow = !ev.hasCat || ev.cat == "ac2g" || ev.cat == "async";
    if (!launchFlow || ev.id == 0 || ev.id > std::numeric_limits<std::uint32_t>::max())
        return;
    const auto id = static_cast<std::uint32_t>(ev.id);
    if (m_lastDropped.valid && m_lastDropped.pid == ev.pid.id && m_lastDropped.tid == ev.tid.id
        && m_lastDropped.ts == ev.ts)
        return; // binds an event the filter dropped
    // Kineto writes each flow event right after the X event it binds: settle those here and keep only
    // the others for ChromeTraceBuilder, which binds them once every event is known.
    if (Event* last = m_lastEvent.event;
        last && m_lastEvent.pid == ev.pid.id && m_lastEvent.tid == ev.tid.id && last->start == ev.ts) {
        if (last->correlation == id)
            return;
        const bool linkable
            = last->kind == EventKind::RuntimeApi || last->kind == EventKind::DriverApi || isGpuLaneKind(last->kind);
        if (last->correlation == 0 && linkable) {
            last->correlation = id;
            return;
        }
    }
    m_builder.addFlow(ev.pid.id, ev.tid.id, ev.ts, id);
}

void ChromeEventMapper::dropFiltered(const ParsedEvent& ev, EventKind kind)
{
    m_builder.countFiltered(ev.pid.id, kind);
    m_lastEvent = {};
    m_lastDropped = DroppedEvent { ev.pid.id, ev.tid.id, ev.ts, true };
}

void ChromeEventMapper::countUnsupported(std::string_view phase, std::uint64_t offset)
{
    auto& seen = m_unsupportedPhases.try_emplace(std::string(phase), 0, offset).first->second;
    ++seen.first;
}

void ChromeEventMapper::reportUnsupportedPhases()
{
    for (const auto& [phase, seen] : m_unsupportedPhases) {
        m_builder.warn(
            seen.second, std::to_string(seen.first) + " events of unsupported phase \"" + phase + "\" were ignored");
    }
}

} // namespace gapscope::chrome
