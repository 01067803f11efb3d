// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/event.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gapscope::json {

/// Bytes after the end of the data that must be readable and zero. The scanner reads 16-byte blocks and
/// relies on this NUL sentinel instead of bounds checks: NUL is never valid JSON outside a string, and never
/// raw inside one, so reaching it always ends in the failure path, which then tells "the data ended here"
/// (failure at or past the end) from a syntax error (failure before it).
inline constexpr std::size_t kPadding = 64;

/// Maximum nesting of arrays and objects inside one value.
inline constexpr int kMaxDepth = 256;

/// A validating, allocation-free scanner over a NUL-padded buffer. Functions take a pointer to the first
/// character of a token and return one past its end, or nullptr after recording where and why they failed.
class Scanner {
public:
    /// Where the failing character is (may be the sentinel at the end of the data) and a static message.
    const char* failAt = nullptr;
    const char* failMessage = nullptr;

    static bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
    static bool isDigit(char c) { return static_cast<unsigned char>(c - '0') < 10; }

    static const char* skipSpace(const char* p)
    {
        while (isSpace(*p))
            ++p;
        return p;
    }

    const char* fail(const char* at, const char* message)
    {
        failAt = at;
        failMessage = message;
        return nullptr;
    }

    /// `p` at the opening quote. Returns one past the closing quote. `escaped` is set when the string
    /// holds a backslash escape, i.e. its raw text is not its value.
    const char* scanString(const char* p, bool& escaped)
    {
        ++p;
        for (;;) {
#if defined(__SSE2__)
            const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
            const __m128i hits = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8('"')), _mm_cmpeq_epi8(block, _mm_set1_epi8('\\'))),
                _mm_cmpeq_epi8(block, _mm_setzero_si128()));
            const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hits));
            if (mask == 0) {
                p += 16;
                continue;
            }
            p += __builtin_ctz(mask);
#else
            while (*p != '"' && *p != '\\' && *p != '\0')
                ++p;
#endif
            if (*p == '"')
                return p + 1;
            if (*p == '\0')
                return fail(p, "unterminated string");
            escaped = true;
            p = skipEscape(p);
            if (!p)
                return nullptr;
        }
    }

    /// Validates a number token; returns one past it.
    const char* scanNumber(const char* p)
    {
        if (*p == '-')
            ++p;
        if (*p == '0') {
            ++p;
        } else if (isDigit(*p)) {
            while (isDigit(*p))
                ++p;
        } else {
            return fail(p, "invalid number");
        }
        if (*p == '.') {
            ++p;
            if (!isDigit(*p))
                return fail(p, "invalid number: no digit after the decimal point");
            while (isDigit(*p))
                ++p;
        }
        if (*p == 'e' || *p == 'E') {
            ++p;
            if (*p == '+' || *p == '-')
                ++p;
            if (!isDigit(*p))
                return fail(p, "invalid number: no digit in the exponent");
            while (isDigit(*p))
                ++p;
        }
        return p;
    }

    /// Scans a number token (validated as scanNumber does) and, when it is an integer that fits in int64, sets
    /// `value` and `isInteger`. One pass: the digits are accumulated while they are validated.
    const char* scanInteger(const char* p, std::int64_t& value, bool& isInteger)
    {
        const char* start = p;
        const bool negative = *p == '-';
        p += negative;
        std::uint64_t magnitude = 0;
        const char* digits = p;
        while (isDigit(*p)) {
            magnitude = magnitude * 10 + static_cast<unsigned>(*p - '0');
            ++p;
        }
        const auto count = p - digits;
        if (count == 0 || (count > 1 && *digits == '0') || *p == '.' || *p == 'e' || *p == 'E') {
            isInteger = false;
            return scanNumber(start);
        }
        if (count > 18) { // may have overflowed: take the careful path
            const auto parsed = parseIntegerToken(std::string_view(start, static_cast<std::size_t>(p - start)));
            isInteger = parsed.has_value();
            value = parsed.value_or(0);
            return p;
        }
        isInteger = true;
        value = negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
        return p;
    }

    /// Scans a number token in microseconds and converts it to nanoseconds as microsecondsTextToNs() does;
    /// `ok` is false when it does not fit. The common shapes ("1712195495505582.988", "63") take a fast path.
    const char* scanMicroseconds(const char* p, std::int64_t& ns, bool& ok)
    {
        const char* start = p;
        const bool negative = *p == '-';
        p += negative;
        const char* digits = p;
        std::uint64_t whole = 0;
        while (isDigit(*p)) {
            whole = whole * 10 + static_cast<unsigned>(*p - '0');
            ++p;
        }
        const auto count = p - digits;
        // Up to 16 digits (epoch-based µs have 16) the ns value cannot overflow uint64; int64 is checked below.
        if (count == 0 || count > 16 || (count > 1 && *digits == '0'))
            return scanMicrosecondsSlow(start, ns, ok);
        std::uint64_t fraction = 0; // in ns
        if (*p == '.') {
            ++p;
            if (!isDigit(*p))
                return fail(p, "invalid number: no digit after the decimal point");
            std::uint64_t scale = 100;
            for (int i = 0; i < 3 && isDigit(*p); ++i, ++p, scale /= 10)
                fraction += static_cast<unsigned>(*p - '0') * scale;
            if (isDigit(*p)) {
                fraction += *p >= '5'; // half away from zero: the first dropped digit decides
                while (isDigit(*p))
                    ++p;
            }
        }
        if (*p == 'e' || *p == 'E')
            return scanMicrosecondsSlow(start, ns, ok);
        const std::uint64_t magnitude = whole * 1000 + fraction;
        if (magnitude > static_cast<std::uint64_t>(INT64_MAX))
            return scanMicrosecondsSlow(start, ns, ok);
        ns = negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
        ok = true;
        return p;
    }

    /// Skips (and validates) any value: string, number, object, array, true, false or null.
    const char* skipValue(const char* p, int depth = 0);

    /// Skips `"key"` + spaces + `:` + spaces; `p` at the quote. `key` receives the raw key text.
    const char* scanKey(const char* p, std::string_view& key)
    {
        if (*p != '"')
            return fail(p, "expected a string key");
        bool escaped = false;
        const char* end = scanString(p, escaped);
        if (!end)
            return nullptr;
        key = std::string_view(p + 1, static_cast<std::size_t>(end - p - 2));
        end = skipSpace(end);
        if (*end != ':')
            return fail(end, "expected ':' after an object key");
        return skipSpace(end + 1);
    }

private:
    const char* scanMicrosecondsSlow(const char* p, std::int64_t& ns, bool& ok);
    static std::optional<std::int64_t> parseIntegerToken(std::string_view token);
    const char* skipEscape(const char* p);
    const char* skipLiteral(const char* p, const char* literal, std::size_t length);
};

/// Decodes the raw text between a JSON string's quotes (escapes included) into UTF-8. False if an escape is
/// invalid.
bool unescapeString(std::string_view raw, std::string& out);

/// Parses a whole JSON integer token ("-12"); nullopt for fractions, exponents or overflow.
std::optional<std::int64_t> parseInteger(std::string_view token);

/// Converts a JSON number in microseconds to integer nanoseconds exactly from its decimal text (never through
/// a double, which loses the last digits of epoch-based timestamps such as 1694039959076734.123), rounding
/// half away from zero: "1.0005" → 1001, "1.0004999" → 1000, "-1.0005" → -1001. nullopt if the text is not a
/// JSON number or the result does not fit in int64.
std::optional<TimeNs> microsecondsTextToNs(std::string_view number);

} // namespace gapscope::json
