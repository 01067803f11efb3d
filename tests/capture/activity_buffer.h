// SPDX-License-Identifier: MIT
#pragma once

#include <cupti.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gapscope::capture::test {

/// Builds CUPTI activity records back to back in an 8-byte aligned buffer, as CUPTI lays them out,
/// for cuptiActivityGetNextRecord to walk (which works without a GPU).
class ActivityBuffer {
public:
    template <typename T> T& add(CUpti_ActivityKind kind)
    {
        static_assert(sizeof(T) % 8 == 0);
        T* record = reinterpret_cast<T*>(m_data + m_size);
        std::memset(record, 0, sizeof(T));
        record->kind = kind;
        m_size += sizeof(T);
        return *record;
    }
    std::uint8_t* data() { return m_data; }
    std::size_t size() const { return m_size; }

private:
    alignas(8) std::uint8_t m_data[8192] {};
    std::size_t m_size = 0;
};

} // namespace gapscope::capture::test
