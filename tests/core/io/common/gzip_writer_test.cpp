// SPDX-License-Identifier: MIT
#include "core/io/common/gzip_writer.h"

#include <gtest/gtest.h>

#include <sstream>

#include <zlib.h>

namespace gapscope {
namespace {

/// Inflates a whole gzip member with zlib (windowBits 15 + 16: gzip wrapper only).
std::string gunzip(const std::string& compressed)
{
    z_stream stream {};
    EXPECT_EQ(inflateInit2(&stream, 15 + 16), Z_OK);
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
    stream.avail_in = static_cast<uInt>(compressed.size());
    std::string out;
    char buffer[1 << 15];
    int status = Z_OK;
    while (status == Z_OK) {
        stream.next_out = reinterpret_cast<Bytef*>(buffer);
        stream.avail_out = sizeof buffer;
        status = inflate(&stream, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - stream.avail_out);
    }
    EXPECT_EQ(status, Z_STREAM_END); // a complete member with a valid CRC-32 and length
    inflateEnd(&stream);
    return out;
}

struct GzipCase {
    const char* label;
    std::size_t size;
    int level;
};

class GzipOutputStreamRoundTrip : public testing::TestWithParam<GzipCase> { };

TEST_P(GzipOutputStreamRoundTrip, InflatesToTheSameBytes)
{
    std::string content;
    for (std::size_t i = 0; content.size() < GetParam().size; ++i)
        content += "{\"ph\":\"X\",\"ts\":" + std::to_string(i * 7919 % 100003) + "},\n";
    content.resize(GetParam().size);
    std::ostringstream sink;
    GzipOutputStream gzip(sink, GetParam().level);
    gzip << content;
    ASSERT_TRUE(gzip.finish());
    EXPECT_EQ(gunzip(sink.str()), content);
    if (content.size() > 10000) {
        EXPECT_LT(sink.str().size(), content.size() / 3); // repetitive JSON compresses well
    }
}

INSTANTIATE_TEST_SUITE_P(Sizes, GzipOutputStreamRoundTrip,
    testing::Values(GzipCase { "empty", 0, 6 }, GzipCase { "small", 100, 6 }, GzipCase { "severalBuffers", 3 << 20, 1 },
        GzipCase { "severalBuffersLevel6", 1 << 20, 6 }),
    [](const auto& info) { return std::string(info.param.label); });

TEST(GzipOutputStream, WritesAfterFinishFail)
{
    std::ostringstream sink;
    GzipOutputStream gzip(sink);
    gzip << "abc";
    ASSERT_TRUE(gzip.finish());
    const std::string complete = sink.str();
    gzip << std::string(1 << 20, 'x');
    gzip.flush();
    EXPECT_FALSE(gzip.good());
    EXPECT_EQ(sink.str(), complete);
    EXPECT_EQ(gunzip(complete), "abc");
}

TEST(GzipOutputStream, SinkFailureIsReported)
{
    std::ostringstream sink;
    sink.setstate(std::ios::badbit);
    GzipOutputStream gzip(sink);
    gzip << "abc";
    EXPECT_FALSE(gzip.finish());
    EXPECT_TRUE(gzip.bad());
}

} // namespace
} // namespace gapscope
