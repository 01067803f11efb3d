// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace gapscope {

/// A failure to read or write a file, with where it happened.
struct IoError {
    std::string file;
    /// Byte offset into the (decompressed) content, when the problem has a place.
    std::optional<std::uint64_t> byteOffset;
    std::string message;

    /// "FILE: at byte N: MESSAGE" (or "FILE: MESSAGE" without an offset).
    std::string toString() const;
};

/// A value or an IoError. Core never throws across its API for bad input.
template <typename T> class IoResult {
public:
    IoResult(T value)
        : m_data(std::move(value))
    { }
    IoResult(IoError error)
        : m_data(std::move(error))
    { }
    bool ok() const { return std::holds_alternative<T>(m_data); }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<T>(m_data); }
    const T& value() const { return std::get<T>(m_data); }
    const IoError& error() const { return std::get<IoError>(m_data); }

private:
    std::variant<T, IoError> m_data;
};

/// Success (nothing to hand back) or an IoError: what a write returns.
template <> class IoResult<void> {
public:
    IoResult() = default;
    IoResult(IoError error)
        : m_error(std::move(error))
    { }
    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const IoError& error() const { return *m_error; }

private:
    std::optional<IoError> m_error;
};

} // namespace gapscope
