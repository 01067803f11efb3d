// SPDX-License-Identifier: MIT
#pragma once

// Column helpers the text reports share (`report`, `diff`, `job`).

#include <string>

namespace gapscope::cli {

/// Pads to a display width, counting UTF-8 code points (formatDuration writes "µs").
std::string pad(std::string text, std::size_t width);

} // namespace gapscope::cli
