// SPDX-License-Identifier: MIT
#pragma once

// Ctrl+F: events whose name contains a text (case-insensitive), visited in time order.

#include "core/model/trace.h"

#include <optional>
#include <string>
#include <vector>

namespace gapscope::models {

class EventSearch {
public:
    /// Precomputes which interned names match, so that stepping compares ids, not strings.
    EventSearch(const Trace& trace, const std::string& text);

    bool empty() const { return m_matchingNames == 0; }
    /// Number of matching events in the trace.
    std::size_t count(const Trace& trace) const;
    /// The place (1-based) of a match in (start, lane, index) order: "3" of "3/12".
    std::size_t ordinal(const Trace& trace, EventRef match) const;
    /// By StringId: whether events of that name match (for highlighting them on the timeline).
    const std::vector<bool>& matchingNames() const { return m_names; }
    /// The first match after `from` in (start, lane, index) order; from nullopt: the first match at or
    /// after `notBefore`. Wraps around to the first match.
    std::optional<EventRef> next(const Trace& trace, std::optional<EventRef> from, TimeNs notBefore) const;
    /// The last match before `from` in the same order; wraps around to the last match.
    std::optional<EventRef> previous(const Trace& trace, std::optional<EventRef> from, TimeNs notAfter) const;

private:
    bool matches(const Event& e) const { return e.name.value < m_names.size() && m_names[e.name.value]; }
    std::vector<bool> m_names; // by StringId
    std::size_t m_matchingNames = 0;
};

} // namespace gapscope::models
