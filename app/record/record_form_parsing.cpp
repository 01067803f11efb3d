// SPDX-License-Identifier: MIT
#include "app/record/record_form_parsing.h"

#include "core/io/native/native_format.h"

#include <filesystem>

namespace gapscope::app {

namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && isBlank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isBlank(text.back()))
        text.remove_suffix(1);
    return text;
}

bool isVariableName(std::string_view name)
{
    if (name.empty() || (name.front() >= '0' && name.front() <= '9'))
        return false;
    for (const char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        if (!ok)
            return false;
    }
    return true;
}

} // namespace

ParseResult<std::vector<std::string>> splitArguments(std::string_view line)
{
    std::vector<std::string> words;
    std::string word;
    bool inWord = false; // a quote makes a word even when it holds nothing
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (isBlank(c)) {
            if (inWord)
                words.push_back(std::move(word));
            word.clear();
            inWord = false;
        } else if (c == '\\') {
            if (i + 1 >= line.size()) {
                return UsageError { "the arguments end with a lone backslash" };
            }
            word += line[++i];
            inWord = true;
        } else if (c == '\'') {
            const std::size_t close = line.find('\'', i + 1);
            if (close == std::string_view::npos) {
                return UsageError { "a single quote is not closed (at character " + std::to_string(i + 1) + ")" };
            }
            word.append(line.substr(i + 1, close - i - 1));
            i = close;
            inWord = true;
        } else if (c == '"') {
            const std::size_t open = i;
            bool closed = false;
            for (++i; i < line.size(); ++i) {
                const char d = line[i];
                if (d == '"') {
                    closed = true;
                    break;
                }
                if (d == '\\' && i + 1 < line.size()) {
                    const char next = line[i + 1];
                    if (next == '"' || next == '\\' || next == '$' || next == '`') {
                        word += next;
                        ++i;
                        continue;
                    }
                    if (next == '\n') { // a line continuation
                        ++i;
                        continue;
                    }
                }
                word += d;
            }
            if (!closed) {
                return UsageError { "a double quote is not closed (at character " + std::to_string(open + 1) + ")" };
            }
            inWord = true;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        words.push_back(std::move(word));
    return words;
}

ParseResult<std::vector<EnvironmentChange>> parseEnvironmentChanges(std::string_view text)
{
    std::vector<EnvironmentChange> changes;
    int lineNumber = 0;
    for (std::size_t pos = 0; pos <= text.size();) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view line = trimmed(text.substr(pos, end - pos));
        pos = end + 1;
        ++lineNumber;
        if (line.empty() || line.front() == '#')
            continue;
        const auto fail = [&](const std::string& why) {
            return UsageError { "environment line " + std::to_string(lineNumber) + " (" + std::string(line)
                + "): " + why };
        };
        if (line.front() == '-') {
            const std::string_view name = trimmed(line.substr(1));
            if (!isVariableName(name)) {
                return fail("-NAME unsets a variable; '" + std::string(name) + "' is not a variable name");
            }
            changes.emplace_back(std::string(name), std::nullopt);
        } else {
            const std::size_t equals = line.find('=');
            if (equals == std::string_view::npos) {
                return fail("write NAME=value to set a variable, or -NAME to unset it");
            }
            const std::string_view name = line.substr(0, equals);
            if (!isVariableName(name)) {
                return fail("'" + std::string(name) + "' is not a variable name (letters, digits and _)");
            }
            changes.emplace_back(std::string(name), std::string(line.substr(equals + 1)));
        }
    }
    return changes;
}

std::string defaultRecordingName(std::time_t when)
{
    std::tm local {};
    localtime_r(&when, &local);
    char name[64];
    std::strftime(name, sizeof(name), "gapscope-%Y%m%d-%H%M%S", &local);
    return std::string(name) + native::kFileExtension;
}

std::string freshRecordingPath(const std::string& path)
{
    std::error_code error;
    if (!std::filesystem::exists(path, error))
        return path;
    const std::filesystem::path original(path);
    const std::string extension = original.extension().string();
    const std::string stem = (original.parent_path() / original.stem()).string();
    for (int n = 2;; ++n) {
        std::string candidate = stem + "-" + std::to_string(n) + extension;
        if (!std::filesystem::exists(candidate, error))
            return candidate;
    }
}

} // namespace gapscope::app
