// SPDX-License-Identifier: MIT
#pragma once

// Header-only on purpose: the injected library may not link core's .cpp files.

#include <cstdio>
#include <string>
#include <string_view>

namespace gapscope::capture {

/// Appends `text` as a JSON string literal (quotes, backslashes and control characters escaped).
inline void appendJsonString(std::string& out, std::string_view text)
{
    out += '"';
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof(escaped), "\\u%04x", static_cast<unsigned>(c));
            out += escaped;
        } else {
            out += c;
        }
    }
    out += '"';
}

} // namespace gapscope::capture
