// SPDX-License-Identifier: MIT
#include "core/model/string_table.h"

namespace gapscope {

StringTable::StringTable()
{
    intern({});
}

StringTable::StringTable(const StringTable& other)
{
    *this = other;
}

StringTable& StringTable::operator=(const StringTable& other)
{
    if (this == &other)
        return *this;
    m_storage.clear();
    m_views.clear();
    m_index.clear();
    for (std::string_view s : other.m_views)
        intern(s);
    return *this;
}

StringId StringTable::intern(std::string_view text)
{
    if (auto it = m_index.find(text); it != m_index.end())
        return StringId { it->second };
    const std::string& stored = m_storage.emplace_back(text);
    const auto id = static_cast<std::uint32_t>(m_views.size());
    m_views.emplace_back(stored);
    m_index.emplace(std::string_view(stored), id);
    return StringId { id };
}

std::optional<StringId> StringTable::find(std::string_view text) const
{
    if (auto it = m_index.find(text); it != m_index.end())
        return StringId { it->second };
    return std::nullopt;
}

} // namespace gapscope
