// SPDX-License-Identifier: MIT
#pragma once

// std::optional's interface over an index type that has a spare value for "none" (all ones), so that the
// optional costs no more than the index: lists of millions of gaps hold these.

#include "core/model/trace.h"

#include <optional>

namespace gapscope {

/// The "none" value of each type PackedOptional takes.
template <typename T> struct PackedNone;
template <> struct PackedNone<LaneIndex> {
    static constexpr LaneIndex value { 0xffffffffu };
    static constexpr bool is(const LaneIndex& v) { return v.value == 0xffffffffu; }
};
template <> struct PackedNone<EventRef> {
    static constexpr EventRef value { LaneIndex { 0xffffffffu }, 0xffffffffu };
    static constexpr bool is(const EventRef& v) { return v.lane.value == 0xffffffffu; }
};

template <typename T> class PackedOptional {
public:
    constexpr PackedOptional() = default;
    constexpr PackedOptional(std::nullopt_t) { }
    constexpr PackedOptional(const T& value)
        : m_value(value)
    { }
    constexpr PackedOptional(const std::optional<T>& value)
        : m_value(value ? *value : PackedNone<T>::value)
    { }
    constexpr PackedOptional& operator=(std::nullopt_t)
    {
        m_value = PackedNone<T>::value;
        return *this;
    }
    constexpr bool has_value() const { return !PackedNone<T>::is(m_value); }
    constexpr explicit operator bool() const { return has_value(); }
    /// Precondition: has_value().
    constexpr const T& operator*() const { return m_value; }
    constexpr const T* operator->() const { return &m_value; }
    constexpr operator std::optional<T>() const { return has_value() ? std::optional<T>(m_value) : std::nullopt; }

    friend constexpr bool operator==(const PackedOptional& a, const PackedOptional& b)
    {
        return a.m_value == b.m_value;
    }
    friend constexpr bool operator==(const PackedOptional& a, const std::optional<T>& b)
    {
        return static_cast<std::optional<T>>(a) == b;
    }
    friend constexpr bool operator==(const PackedOptional& a, const T& b) { return a.has_value() && a.m_value == b; }
    friend constexpr bool operator==(const PackedOptional& a, std::nullopt_t) { return !a.has_value(); }

private:
    T m_value = PackedNone<T>::value;
};

} // namespace gapscope
