// SPDX-License-Identifier: MIT
#include "cli/text_columns.h"

namespace gapscope::cli {

std::string pad(std::string text, std::size_t width)
{
    std::size_t columns = 0;
    for (unsigned char c : text)
        columns += (c & 0xc0) != 0x80 ? 1 : 0;
    if (columns < width)
        text.append(width - columns, ' ');
    return text;
}

} // namespace gapscope::cli
