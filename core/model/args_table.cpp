// SPDX-License-Identifier: MIT
#include "core/model/args_table.h"

#include "core/model/huge_pages.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <utility>

namespace gapscope {

namespace {

constexpr std::size_t kFirstBlockBytes = std::size_t { 64 } << 10;
constexpr std::size_t kLargestBlockBytes = std::size_t { 8 } << 20;

char* allocateBlock(std::size_t bytes)
{
    if (bytes >= kHugePagesFrom)
        return static_cast<char*>(allocateHugePageBuffer(bytes));
    return static_cast<char*>(::operator new(bytes));
}

void freeBlock(char* data, std::size_t bytes)
{
    if (bytes >= kHugePagesFrom)
        freeHugePageBuffer(data);
    else
        ::operator delete(data);
}

} // namespace

ArgsTable::ArgsTable(const ArgsTable& other)
{
    *this = other;
}

ArgsTable& ArgsTable::operator=(const ArgsTable& other)
{
    if (this == &other)
        return *this;
    freeBlocks();
    m_views.clear();
    m_views.reserve(other.m_views.size());
    for (const std::string_view text : other.m_views)
        add(text);
    return *this;
}

ArgsTable::ArgsTable(ArgsTable&& other) noexcept
    : m_blocks(std::exchange(other.m_blocks, {}))
    , m_used(std::exchange(other.m_used, 0))
    , m_views(std::exchange(other.m_views, {}))
{ }

ArgsTable& ArgsTable::operator=(ArgsTable&& other) noexcept
{
    if (this == &other)
        return *this;
    freeBlocks();
    m_blocks = std::exchange(other.m_blocks, {});
    m_used = std::exchange(other.m_used, 0);
    m_views = std::exchange(other.m_views, {});
    return *this;
}

ArgsTable::~ArgsTable()
{
    freeBlocks();
}

void ArgsTable::freeBlocks()
{
    for (const Block& block : m_blocks)
        freeBlock(block.data, block.capacity);
    m_blocks.clear();
    m_used = 0;
}

char* ArgsTable::reserve(std::size_t bytes)
{
    if (m_blocks.empty() || m_blocks.back().capacity - m_used < bytes) {
        const std::size_t next
            = m_blocks.empty() ? kFirstBlockBytes : std::min(m_blocks.back().capacity * 2, kLargestBlockBytes);
        const std::size_t capacity = std::max(next, bytes);
        m_blocks.push_back(Block { allocateBlock(capacity), capacity });
        m_used = 0;
    }
    char* at = m_blocks.back().data + m_used;
    m_used += bytes;
    return at;
}

ArgsId ArgsTable::add(std::string_view text)
{
    const auto id = ArgsId { static_cast<std::uint32_t>(m_views.size()) };
    if (text.empty()) {
        m_views.emplace_back();
        return id;
    }
    char* at = reserve(text.size());
    std::memcpy(at, text.data(), text.size());
    m_views.emplace_back(at, text.size());
    return id;
}

void ArgsTable::append(ArgsTable&& other)
{
    if (m_views.empty()) {
        *this = std::move(other);
        return;
    }
    m_views.insert(m_views.end(), other.m_views.begin(), other.m_views.end());
    // The other table's blocks go before this table's last one, which stays the one being filled.
    m_blocks.insert(
        m_blocks.empty() ? m_blocks.end() : m_blocks.end() - 1, other.m_blocks.begin(), other.m_blocks.end());
    other.m_blocks.clear();
    other.m_views.clear();
    other.m_used = 0;
}

std::size_t ArgsTable::memoryBytes() const
{
    std::size_t bytes = m_views.capacity() * sizeof(std::string_view) + m_blocks.capacity() * sizeof(Block);
    for (const Block& block : m_blocks)
        bytes += block.capacity;
    return bytes;
}

} // namespace gapscope
