// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/event.h"

#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gapscope {

/// Interns strings; each distinct string is stored once. Id 0 is the empty string.
/// Views returned by view() stay valid for the table's lifetime (storage never moves).
class StringTable {
public:
    StringTable();
    StringTable(const StringTable& other);
    StringTable& operator=(const StringTable& other);
    StringTable(StringTable&&) noexcept = default;
    StringTable& operator=(StringTable&&) noexcept = default;

    StringId intern(std::string_view text);
    std::optional<StringId> find(std::string_view text) const;
    std::string_view view(StringId id) const { return m_views[id.value]; }
    std::size_t size() const { return m_views.size(); }

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view> {}(s); }
    };
    std::deque<std::string> m_storage;
    std::vector<std::string_view> m_views;
    std::unordered_map<std::string_view, std::uint32_t, Hash, std::equal_to<>> m_index;
};

} // namespace gapscope
