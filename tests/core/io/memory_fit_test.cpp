// SPDX-License-Identifier: MIT
// The "does it fit in memory" check (core/io/memory_fit.h): the estimate from the file alone, MemAvailable
// from a meminfo file, and a load refused under a small fake memory limit with a message that names the file,
// the estimate and the memory available.

#include "cli/commands.h"
#include "core/io/memory_fit.h"
#include "core/io/trace_file.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

namespace gapscope {
namespace {

// H100 BERT trace of TraceLens: 71,459 bytes of gzip whose trailer gives 1,078,563 bytes of JSON (zcat | wc -c).
const std::string kBert = "tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz";

/// Sets an environment variable for the scope of a test.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value)
        : m_name(name)
    {
        ::setenv(name, value, 1);
    }
    ~ScopedEnv() { ::unsetenv(m_name); }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* m_name;
};

TEST(MemoryFit, AvailableMemoryIsMemAvailableFromMeminfo)
{
    test::TempDir dir;
    const std::string meminfo = dir.file("meminfo");
    test::writeWholeFile(meminfo,
        "MemTotal:       24564852 kB\nMemFree:        21012340 kB\nMemAvailable:   22871004 kB\nBuffers: 1 kB\n");
    EXPECT_EQ(availableMemoryBytes(meminfo), std::optional<std::uint64_t>(22871004ull * 1024));
    test::writeWholeFile(meminfo, "MemTotal:       24564852 kB\nMemFree:        21012340 kB\n"); // kernels before 3.14
    EXPECT_EQ(availableMemoryBytes(meminfo), std::nullopt);
    EXPECT_EQ(availableMemoryBytes(dir.file("missing")), std::nullopt);
}

TEST(MemoryFit, GzipContentSizeComesFromTheTrailer)
{
    const auto estimate = estimateLoad(test::dataPath(kBert));
    ASSERT_TRUE(estimate) << estimate.error().toString();
    EXPECT_EQ(estimate.value().fileBytes, 71459u);
    EXPECT_EQ(estimate.value().contentBytes, 1078563u);
    EXPECT_EQ(estimate.value().peakBytes, 808922u); // 0.75 per JSON byte, rounded down
}

TEST(MemoryFit, PlainJsonContentIsTheFile)
{
    const auto estimate = estimateLoad(test::dataPath("kineto/derived/tb_plugin_test_gpu_utilization.json"));
    ASSERT_TRUE(estimate) << estimate.error().toString();
    EXPECT_EQ(estimate.value().fileBytes, 2580u);
    EXPECT_EQ(estimate.value().contentBytes, 2580u);
    EXPECT_EQ(estimate.value().peakBytes, 1935u);
}

TEST(MemoryFit, NsysSqliteExportsUseTheirOwnFactor)
{
    const auto estimate = estimateLoad(test::dataPath("nsys/nsys-ai/mock.sqlite"));
    ASSERT_TRUE(estimate) << estimate.error().toString();
    EXPECT_EQ(estimate.value().fileBytes, 372736u);
    EXPECT_EQ(estimate.value().contentBytes, 372736u);
    EXPECT_EQ(estimate.value().peakBytes, 465920u); // 1.25 per byte
}

TEST(MemoryFit, AGzipSizeThatWrappedAround4GiBIsRaisedToAPlausibleRatio)
{
    // 10-byte gzip header, 200 bytes of "deflate data", CRC and ISIZE = 1000: a 218-byte file cannot hold
    // only 1000 bytes at a ratio of at least 5 (1090), so the content is 1000 + 4 GiB.
    test::TempDir dir;
    const std::string path = dir.file("wrapped.json.gz");
    std::string bytes("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10);
    bytes += std::string(200, 'x');
    bytes += std::string("\x00\x00\x00\x00\xe8\x03\x00\x00", 8);
    test::writeWholeFile(path, bytes);
    const auto estimate = estimateLoad(path);
    ASSERT_TRUE(estimate) << estimate.error().toString();
    EXPECT_EQ(estimate.value().fileBytes, 218u);
    EXPECT_EQ(estimate.value().contentBytes, 4294968296u);
    EXPECT_EQ(estimate.value().peakBytes, 3221226222u);
}

TEST(MemoryFit, TooLargeNamesTheFileTheEstimateAndTheAvailableMemory)
{
    const std::string path = test::dataPath(kBert);
    EXPECT_EQ(checkFitsInMemory({ path }, 808922), std::nullopt);
    const auto refused = checkFitsInMemory({ path }, 500000);
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->file, path);
    EXPECT_EQ(refused->message,
        "too large for the memory available: loading this 71 kB trace would take about 809 kB (estimated from the "
        "file size), and 500 kB is available (MemAvailable in /proc/meminfo, or GAPSCOPE_AVAILABLE_MEMORY). Load it "
        "on a machine with more memory, close other programs, load only its GPU lanes (--gpu-only) or a time range "
        "of it (--load-range T0:T1), or set GAPSCOPE_SKIP_MEMORY_CHECK=1 to try anyway");
    // Two files are checked together: 2 x 809 kB does not fit in 1.2 MB, though each does.
    const auto both = checkFitsInMemory({ path, path }, 1200000);
    ASSERT_TRUE(both.has_value());
    EXPECT_NE(both->message.find("loading these 2 traces (143 kB together) would take about 1.6 MB"), std::string::npos)
        << both->message;
}

TEST(MemoryFit, LoadUnderASmallFakeLimitIsRefusedBeforeParsing)
{
    const std::string path = test::dataPath(kBert);
    {
        ScopedEnv limit("GAPSCOPE_AVAILABLE_MEMORY", "500000");
        const auto loaded = loadTraceFile(path);
        ASSERT_FALSE(loaded.ok());
        EXPECT_EQ(loaded.error().file, path);
        EXPECT_EQ(loaded.error().byteOffset, std::nullopt);
        EXPECT_NE(loaded.error().message.find("would take about 809 kB"), std::string::npos);

        std::ostringstream out;
        std::ostringstream err;
        EXPECT_EQ(cli::runReport({ path }, out, err), 1);
        EXPECT_NE(err.str().find(path + ": too large for the memory available"), std::string::npos) << err.str();

        ScopedEnv skip("GAPSCOPE_SKIP_MEMORY_CHECK", "1");
        EXPECT_TRUE(loadTraceFile(path).ok());
    }
    ScopedEnv limit("GAPSCOPE_AVAILABLE_MEMORY", "808922");
    const auto loaded = loadTraceFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    std::size_t kernels = 0;
    for (const Lane& lane : loaded.value().lanes()) {
        for (const Event& e : lane.events)
            kernels += e.kind == EventKind::Kernel ? 1 : 0;
    }
    EXPECT_EQ(kernels, 60u); // the trace's 60 kernels (tests/data/NOTICE.md: TraceLens H100 BERT)
}

} // namespace
} // namespace gapscope
