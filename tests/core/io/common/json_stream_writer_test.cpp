// SPDX-License-Identifier: MIT
// JsonStreamWriter::string scans 16 and 8 bytes at a time for what needs escaping: every byte value, at every place
// in and across those words, must come out as the one-byte-at-a-time rule has it.
#include "core/io/common/json_stream_writer.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>

namespace gapscope {
namespace {

/// How one byte alone among plain letters is written (RFC 8259 escapes; a lone byte from 0x80 is not UTF-8).
std::string escapedAlone(unsigned char c)
{
    switch (c) {
    case '"':
        return "\\\"";
    case '\\':
        return "\\\\";
    case '\n':
        return "\\n";
    case '\t':
        return "\\t";
    case '\r':
        return "\\r";
    case '\b':
        return "\\b";
    case '\f':
        return "\\f";
    default:
        break;
    }
    if (c < 0x20) {
        char text[8];
        std::snprintf(text, sizeof text, "\\u%04x", c);
        return text;
    }
    return c < 0x80 ? std::string(1, static_cast<char>(c)) : "\\ufffd";
}

std::string written(const std::string& text)
{
    std::ostringstream out;
    {
        JsonStreamWriter writer(out);
        writer.string(text);
    }
    return out.str();
}

TEST(JsonStreamWriter, EveryByteAtEveryPlaceOfAWordIsWrittenAsAloneItWouldBe)
{
    constexpr std::size_t kLength = 27; // a block of 16, a word of 8 and a tail
    for (int c = 0; c < 256; ++c) {
        for (std::size_t at = 0; at < kLength; ++at) {
            std::string text(kLength, 'a');
            text[at] = static_cast<char>(c);
            const std::string expected = "\"" + std::string(at, 'a') + escapedAlone(static_cast<unsigned char>(c))
                + std::string(kLength - at - 1, 'a') + "\"";
            ASSERT_EQ(written(text), expected) << "byte " << c << " at " << at;
        }
    }
}

TEST(JsonStreamWriter, UnicodeAcrossAWordBoundaryIsKept)
{
    for (std::size_t at = 0; at < 25; ++at) {
        std::string text(26, 'x');
        text.replace(at, 2, "\u00b5"); // two bytes, at every alignment
        ASSERT_EQ(written(text), "\"" + text + "\"") << "at " << at;
    }
}

} // namespace
} // namespace gapscope
