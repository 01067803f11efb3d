// SPDX-License-Identifier: MIT
// QuotedJsonStrings hands a report the JSON text of names it writes thousands of times: that text must be byte for
// byte what JsonStreamWriter::string writes, since a report's output may not change with the cache.
#include "core/io/common/quoted_json_strings.h"

#include "core/io/common/json_stream_writer.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace gapscope {
namespace {

std::string writtenByTheWriter(std::string_view text)
{
    std::ostringstream out;
    {
        JsonStreamWriter writer(out);
        writer.string(text);
    }
    return out.str();
}

TEST(QuotedJsonStrings, QuotesAndBackslashesAreEscaped)
{
    QuotedJsonStrings strings;
    EXPECT_EQ(strings.quoted(0, R"(say "hi" to C:\tmp)"), R"("say \"hi\" to C:\\tmp")");
}

TEST(QuotedJsonStrings, ControlBytesAreEscaped)
{
    QuotedJsonStrings strings;
    // The NUL at the end too: the view's length says where the text ends.
    EXPECT_EQ(
        strings.quoted(0, std::string_view("a\nb\tc\x01\x1f\r\b\f\0", 11)), R"("a\nb\tc\u0001\u001f\r\b\f\u0000")");
}

TEST(QuotedJsonStrings, Utf8IsKeptAndStrayBytesBecomeTheReplacementCharacter)
{
    QuotedJsonStrings strings;
    EXPECT_EQ(strings.quoted(0, "12 \u00b5s \u2192 \U0001f680"), "\"12 \u00b5s \u2192 \U0001f680\"");
    // 0xff is never UTF-8; 0xc3 alone lacks its continuation byte; 0xed 0xa0 0x80 would be a surrogate.
    EXPECT_EQ(strings.quoted(1,
                  "a\xff"
                  "b\xc3"
                  "c\xed\xa0\x80"),
        R"("a\ufffdb\ufffdc\ufffd\ufffd\ufffd")");
}

TEST(QuotedJsonStrings, ANameAskedForTwiceGivesTheSameBytesMadeOnce)
{
    QuotedJsonStrings strings;
    EXPECT_FALSE(strings.contains(7));
    const std::string first(strings.quoted(7, "void kernel<\"float\">(float*)"));
    EXPECT_TRUE(strings.contains(7));
    EXPECT_FALSE(strings.contains(6));
    EXPECT_EQ(first, R"j("void kernel<\"float\">(float*)")j");
    // Made the first time only: the second call does not read its text.
    EXPECT_EQ(strings.quoted(7, "ignored"), first);
    EXPECT_EQ(strings.size(), 1U);
    // Keys in any order, far apart, each keeping its own text while the table grows.
    EXPECT_EQ(strings.quoted(100000, "far"), "\"far\"");
    EXPECT_EQ(strings.quoted(3, ""), "\"\"");
    EXPECT_EQ(strings.quoted(7, "ignored"), first);
    EXPECT_EQ(strings.size(), 3U);
}

TEST(QuotedJsonStrings, EveryByteIsWrittenAsTheStreamWriterWritesIt)
{
    QuotedJsonStrings strings;
    for (int c = 0; c < 256; ++c) {
        const std::string text = "name " + std::string(1, static_cast<char>(c)) + " \u00b5s, a long enough tail";
        ASSERT_EQ(strings.quoted(static_cast<std::uint32_t>(c), text), writtenByTheWriter(text)) << "byte " << c;
        ASSERT_EQ(strings.quoted(static_cast<std::uint32_t>(c), text), writtenByTheWriter(text)) << "byte " << c;
    }
}

} // namespace
} // namespace gapscope
