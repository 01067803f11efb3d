// SPDX-License-Identifier: MIT
#pragma once
// What every parser of something a user typed returns (a command line, a field of the Record form): the value,
// or the reason it is wrong, as a value rather than through an out-parameter.

#include "core/result.h"

#include <string>

namespace gapscope::cli {

/// Why what the user typed is not a valid command line (or form field): one sentence, no trailing newline.
struct UsageError {
    std::string message;
};

/// A value parsed from what the user typed, or the UsageError that says why it could not be.
template <typename T> using ParseResult = Result<T, UsageError>;

} // namespace gapscope::cli
