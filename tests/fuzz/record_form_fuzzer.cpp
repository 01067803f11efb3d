// SPDX-License-Identifier: MIT
// Fuzz target: the record form's text fields (app/record/record_form_parsing.h, plain C++ without Qt).
// The first byte picks the field: even, the arguments line; odd, the environment box. Arguments that split
// must split the same again once each word is single-quoted as a shell would; environment changes must
// name valid variables.

#include "app/record/record_form_parsing.h"
#include "tests/fuzz/fuzz_analysis.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

std::string shellQuote(const std::string& word)
{
    std::string quoted = "'";
    for (const char c : word) {
        if (c == '\'')
            quoted += "'\\''";
        else
            quoted += c;
    }
    quoted += '\'';
    return quoted;
}

bool isName(const std::string& name)
{
    if (name.empty() || (name[0] >= '0' && name[0] <= '9'))
        return false;
    for (const char c : name) {
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace gapscope;
    if (size == 0)
        return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    if (data[0] % 2 == 0) {
        const auto words = app::splitArguments(text);
        if (!words) {
            fuzz::require(!words.error().message.empty());
            return 0;
        }
        std::string line;
        for (const std::string& word : *words)
            line += shellQuote(word) + ' ';
        const auto again = app::splitArguments(line);
        fuzz::require(again && *again == *words);
    } else {
        const auto changes = app::parseEnvironmentChanges(text);
        if (!changes) {
            fuzz::require(!changes.error().message.empty());
            return 0;
        }
        for (const auto& change : *changes)
            fuzz::require(isName(change.first));
    }
    return 0;
}
