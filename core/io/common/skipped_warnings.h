// SPDX-License-Identifier: MIT
#pragma once

// One cap on skip warnings for every reader (Chrome JSON, GapScope captures, Nsight Systems exports): a
// damaged file of millions of bad events must not make millions of warnings.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gapscope {

/// The first this many skipped events (JSON events, capture records, SQLite rows) get a warning each.
inline constexpr std::uint64_t kListedSkips = 100;

/// Whether the skipped event numbered `n` (counting from 1) gets its own warning.
constexpr bool listsSkip(std::uint64_t n)
{
    return n <= kListedSkips;
}

/// The one warning that stands for the skipped events past the listed ones: "250 malformed events were
/// skipped; only the first 100 are listed" (`what`: "malformed events", "rows"); nullopt when all were listed.
inline std::optional<std::string> unlistedSkipsWarning(std::uint64_t skipped, std::string_view what)
{
    if (listsSkip(skipped))
        return std::nullopt;
    return std::to_string(skipped) + " " + std::string(what) + " were skipped; only the first "
        + std::to_string(kListedSkips) + " are listed";
}

} // namespace gapscope
