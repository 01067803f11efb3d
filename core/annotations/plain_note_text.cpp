// SPDX-License-Identifier: MIT
#include "core/annotations/plain_note_text.h"

namespace gapscope {

std::string plainNoteText(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        if (text[i] != '`') {
            out += text[i++];
            continue;
        }
        // A run of N backticks opens a code span closed by the next run of exactly N (CommonMark).
        std::size_t run = 0;
        while (i + run < text.size() && text[i + run] == '`')
            ++run;
        std::size_t close = std::string_view::npos;
        for (std::size_t j = i + run; j < text.size();) {
            if (text[j] != '`') {
                ++j;
                continue;
            }
            std::size_t other = 0;
            while (j + other < text.size() && text[j + other] == '`')
                ++other;
            if (other == run) {
                close = j;
                break;
            }
            j += other;
        }
        if (close == std::string_view::npos) {
            out.append(text.substr(i, run));
            i += run;
            continue;
        }
        out.append(text.substr(i + run, close - i - run));
        i = close + run;
    }
    return out;
}

} // namespace gapscope
