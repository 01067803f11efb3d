// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/event.h"

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace gapscope {

/// The raw JSON text of events' args (Trace::args), indexed by ArgsId. Texts are stored back to back in blocks
/// that never move, so that a view stays valid for the table's lifetime and an import does not make one heap
/// allocation per event: a std::string each cost 32 bytes, a malloc header and a call per event, and the
/// page faults of millions of small allocations were a third of a 3 GB Kineto import's time
/// (docs/performance.md, "Traces of several GB"). Blocks grow from 64 KiB to 8 MiB; blocks of 8 MiB are
/// advised to be huge pages.
class ArgsTable {
public:
    ArgsTable() = default;
    ArgsTable(const ArgsTable& other);
    ArgsTable& operator=(const ArgsTable& other);
    ArgsTable(ArgsTable&& other) noexcept;
    ArgsTable& operator=(ArgsTable&& other) noexcept;
    ~ArgsTable();

    ArgsId add(std::string_view text);
    std::string_view operator[](std::size_t index) const { return m_views[index]; }
    std::size_t size() const { return m_views.size(); }
    bool empty() const { return m_views.empty(); }
    /// Takes `other`'s texts after this table's (their ids shift by size() before the call); `other` is left empty.
    void append(ArgsTable&& other);
    /// Bytes held: the blocks' capacity and the index.
    std::size_t memoryBytes() const;

private:
    struct Block {
        char* data = nullptr;
        std::size_t capacity = 0;
    };
    void freeBlocks();
    char* reserve(std::size_t bytes);

    std::vector<Block> m_blocks;
    std::size_t m_used = 0; // bytes used in the last block
    std::vector<std::string_view> m_views;
};

} // namespace gapscope
