// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/common/decimal_text.h"
#include "core/model/event.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

/// Buffered writer of JSON text pieces onto a std::ostream: no document model, numbers through
/// std::to_chars, strings escaped (invalid UTF-8 bytes become U+FFFD so the output always parses).
/// The caller is responsible for the structure (commas, braces). flush() hands the buffer to the stream;
/// the destructor flushes too.
class JsonStreamWriter {
public:
    explicit JsonStreamWriter(std::ostream& out, std::size_t bufferSize = 1 << 18);
    ~JsonStreamWriter();
    JsonStreamWriter(const JsonStreamWriter&) = delete;
    JsonStreamWriter& operator=(const JsonStreamWriter&) = delete;

    // The pieces a report writes millions of times (keys, integers, quoted names) go in inline, with one test
    // for room in the buffer.
    /// Text copied as is (already JSON).
    void raw(std::string_view text)
    {
        if (text.size() <= m_buffer.size() - m_used) {
            std::memcpy(m_buffer.data() + m_used, text.data(), text.size());
            m_used += text.size();
            return;
        }
        rawInParts(text);
    }
    void raw(char c)
    {
        if (m_used == m_buffer.size())
            flush();
        m_buffer[m_used++] = c;
    }
    void integer(std::int64_t value)
    {
        char* begin = reserve(kMaxIntegerChars);
        m_used += static_cast<std::size_t>(writeDecimal(begin, value) - begin);
    }
    void unsignedInteger(std::uint64_t value)
    {
        char* begin = reserve(kMaxIntegerChars);
        m_used += static_cast<std::size_t>(writeDecimal(begin, value) - begin);
    }
    /// Nanoseconds as a decimal number of microseconds, exact: 1234567 → 1234.567, 1234500 → 1234.5,
    /// 1234000 → 1234, -1500 → -1.5.
    void microseconds(TimeNs ns);
    /// A quoted, escaped JSON string.
    void string(std::string_view text);
    void flush();

private:
    /// Makes room for at least `size` bytes (size must not exceed the buffer).
    char* reserve(std::size_t size)
    {
        if (m_buffer.size() - m_used < size)
            flush();
        return m_buffer.data() + m_used;
    }
    void escapedSlow(std::string_view text);
    void rawInParts(std::string_view text);

    /// The longest integer text: 18446744073709551615 (20 digits), -9223372036854775808 (19 and a sign).
    static constexpr std::size_t kMaxIntegerChars = 24;

    std::ostream& m_out;
    std::vector<char> m_buffer;
    std::size_t m_used = 0;
};

/// Appends `text` to `out` as JsonStreamWriter::string writes it: quoted and escaped, byte for byte the same.
void appendQuotedJson(std::string& out, std::string_view text);

/// Writes `ns` as exact decimal microseconds into `out` (at least 25 bytes); returns the end.
char* formatMicroseconds(char* out, TimeNs ns);

/// Calls `visit(key)` for the key of each top-level member of a JSON object text (`{"a":1,"b":{"c":2}}` →
/// a, b), raw as it appears between the quotes (escapes not decoded). Tolerant: stops at the end of the
/// text. No allocation: the writer runs it on every event's args.
template <typename Visitor> void forEachTopLevelKey(std::string_view text, Visitor&& visit)
{
    int depth = 0;
    bool expectKey = false;
    const char* const begin = text.data();
    const char* const end = begin + text.size();
    for (const char* p = begin; p < end; ++p) {
        switch (*p) {
        case '"': {
            // The closing quote is the next one not escaped by an odd run of backslashes.
            const char* close = p + 1;
            while ((close = static_cast<const char*>(std::memchr(close, '"', static_cast<std::size_t>(end - close))))) {
                const char* slash = close;
                while (slash > p + 1 && slash[-1] == '\\')
                    --slash;
                if ((close - slash) % 2 == 0)
                    break;
                ++close;
            }
            if (!close)
                close = end;
            if (depth == 1 && expectKey)
                visit(std::string_view(p + 1, static_cast<std::size_t>(close - p - 1)));
            expectKey = false;
            p = close;
            break;
        }
        case '{':
        case '[':
            ++depth;
            expectKey = depth == 1 && *p == '{';
            break;
        case '}':
        case ']':
            --depth;
            break;
        case ',':
            expectKey = depth == 1;
            break;
        default:
            break;
        }
    }
}

/// forEachTopLevelKey collected into a vector.
std::vector<std::string_view> topLevelKeys(std::string_view objectText);

/// Where the members of a JSON object text are; `isObject` false when the text is not an object.
struct ObjectBody {
    bool isObject = false;
    std::string_view object; // the object without surrounding whitespace, `{` to `}`
    std::string_view members; // between the braces, trimmed; empty for `{}`
};
ObjectBody objectBody(std::string_view objectText);

} // namespace gapscope
