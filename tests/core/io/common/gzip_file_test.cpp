// SPDX-License-Identifier: MIT
#include "core/io/common/gzip_file.h"
#include "tests/temp_dir.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>

namespace gapscope {
namespace {

std::string gzipBytes(std::string_view data)
{
    z_stream zs {};
    deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&zs, static_cast<uLong>(data.size())) + 32, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    zs.avail_in = static_cast<uInt>(data.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

void writeBytes(const std::string& path, std::string_view bytes)
{
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// Text whose bytes differ along its length, so that a misplaced chunk shows.
std::string sampleText(std::size_t size, char seed)
{
    std::string text(size, ' ');
    for (std::size_t i = 0; i < size; ++i)
        text[i] = static_cast<char>('a' + (i * 7 + static_cast<std::size_t>(seed)) % 26);
    return text;
}

/// Reads everything with read() calls of `chunk` bytes.
IoResult<std::string> readInChunks(const std::string& path, std::size_t chunk)
{
    GzipFileReader reader;
    if (auto failed = reader.open(path))
        return *failed;
    std::string content;
    std::string buffer(chunk, '\0');
    for (;;) {
        auto got = reader.read(buffer.data(), chunk);
        if (!got)
            return got.error();
        if (got.value() == 0)
            break;
        content.append(buffer.data(), got.value());
    }
    EXPECT_EQ(reader.contentOffset(), content.size());
    return content;
}

class GzipFileChunkTest : public ::testing::TestWithParam<std::size_t> { };

TEST_P(GzipFileChunkTest, PlainAndGzipGiveTheSameContentWhateverTheChunkSize)
{
    test::TempDir dir;
    const std::string text = sampleText(3'000'000, 1); // more than the reader's 1 MB input chunk
    writeBytes(dir.file("plain.json"), text);
    writeBytes(dir.file("packed.json.gz"), gzipBytes(text));
    for (const char* name : { "plain.json", "packed.json.gz" }) {
        const auto content = readInChunks(dir.file(name), GetParam());
        ASSERT_TRUE(content.ok()) << content.error().toString();
        EXPECT_EQ(content.value().size(), text.size()) << name;
        EXPECT_TRUE(content.value() == text) << name;
    }
}

INSTANTIATE_TEST_SUITE_P(ChunkSizes, GzipFileChunkTest, ::testing::Values(1u, 4096u, 1u << 20, 5u << 20));

TEST(GzipFileTest, InflatesEveryMemberOfAMultiMemberFile)
{
    // `cat a.gz b.gz > ab.gz` is a valid gzip file whose content is a then b (RFC 1952 §2.2).
    test::TempDir dir;
    const std::string a = sampleText(200'000, 2);
    const std::string b = sampleText(150'000, 3);
    writeBytes(dir.file("ab.gz"), gzipBytes(a) + gzipBytes(b) + gzipBytes(""));
    const auto content = readFileContent(dir.file("ab.gz"));
    ASSERT_TRUE(content.ok()) << content.error().toString();
    EXPECT_TRUE(content.value() == a + b);
}

TEST(GzipFileTest, ZeroPaddingAfterTheLastMemberIsIgnored)
{
    test::TempDir dir;
    writeBytes(dir.file("padded.gz"), gzipBytes("[1, 2]") + std::string(512, '\0'));
    const auto content = readFileContent(dir.file("padded.gz"));
    ASSERT_TRUE(content.ok()) << content.error().toString();
    EXPECT_EQ(content.value(), "[1, 2]");
}

TEST(GzipFileTest, TruncatedStreamIsAnErrorAtTheEndOfTheInflatedContent)
{
    test::TempDir dir;
    // Incompressible-ish text, so the cut deflate stream still inflates most of its bytes.
    std::string text;
    std::uint64_t x = 88172645463325252ull;
    for (int i = 0; i < 100000; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        text += static_cast<char>('!' + x % 90);
    }
    const std::string gz = gzipBytes(text);
    writeBytes(dir.file("cut.gz"), std::string_view(gz).substr(0, gz.size() - 20)); // trailer and a bit more
    const auto content = readInChunks(dir.file("cut.gz"), 1 << 16);
    ASSERT_FALSE(content.ok());
    EXPECT_NE(content.error().message.find("truncated"), std::string::npos) << content.error().message;
    EXPECT_EQ(content.error().file, dir.file("cut.gz"));
    ASSERT_TRUE(content.error().byteOffset);
    // Everything before the cut was handed out: the offset is within the last few hundred bytes.
    EXPECT_LE(*content.error().byteOffset, text.size());
    EXPECT_GT(*content.error().byteOffset, text.size() - 1000);
}

TEST(GzipFileTest, CutInsideTheTrailerIsTruncatedToo)
{
    test::TempDir dir;
    const std::string gz = gzipBytes("{\"traceEvents\": []}");
    writeBytes(dir.file("cut.gz"), std::string_view(gz).substr(0, gz.size() - 3)); // ISIZE incomplete
    const auto content = readFileContent(dir.file("cut.gz"));
    ASSERT_FALSE(content.ok());
    EXPECT_NE(content.error().message.find("truncated"), std::string::npos);
    EXPECT_EQ(content.error().byteOffset, 19u); // all 19 content bytes inflated before the trailer
}

TEST(GzipFileTest, EmptyAndTinyFilesAreNotGzip)
{
    test::TempDir dir;
    writeBytes(dir.file("empty"), "");
    writeBytes(dir.file("one"), "\x1f");
    GzipFileReader empty;
    ASSERT_FALSE(empty.open(dir.file("empty")));
    EXPECT_FALSE(empty.isCompressed());
    char c = 0;
    ASSERT_TRUE(empty.read(&c, 1).ok());
    EXPECT_EQ(empty.read(&c, 1).value(), 0u);
    const auto one = readFileContent(dir.file("one"));
    ASSERT_TRUE(one.ok());
    EXPECT_EQ(one.value(), "\x1f");
}

TEST(GzipFileTest, MissingFileIsAnErrorWithoutOffset)
{
    GzipFileReader reader;
    const auto failed = reader.open("/nonexistent/dir/trace.json.gz");
    ASSERT_TRUE(failed);
    EXPECT_EQ(failed->file, "/nonexistent/dir/trace.json.gz");
    EXPECT_FALSE(failed->byteOffset);
    EXPECT_NE(failed->message.find("No such file"), std::string::npos);
}

} // namespace
} // namespace gapscope
