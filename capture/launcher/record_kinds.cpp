// SPDX-License-Identifier: MIT
#include "capture/launcher/record_kinds.h"

#include <array>
#include <utility>

namespace gapscope::capture {

namespace {

constexpr std::array<std::pair<std::string_view, std::uint32_t>, 10> kNames = { {
    { "kernel", RecordKernels },
    { "memcpy", RecordMemcpy },
    { "memset", RecordMemset },
    { "sync", RecordSync },
    { "runtime", RecordRuntime },
    { "driver", RecordDriver },
    { "nvtx", RecordNvtx },
    { "overhead", RecordOverhead },
    { "cuda", kCudaRecordKinds },
    { "all", kAllRecordKinds },
} };

std::string lowercase(std::string_view text)
{
    std::string out(text);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

} // namespace

ParseResult<std::uint32_t> parseRecordKinds(std::string_view list)
{
    std::uint32_t kinds = 0;
    while (true) {
        const auto comma = list.find(',');
        const std::string name = lowercase(trimmed(list.substr(0, comma)));
        if (name.empty()) {
            return UsageError { "empty name in the kinds list (expected: " + std::string(kRecordKindNames) + ")" };
        }
        bool known = false;
        for (const auto& [kindName, bits] : kNames) {
            if (kindName == name) {
                kinds |= bits;
                known = true;
            }
        }
        if (!known) {
            return UsageError { "unknown kind '" + name + "' (expected: " + std::string(kRecordKindNames) + ")" };
        }
        if (comma == std::string_view::npos)
            break;
        list.remove_prefix(comma + 1);
    }
    return kinds;
}

std::string recordKindsText(std::uint32_t kinds)
{
    if ((kinds & kAllRecordKinds) == kAllRecordKinds)
        return "all";
    std::string text;
    for (const auto& [name, bits] : kNames) {
        if (bits == kCudaRecordKinds || bits == kAllRecordKinds)
            continue;
        if (kinds & bits) {
            if (!text.empty())
                text += ',';
            text += name;
        }
    }
    return text.empty() ? "none" : text;
}

} // namespace gapscope::capture
