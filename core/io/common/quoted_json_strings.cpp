// SPDX-License-Identifier: MIT
#include "core/io/common/quoted_json_strings.h"

#include "core/io/common/json_stream_writer.h"

#include <algorithm>

namespace gapscope {

std::string_view QuotedJsonStrings::make(std::uint32_t key, std::string_view text)
{
    if (key >= m_slots.size())
        m_slots.resize(std::max<std::size_t>(key + 1, m_slots.size() * 2));
    Slot& slot = m_slots[key];
    slot.offset = m_text.size();
    appendQuotedJson(m_text, text);
    slot.size = m_text.size() - slot.offset;
    ++m_made;
    return { m_text.data() + slot.offset, slot.size };
}

} // namespace gapscope
