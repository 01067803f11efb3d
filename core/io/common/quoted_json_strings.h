// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

/// The quoted, escaped JSON text of strings that a writer names over and over (a trace's event names, lane
/// labels), each escaped once. The caller numbers its distinct strings densely (a StringId, a lane index), so a
/// lookup is an index into a table, not a hash of the text: a full report names the same few hundred kernels,
/// threads and streams in each of tens of thousands of gaps.
class QuotedJsonStrings {
public:
    /// `text` quoted and escaped as JsonStreamWriter::string writes it. The first call with `key` makes it; a later
    /// call with the same key returns it without reading `text`, which must be the same string. The view is valid
    /// until the next call.
    std::string_view quoted(std::uint32_t key, std::string_view text)
    {
        if (contains(key))
            return { m_text.data() + m_slots[key].offset, m_slots[key].size };
        return make(key, text);
    }
    bool contains(std::uint32_t key) const { return key < m_slots.size() && m_slots[key].size != 0; }
    /// How many keys have their text made.
    std::size_t size() const { return m_made; }

private:
    std::string_view make(std::uint32_t key, std::string_view text);

    /// Where a key's text is in m_text; size 0 until made (a quoted text has at least its two quotes).
    struct Slot {
        std::size_t offset = 0;
        std::size_t size = 0;
    };
    std::vector<Slot> m_slots;
    std::string m_text;
    std::size_t m_made = 0;
};

} // namespace gapscope
