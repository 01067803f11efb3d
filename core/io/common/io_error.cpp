// SPDX-License-Identifier: MIT
#include "core/io/common/io_error.h"

namespace gapscope {

std::string IoError::toString() const
{
    std::string text = file;
    text += ": ";
    if (byteOffset) {
        text += "at byte ";
        text += std::to_string(*byteOffset);
        text += ": ";
    }
    text += message;
    return text;
}

} // namespace gapscope
