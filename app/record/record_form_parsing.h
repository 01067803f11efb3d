// SPDX-License-Identifier: MIT
#pragma once

// The text fields of File › Record… turned into launcher options: the arguments line, the
// environment changes and the default name of the recording. Plain functions, so that the rules are
// tested without a dialog.

#include "core/result.h"

#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gapscope::app {

/// Splits an arguments line as a POSIX shell would, without expansions: blanks separate words,
/// '...' keeps everything literally, "..." keeps everything but \" \\ \$ \` (and a backslash before a
/// newline), a backslash outside quotes keeps the next character. `"" ''` are empty words.
/// An unterminated quote or a trailing backslash is an error.
ParseResult<std::vector<std::string>> splitArguments(std::string_view line);

/// One change to the program's environment: a value sets the variable, nullopt unsets it.
using EnvironmentChange = std::pair<std::string, std::optional<std::string>>;

/// Parses the environment box, one change a line: `NAME=value` sets (the value is taken as written,
/// spaces and further '=' included), `-NAME` unsets. Blank lines and lines starting with '#' are
/// skipped; spaces around a line are ignored. A NAME must be letters, digits and '_', not starting
/// with a digit. Anything else is an error that names the line.
ParseResult<std::vector<EnvironmentChange>> parseEnvironmentChanges(std::string_view text);

/// "gapscope-YYYYmmdd-HHMMSS.gapscope" for a local time, the name `gapscope record` gives.
std::string defaultRecordingName(std::time_t when);

/// `path` when nothing is there, else the first of "NAME-2.gapscope", "NAME-3.gapscope"... that is free: every
/// recording gets a file of its own, so that recording again never replaces the trace on screen.
std::string freshRecordingPath(const std::string& path);

} // namespace gapscope::app
