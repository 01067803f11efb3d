// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/nsys/sqlite_database.h"
#include "core/model/trace_builder.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope::nsys {

/// The `StringIds` table of an export, read once into one buffer (no string per row), and the trace's interned
/// id for each string an event uses, interned on first use: a row's name costs an index and a load.
class NsysStrings {
public:
    /// Reads `SELECT id, value FROM StringIds`. False (with `problem`) when the table cannot be read; the
    /// strings read before a failure stay usable.
    bool load(SqliteDatabase& db, std::string& problem);

    std::optional<std::string_view> text(std::int64_t id) const
    {
        const std::size_t slot = find(id);
        if (slot == kNotFound)
            return std::nullopt;
        return std::string_view(m_buffer).substr(m_entries[slot].offset, m_entries[slot].length);
    }
    /// The trace's id of string `id`; an id StringIds lacks becomes "[string N]" and is counted in missing().
    StringId name(std::int64_t id, TraceBuilder& trace)
    {
        const std::uint32_t interned = internedAt(id, m_names);
        return interned ? StringId { interned - 1 } : intern(id, trace, m_names, false);
    }
    /// The same for a CUDA API name, without the API version nsys appends (cudaLaunchKernel_v7000 →
    /// cudaLaunchKernel): the name the CUDA documentation, Kineto and nsys's own summaries use.
    StringId apiName(std::int64_t id, TraceBuilder& trace)
    {
        const std::uint32_t interned = internedAt(id, m_apiNames);
        return interned ? StringId { interned - 1 } : intern(id, trace, m_apiNames, true);
    }
    std::size_t size() const { return m_entries.size(); }
    /// The same strings, for another trace: nothing interned yet.
    NsysStrings copyWithoutInterned() const
    {
        NsysStrings copy;
        copy.m_buffer = m_buffer;
        copy.m_entries = m_entries;
        copy.m_firstId = m_firstId;
        copy.m_names.assign(m_entries.size(), 0);
        copy.m_apiNames.assign(m_entries.size(), 0);
        return copy;
    }
    std::uint64_t missing() const { return m_missing; }

    /// `name` without a trailing "_v" + at least four digits (the CUDA version that introduced the entry point).
    static std::string_view withoutApiVersion(std::string_view name);

private:
    struct Entry {
        std::int64_t id;
        std::uint64_t offset;
        std::uint32_t length;
    };
    static constexpr std::size_t kNotFound = ~std::size_t { 0 };
    std::size_t find(std::int64_t id) const;
    /// The cache entry of string `id` when it sits at its usual place (nsys numbers its strings from the first id
    /// without holes) and was interned already, else 0: the common case of a row's name, inline.
    std::uint32_t internedAt(std::int64_t id, const std::vector<std::uint32_t>& cache) const
    {
        const std::uint64_t slot = static_cast<std::uint64_t>(id - m_firstId);
        return slot < m_entries.size() && m_entries[slot].id == id ? cache[slot] : 0;
    }
    StringId intern(std::int64_t id, TraceBuilder& trace, std::vector<std::uint32_t>& cache, bool api);

    std::string m_buffer;
    std::vector<Entry> m_entries; // by id, ascending
    std::int64_t m_firstId = 0; // m_entries.front().id
    std::vector<std::uint32_t> m_names; // by entry: the trace's StringId + 1, 0 until interned
    std::vector<std::uint32_t> m_apiNames;
    std::vector<std::pair<std::int64_t, StringId>> m_unknown; // ids not in the table, as interned
    std::uint64_t m_missing = 0;
};

} // namespace gapscope::nsys
