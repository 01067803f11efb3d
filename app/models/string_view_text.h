// SPDX-License-Identifier: MIT
#pragma once

// The trace's strings (UTF-8 views into its StringTable) as Qt text.

#include <QString>

#include <string_view>

namespace gapscope::models {

inline QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

} // namespace gapscope::models
