// SPDX-License-Identifier: MIT
#pragma once

// A note's title and hypothesis are Markdown (the hypotheses report prints them as written, names of kernels and
// ranges in `code`). Where they are drawn as plain text (the timeline's callouts, the Annotations list, the
// exported picture), the marks of the code spans go.

#include <string>
#include <string_view>

namespace gapscope {

/// `text` without the backticks that open and close inline code spans ("`aten::mm` waits" -> "aten::mm waits");
/// a lone backtick with no closing one is kept, as Markdown keeps it.
std::string plainNoteText(std::string_view text);

} // namespace gapscope
