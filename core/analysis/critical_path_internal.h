// SPDX-License-Identifier: MIT
#pragma once

// What the critical-path files share and nobody else needs.

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gapscope {

/// The integer value of `"key": N` in an event's raw args JSON (Kineto's flat args objects), nullopt if absent
/// or not an integer. A text search, not a parse: the sync records it reads are a few per step.
inline std::optional<std::int64_t> argInteger(std::string_view json, std::string_view key)
{
    const std::string quoted = "\"" + std::string(key) + "\"";
    const std::size_t at = json.find(quoted);
    if (at == std::string_view::npos)
        return std::nullopt;
    std::size_t i = at + quoted.size();
    while (i < json.size() && (json[i] == ' ' || json[i] == ':'))
        ++i;
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(json.data() + i, json.data() + json.size(), value);
    if (error != std::errc {})
        return std::nullopt;
    return value;
}

} // namespace gapscope
