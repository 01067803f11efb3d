// SPDX-License-Identifier: MIT
#include "app/models/event_search.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <tuple>

namespace gapscope::models {

namespace {

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(
        out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

using Key = std::tuple<TimeNs, std::uint32_t, std::uint32_t>; // start, lane, index

Key keyOf(const Trace& trace, EventRef ref)
{
    return { trace.event(ref).start, ref.lane.value, ref.index };
}

} // namespace

EventSearch::EventSearch(const Trace& trace, const std::string& text)
    : m_names(trace.strings().size(), false)
{
    const std::string needle = lower(text);
    if (needle.empty())
        return;
    for (std::uint32_t id = 1; id < trace.strings().size(); ++id) {
        if (lower(trace.strings().view(StringId { id })).find(needle) != std::string::npos) {
            m_names[id] = true;
            ++m_matchingNames;
        }
    }
}

std::size_t EventSearch::count(const Trace& trace) const
{
    if (empty())
        return 0;
    std::size_t n = 0;
    for (const Lane& lane : trace.lanes())
        n += static_cast<std::size_t>(
            std::count_if(lane.events.begin(), lane.events.end(), [this](const Event& e) { return matches(e); }));
    return n;
}

std::size_t EventSearch::ordinal(const Trace& trace, EventRef match) const
{
    const Key key = keyOf(trace, match);
    std::size_t before = 0;
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        const auto& events = trace.lanes()[l].events;
        // Events starting earlier all come first; those starting at the same time, by lane and index.
        const auto end = std::partition_point(
            events.begin(), events.end(), [&](const Event& e) { return e.start <= std::get<0>(key); });
        for (auto it = events.begin(); it != end; ++it) {
            const auto i = static_cast<std::uint32_t>(it - events.begin());
            if (matches(*it) && Key { it->start, l, i } < key)
                ++before;
        }
    }
    return before + 1;
}

std::optional<EventRef> EventSearch::next(const Trace& trace, std::optional<EventRef> from, TimeNs notBefore) const
{
    if (empty())
        return std::nullopt;
    // Strictly after `from`, or at/after (notBefore, lane 0, index 0).
    const Key after = from ? keyOf(trace, *from) : Key { notBefore, 0, 0 };
    const bool inclusive = !from;
    std::optional<EventRef> best;
    std::optional<Key> bestKey;
    std::optional<EventRef> first;
    std::optional<Key> firstKey;
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        const auto& events = trace.lanes()[l].events;
        auto it = std::partition_point(
            events.begin(), events.end(), [&](const Event& e) { return e.start < std::get<0>(after); });
        for (; it != events.end(); ++it) {
            if (bestKey && it->start > std::get<0>(*bestKey))
                break;
            const auto i = static_cast<std::uint32_t>(it - events.begin());
            const Key key { it->start, l, i };
            if (!matches(*it) || (inclusive ? key < after : key <= after))
                continue;
            if (!bestKey || key < *bestKey) {
                best = EventRef { LaneIndex { l }, i };
                bestKey = key;
            }
            break;
        }
        // The overall first match, for wrapping around.
        for (std::uint32_t i = 0; i < events.size(); ++i) {
            if (firstKey && events[i].start > std::get<0>(*firstKey))
                break;
            if (matches(events[i])) {
                const Key key { events[i].start, l, i };
                if (!firstKey || key < *firstKey) {
                    first = EventRef { LaneIndex { l }, i };
                    firstKey = key;
                }
                break;
            }
        }
    }
    return best ? best : first;
}

std::optional<EventRef> EventSearch::previous(const Trace& trace, std::optional<EventRef> from, TimeNs notAfter) const
{
    if (empty())
        return std::nullopt;
    const Key before = from ? keyOf(trace, *from) : Key { notAfter, std::numeric_limits<std::uint32_t>::max(), 0 };
    std::optional<EventRef> best;
    std::optional<Key> bestKey;
    std::optional<EventRef> last;
    std::optional<Key> lastKey;
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        const auto& events = trace.lanes()[l].events;
        auto end = std::partition_point(
            events.begin(), events.end(), [&](const Event& e) { return e.start <= std::get<0>(before); });
        for (auto it = end; it != events.begin();) {
            --it;
            if (bestKey && it->start < std::get<0>(*bestKey))
                break;
            const auto i = static_cast<std::uint32_t>(it - events.begin());
            const Key key { it->start, l, i };
            if (!matches(*it) || !(key < before))
                continue;
            if (!bestKey || key > *bestKey) {
                best = EventRef { LaneIndex { l }, i };
                bestKey = key;
            }
            break;
        }
        for (std::uint32_t i = static_cast<std::uint32_t>(events.size()); i-- > 0;) {
            if (lastKey && events[i].start < std::get<0>(*lastKey))
                break;
            if (matches(events[i])) {
                const Key key { events[i].start, l, i };
                if (!lastKey || key > *lastKey) {
                    last = EventRef { LaneIndex { l }, i };
                    lastKey = key;
                }
                break;
            }
        }
    }
    return best ? best : last;
}

} // namespace gapscope::models
