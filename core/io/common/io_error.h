// SPDX-License-Identifier: MIT
#pragma once

#include "core/result.h"

#include <cstdint>
#include <optional>
#include <string>

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

/// A value or an IoError (void: success or an IoError). Core never throws across its API for bad input.
template <typename T> using IoResult = Result<T, IoError>;

} // namespace gapscope
