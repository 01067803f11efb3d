// SPDX-License-Identifier: MIT
#include "core/io/common/json_stream_writer.h"

#include <charconv>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gapscope {

namespace {

bool isPlainAscii(unsigned char c)
{
    return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

/// The length of the run of plain ASCII (isPlainAscii) that `text` starts with, many bytes at a time: a full
/// report writes tens of MB of names and summaries, and a byte at a time this scan was its largest cost. SSE2
/// finds the first other byte of a block of 16; the 8-byte test says exactly whether a word holds one (a borrow
/// can only mark bytes above the one that caused it), and that word is then read a byte at a time.
std::size_t plainAsciiPrefix(std::string_view text)
{
    constexpr std::uint64_t kOnes = 0x0101010101010101ull;
    constexpr std::uint64_t kHighs = 0x8080808080808080ull;
    const auto hasZeroByte = [](std::uint64_t v) { return (v - kOnes) & ~v & kHighs; };
    std::size_t i = 0;
#if defined(__SSE2__)
    // Sixteen at a time: a signed comparison with 0x20 finds the control bytes and those from 0x80 at once.
    for (; i + 16 <= text.size(); i += 16) {
        const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
        const __m128i special = _mm_or_si128(_mm_cmplt_epi8(block, _mm_set1_epi8(0x20)),
            _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8('"')), _mm_cmpeq_epi8(block, _mm_set1_epi8('\\'))));
        if (const auto mask = static_cast<unsigned>(_mm_movemask_epi8(special)))
            return i + static_cast<std::size_t>(__builtin_ctz(mask));
    }
#endif
    for (; i + 8 <= text.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, text.data() + i, 8);
        const std::uint64_t special = (w & kHighs) | ((w - 0x20 * kOnes) & ~w & kHighs) | hasZeroByte(w ^ ('"' * kOnes))
            | hasZeroByte(w ^ ('\\' * kOnes));
        if (special != 0)
            break;
    }
    while (i < text.size() && isPlainAscii(static_cast<unsigned char>(text[i])))
        ++i;
    return i;
}

/// Length of the valid UTF-8 sequence starting at text[i], or 0 if it is not valid (RFC 3629: no
/// overlong forms, no surrogates, nothing above U+10FFFF).
std::size_t validUtf8Length(std::string_view text, std::size_t i)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        if (lead == 0xe0)
            low = 0xa0;
        else if (lead == 0xed)
            high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        if (lead == 0xf0)
            low = 0x90;
        else if (lead == 0xf4)
            high = 0x8f;
    } else {
        return 0;
    }
    if (i + length > text.size())
        return 0;
    if (byte(i + 1) < low || byte(i + 1) > high)
        return 0;
    for (std::size_t k = 2; k < length; ++k) {
        if (byte(i + k) < 0x80 || byte(i + k) > 0xbf)
            return 0;
    }
    return length;
}

/// The length of the part of `text` from its start that JSON takes as it is: plain ASCII and valid UTF-8.
std::size_t cleanPrefix(std::string_view text)
{
    std::size_t i = 0;
    while (true) {
        i += plainAsciiPrefix(text.substr(i));
        if (i == text.size() || static_cast<unsigned char>(text[i]) < 0x80)
            return i;
        const std::size_t length = validUtf8Length(text, i);
        if (length == 0)
            return i;
        i += length;
    }
}

/// Hands `text` to `emit` in pieces of JSON string content: runs of bytes as they are, escapes (RFC 8259) for
/// quotes, backslashes and control bytes, U+FFFD for each byte that does not start valid UTF-8.
template <typename Emit> void writeEscaped(std::string_view text, Emit&& emit)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::size_t i = 0;
    while (true) {
        const std::size_t clean = cleanPrefix(text.substr(i));
        if (clean > 0)
            emit(text.substr(i, clean));
        i += clean;
        if (i == text.size())
            return;
        const auto c = static_cast<unsigned char>(text[i++]);
        switch (c) {
        case '"':
            emit("\\\"");
            break;
        case '\\':
            emit("\\\\");
            break;
        case '\n':
            emit("\\n");
            break;
        case '\t':
            emit("\\t");
            break;
        case '\r':
            emit("\\r");
            break;
        case '\b':
            emit("\\b");
            break;
        case '\f':
            emit("\\f");
            break;
        default:
            if (c >= 0x80) {
                emit("\\ufffd"); // a byte that does not start valid UTF-8
            } else {
                const char escape[] = { '\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xf] };
                emit(std::string_view(escape, sizeof escape));
            }
        }
    }
}

} // namespace

JsonStreamWriter::JsonStreamWriter(std::ostream& out, std::size_t bufferSize)
    : m_out(out)
    , m_buffer(std::max<std::size_t>(bufferSize, 64))
{ }

JsonStreamWriter::~JsonStreamWriter()
{
    flush();
}

void JsonStreamWriter::flush()
{
    if (m_used > 0)
        m_out.write(m_buffer.data(), static_cast<std::streamsize>(m_used));
    m_used = 0;
}

void JsonStreamWriter::rawInParts(std::string_view text)
{
    while (!text.empty()) {
        if (m_used == m_buffer.size())
            flush();
        const std::size_t chunk = std::min(text.size(), m_buffer.size() - m_used);
        std::memcpy(m_buffer.data() + m_used, text.data(), chunk);
        m_used += chunk;
        text.remove_prefix(chunk);
    }
}

char* formatMicroseconds(char* out, TimeNs ns)
{
    // Integer arithmetic only: a double cannot hold every ns of a 2024 epoch timestamp in µs.
    std::uint64_t magnitude = static_cast<std::uint64_t>(ns);
    if (ns < 0) {
        *out++ = '-';
        magnitude = 0 - magnitude;
    }
    out = std::to_chars(out, out + 21, magnitude / 1000).ptr;
    unsigned fraction = static_cast<unsigned>(magnitude % 1000);
    if (fraction != 0) {
        *out++ = '.';
        *out++ = static_cast<char>('0' + fraction / 100);
        fraction %= 100;
        if (fraction != 0) {
            *out++ = static_cast<char>('0' + fraction / 10);
            fraction %= 10;
            if (fraction != 0)
                *out++ = static_cast<char>('0' + fraction);
        }
    }
    return out;
}

void JsonStreamWriter::microseconds(TimeNs ns)
{
    char* begin = reserve(32);
    m_used += static_cast<std::size_t>(formatMicroseconds(begin, ns) - begin);
}

void JsonStreamWriter::string(std::string_view text)
{
    // Fast path: short strings with nothing to escape (almost every name, and summaries with their "µs") go in
    // with one copy.
    if (text.size() + 2 <= m_buffer.size() / 2) {
        if (cleanPrefix(text) == text.size()) {
            char* out = reserve(text.size() + 2);
            *out++ = '"';
            std::memcpy(out, text.data(), text.size());
            out[text.size()] = '"';
            m_used += text.size() + 2;
            return;
        }
    }
    raw('"');
    escapedSlow(text);
    raw('"');
}

void JsonStreamWriter::escapedSlow(std::string_view text)
{
    writeEscaped(text, [this](std::string_view piece) { raw(piece); });
}

void appendQuotedJson(std::string& out, std::string_view text)
{
    out += '"';
    writeEscaped(text, [&out](std::string_view piece) { out += piece; });
    out += '"';
}

ObjectBody objectBody(std::string_view text)
{
    const auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && isSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back()))
        text.remove_suffix(1);
    if (text.size() < 2 || text.front() != '{' || text.back() != '}')
        return {};
    const std::string_view object = text;
    text = text.substr(1, text.size() - 2);
    while (!text.empty() && isSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back()))
        text.remove_suffix(1);
    return { true, object, text };
}

std::vector<std::string_view> topLevelKeys(std::string_view text)
{
    std::vector<std::string_view> keys;
    forEachTopLevelKey(text, [&](std::string_view key) { keys.push_back(key); });
    return keys;
}

} // namespace gapscope
