// SPDX-License-Identifier: MIT
#pragma once

#include "capture/collector_env.h"
#include "core/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gapscope::capture {

/// Parses a `--kinds` list: comma-separated names among kernel, memcpy, memset, sync, runtime,
/// driver, nvtx, overhead, and the groups `cuda` (every CUDA kind) and `all`. Case-insensitive;
/// spaces around names are ignored. Returns the RecordKind mask, or why the list is wrong.
ParseResult<std::uint32_t> parseRecordKinds(std::string_view list);

/// "kernel,memcpy,..." for a mask, in the order of the RecordKind bits; "all" for every bit.
std::string recordKindsText(std::uint32_t kinds);

/// The names parseRecordKinds accepts, for help texts.
inline constexpr const char* kRecordKindNames
    = "kernel, memcpy, memset, sync, runtime, driver, nvtx, overhead, cuda, all";

} // namespace gapscope::capture
