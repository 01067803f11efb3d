// SPDX-License-Identifier: MIT
#pragma once
// A value or the error that says why there is none: what core's readers (IoResult, core/io/common/io_error.h)
// and the parsers of what users type (ParseResult, below: command lines, the Record form, the --kinds list)
// return instead of throwing or writing into an out-parameter.

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace gapscope {

template <typename T, typename E> class Result {
public:
    Result(T value)
        : m_data(std::move(value))
    { }
    Result(E error)
        : m_data(std::move(error))
    { }
    bool ok() const { return std::holds_alternative<T>(m_data); }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<T>(m_data); }
    const T& value() const { return std::get<T>(m_data); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const E& error() const { return std::get<E>(m_data); }

private:
    std::variant<T, E> m_data;
};

/// Success with nothing to hand back, or the error: what a write returns.
template <typename E> class Result<void, E> {
public:
    Result() = default;
    Result(E error)
        : m_error(std::move(error))
    { }
    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const E& error() const { return *m_error; }

private:
    std::optional<E> m_error;
};

/// Why what a user typed (a command line, a field of a form, a list of names) is not valid: one sentence, no
/// trailing newline.
struct UsageError {
    std::string message;
};

/// A value parsed from what the user typed, or the UsageError that says why it could not be.
template <typename T> using ParseResult = Result<T, UsageError>;

} // namespace gapscope
