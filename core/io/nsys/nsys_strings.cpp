// SPDX-License-Identifier: MIT
#include "core/io/nsys/nsys_strings.h"

#include <algorithm>

namespace gapscope::nsys {

bool NsysStrings::load(SqliteDatabase& db, std::string& problem)
{
    auto statement = db.prepare("SELECT id, value FROM StringIds");
    if (!statement) {
        problem = db.lastError();
        return false;
    }
    bool sorted = true;
    for (;;) {
        const SqliteStatement::Step step = statement->step();
        if (step == SqliteStatement::Step::Done)
            break;
        if (step == SqliteStatement::Step::Error) {
            problem = db.lastError();
            break;
        }
        const std::string_view value = statement->text(1);
        const std::int64_t id = statement->integer(0);
        sorted = sorted && (m_entries.empty() || m_entries.back().id < id);
        m_entries.push_back(Entry { id, m_buffer.size(), static_cast<std::uint32_t>(value.size()) });
        m_buffer.append(value);
    }
    if (!sorted) {
        std::sort(m_entries.begin(), m_entries.end(), [](const Entry& a, const Entry& b) { return a.id < b.id; });
        // A duplicate id (not possible for a primary key, but the file may not be nsys's) keeps its first row.
        m_entries.erase(std::unique(m_entries.begin(), m_entries.end(),
                            [](const Entry& a, const Entry& b) { return a.id == b.id; }),
            m_entries.end());
    }
    m_firstId = m_entries.empty() ? 0 : m_entries.front().id;
    m_names.assign(m_entries.size(), 0);
    m_apiNames.assign(m_entries.size(), 0);
    return problem.empty();
}

std::size_t NsysStrings::find(std::int64_t id) const
{
    if (m_entries.empty())
        return kNotFound;
    // nsys numbers its strings from 0 without holes: the entry is usually at the id's own offset.
    const std::uint64_t direct = static_cast<std::uint64_t>(id - m_entries.front().id);
    if (direct < m_entries.size() && m_entries[direct].id == id)
        return direct;
    const auto it = std::lower_bound(
        m_entries.begin(), m_entries.end(), id, [](const Entry& e, std::int64_t value) { return e.id < value; });
    return it != m_entries.end() && it->id == id ? static_cast<std::size_t>(it - m_entries.begin()) : kNotFound;
}

std::string_view NsysStrings::withoutApiVersion(std::string_view name)
{
    std::size_t digits = 0;
    while (digits < name.size() && name[name.size() - 1 - digits] >= '0' && name[name.size() - 1 - digits] <= '9')
        ++digits;
    if (digits < 4 || name.size() < digits + 3)
        return name;
    const std::string_view stem = name.substr(0, name.size() - digits);
    return stem.ends_with("_v") ? stem.substr(0, stem.size() - 2) : name;
}

StringId NsysStrings::intern(std::int64_t id, TraceBuilder& trace, std::vector<std::uint32_t>& cache, bool api)
{
    const std::size_t slot = find(id);
    if (slot == kNotFound) {
        ++m_missing;
        for (const auto& [unknownId, interned] : m_unknown) {
            if (unknownId == id)
                return interned;
        }
        const StringId interned = trace.strings().intern("[string " + std::to_string(id) + "]");
        if (m_unknown.size() < 64)
            m_unknown.emplace_back(id, interned);
        return interned;
    }
    if (cache[slot] != 0)
        return StringId { cache[slot] - 1 };
    std::string_view text = std::string_view(m_buffer).substr(m_entries[slot].offset, m_entries[slot].length);
    if (api)
        text = withoutApiVersion(text);
    const StringId interned = trace.strings().intern(text);
    cache[slot] = interned.value + 1;
    return interned;
}

} // namespace gapscope::nsys
