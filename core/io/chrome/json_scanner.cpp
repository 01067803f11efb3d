// SPDX-License-Identifier: MIT
#include "core/io/chrome/json_scanner.h"

#include <limits>

namespace gapscope::json {

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

void appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xc0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xe0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
        out += static_cast<char>(0xf0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    }
}

bool readHex4(std::string_view raw, std::size_t at, std::uint32_t& value)
{
    if (at + 4 > raw.size())
        return false;
    value = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        const int h = hexValue(raw[at + i]);
        if (h < 0)
            return false;
        value = value * 16 + static_cast<std::uint32_t>(h);
    }
    return true;
}

} // namespace

const char* Scanner::scanMicrosecondsSlow(const char* p, std::int64_t& ns, bool& ok)
{
    const char* end = scanNumber(p);
    if (!end)
        return nullptr;
    const auto converted = microsecondsTextToNs(std::string_view(p, static_cast<std::size_t>(end - p)));
    ok = converted.has_value();
    ns = converted.value_or(0);
    return end;
}

std::optional<std::int64_t> Scanner::parseIntegerToken(std::string_view token)
{
    return parseInteger(token);
}

const char* Scanner::skipEscape(const char* p)
{
    // p at the backslash.
    switch (p[1]) {
    case '"':
    case '\\':
    case '/':
    case 'b':
    case 'f':
    case 'n':
    case 'r':
    case 't':
        return p + 2;
    case 'u':
        for (int i = 2; i < 6; ++i) {
            if (hexValue(p[i]) < 0)
                return fail(p + i, "invalid \\u escape in string");
        }
        return p + 6;
    case '\0':
        return fail(p + 1, "unterminated string");
    default:
        return fail(p + 1, "invalid escape in string");
    }
}

const char* Scanner::skipLiteral(const char* p, const char* literal, std::size_t length)
{
    for (std::size_t i = 0; i < length; ++i) {
        if (p[i] != literal[i])
            return fail(p + i, "invalid literal");
    }
    return p + length;
}

const char* Scanner::skipValue(const char* p, int depth)
{
    switch (*p) {
    case '"': {
        bool escaped = false;
        return scanString(p, escaped);
    }
    case '{': {
        if (depth >= kMaxDepth)
            return fail(p, "nesting too deep");
        p = skipSpace(p + 1);
        if (*p == '}')
            return p + 1;
        for (;;) {
            std::string_view key;
            p = scanKey(p, key);
            if (!p)
                return nullptr;
            p = skipValue(p, depth + 1);
            if (!p)
                return nullptr;
            p = skipSpace(p);
            if (*p == ',') {
                p = skipSpace(p + 1);
                continue;
            }
            if (*p == '}')
                return p + 1;
            return fail(p, "expected ',' or '}' in an object");
        }
    }
    case '[': {
        if (depth >= kMaxDepth)
            return fail(p, "nesting too deep");
        p = skipSpace(p + 1);
        if (*p == ']')
            return p + 1;
        for (;;) {
            p = skipValue(p, depth + 1);
            if (!p)
                return nullptr;
            p = skipSpace(p);
            if (*p == ',') {
                p = skipSpace(p + 1);
                continue;
            }
            if (*p == ']')
                return p + 1;
            return fail(p, "expected ',' or ']' in an array");
        }
    }
    case 't':
        return skipLiteral(p, "true", 4);
    case 'f':
        return skipLiteral(p, "false", 5);
    case 'n':
        return skipLiteral(p, "null", 4);
    case '\0':
        return fail(p, "expected a value");
    default:
        if (*p == '-' || isDigit(*p))
            return scanNumber(p);
        return fail(p, "unexpected character, expected a JSON value");
    }
}

bool unescapeString(std::string_view raw, std::string& out)
{
    out.clear();
    out.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        const char c = raw[i];
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++i >= raw.size())
            return false;
        switch (raw[i]) {
        case '"':
            out += '"';
            break;
        case '\\':
            out += '\\';
            break;
        case '/':
            out += '/';
            break;
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case 't':
            out += '\t';
            break;
        case 'u': {
            std::uint32_t cp = 0;
            if (!readHex4(raw, i + 1, cp))
                return false;
            i += 4;
            // A surrogate pair encodes one code point above U+FFFF; a lone surrogate becomes U+FFFD.
            if (cp >= 0xd800 && cp < 0xdc00) {
                std::uint32_t low = 0;
                if (i + 2 < raw.size() && raw[i + 1] == '\\' && raw[i + 2] == 'u' && readHex4(raw, i + 3, low)
                    && low >= 0xdc00 && low < 0xe000) {
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                    i += 6;
                } else {
                    cp = 0xfffd;
                }
            } else if (cp >= 0xdc00 && cp < 0xe000) {
                cp = 0xfffd;
            }
            appendUtf8(out, cp);
            break;
        }
        default:
            return false;
        }
    }
    return true;
}

std::optional<std::int64_t> parseInteger(std::string_view token)
{
    std::size_t i = 0;
    const bool negative = !token.empty() && token[0] == '-';
    if (negative)
        ++i;
    if (i == token.size())
        return std::nullopt;
    std::uint64_t value = 0;
    for (; i < token.size(); ++i) {
        const char c = token[i];
        if (!Scanner::isDigit(c))
            return std::nullopt;
        const auto digit = static_cast<std::uint64_t>(c - '0');
        if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
            return std::nullopt;
        value = value * 10 + digit;
    }
    constexpr auto maxPositive = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (negative) {
        if (value > maxPositive + 1)
            return std::nullopt;
        return static_cast<std::int64_t>(0 - value);
    }
    if (value > maxPositive)
        return std::nullopt;
    return static_cast<std::int64_t>(value);
}

std::optional<TimeNs> microsecondsTextToNs(std::string_view number)
{
    // The value is D × 10^(pointPos − |D|) µs where D is the digit string without the decimal point, so in
    // nanoseconds its integer part is the first (pointPos + 3) digits of D and the digit after them decides
    // the rounding.
    std::size_t i = 0;
    const std::size_t n = number.size();
    const bool negative = i < n && number[i] == '-';
    if (negative)
        ++i;
    const std::size_t intBegin = i;
    while (i < n && Scanner::isDigit(number[i]))
        ++i;
    const std::size_t intEnd = i;
    if (intEnd == intBegin || (number[intBegin] == '0' && intEnd - intBegin > 1))
        return std::nullopt;
    std::size_t fracBegin = i, fracEnd = i;
    if (i < n && number[i] == '.') {
        fracBegin = ++i;
        while (i < n && Scanner::isDigit(number[i]))
            ++i;
        fracEnd = i;
        if (fracEnd == fracBegin)
            return std::nullopt;
    }
    std::int64_t exponent = 0;
    if (i < n && (number[i] == 'e' || number[i] == 'E')) {
        ++i;
        bool expNegative = false;
        if (i < n && (number[i] == '+' || number[i] == '-'))
            expNegative = number[i++] == '-';
        const std::size_t expBegin = i;
        while (i < n && Scanner::isDigit(number[i])) {
            if (exponent < 100000) // beyond any int64 range; keeps the arithmetic small
                exponent = exponent * 10 + (number[i] - '0');
            ++i;
        }
        if (i == expBegin)
            return std::nullopt;
        if (expNegative)
            exponent = -exponent;
    }
    if (i != n)
        return std::nullopt;

    const std::size_t intDigits = intEnd - intBegin;
    const std::size_t fracDigits = fracEnd - fracBegin;
    const auto totalDigits = static_cast<std::int64_t>(intDigits + fracDigits);
    const auto digitAt = [&](std::int64_t k) -> int {
        // k-th digit of D (0-based); zeros outside.
        if (k < 0 || k >= totalDigits)
            return 0;
        const auto u = static_cast<std::size_t>(k);
        return u < intDigits ? number[intBegin + u] - '0' : number[fracBegin + (u - intDigits)] - '0';
    };
    const std::int64_t keep = static_cast<std::int64_t>(intDigits) + exponent + 3; // digits of the ns integer
    std::uint64_t value = 0;
    constexpr auto limit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    for (std::int64_t k = 0; k < keep; ++k) {
        const auto digit = static_cast<std::uint64_t>(digitAt(k));
        if (value > (limit - digit) / 10)
            return std::nullopt;
        value = value * 10 + digit;
    }
    if (digitAt(keep) >= 5) {
        if (value == limit)
            return std::nullopt;
        ++value;
    }
    const auto result = static_cast<std::int64_t>(value);
    return negative ? -result : result;
}

} // namespace gapscope::json
