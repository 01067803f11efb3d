// SPDX-License-Identifier: MIT
// Opening an Nsight Systems report (.nsys-rep) through `nsys export --type sqlite`: a fake `nsys` (a shell script
// that copies a real export from tests/data to the --output it is given, and counts its runs) stands in for
// NVIDIA's. The export is cached next to the report and reused while the report is unchanged; without nsys the
// error says what to install and the command to run by hand.
#include "core/io/nsys/nsys_report_export.h"
#include "core/io/trace_file.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace gapscope {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

const std::string kSaxpy = "nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite";

class NsysReportExport : public testing::Test {
protected:
    void SetUp() override
    {
        fs::create_directories(m_dir.path() / "bin");
        fs::create_directories(m_dir.path() / "runs");
        fs::create_directories(m_dir.path() / "emptybin");
        report = m_dir.file("runs/train.nsys-rep");
        // Not JSON, not SQLite: what a report holds is nsys's business.
        test::writeWholeFile(report, std::string("\x01\x02QDSTRM report\n", 16));
        nsys = m_dir.file("bin/nsys");
        writeFakeNsys("cp '" + test::dataPath(kSaxpy) + "' \"$out\"");
        options.searchPath = m_dir.file("emptybin") + ":" + m_dir.file("bin");
        options.userCacheDir = m_dir.file("cache");
    }

    /// An `nsys` that logs its arguments to bin/runs, finds --output and then runs `body`.
    void writeFakeNsys(const std::string& body)
    {
        test::writeWholeFile(nsys,
            "#!/bin/sh\n"
            "echo \"$*\" >> \""
                + m_dir.file("bin/runs")
                + "\"\n"
                  "out=\"\"\n"
                  "while [ $# -gt 0 ]; do\n"
                  "  case \"$1\" in --output) out=\"$2\"; shift ;; esac\n"
                  "  shift\n"
                  "done\n"
                + body + "\n");
        fs::permissions(nsys, fs::perms::owner_all);
    }
    std::vector<std::string> runs() const
    {
        std::vector<std::string> lines;
        std::istringstream in(test::readWholeFile(m_dir.file("bin/runs")));
        for (std::string line; std::getline(in, line);)
            lines.push_back(line);
        return lines;
    }

    TempDir m_dir;
    std::string report;
    std::string nsys;
    NsysExportOptions options;
};

TEST_F(NsysReportExport, ExportsNextToTheReportOnceWhileItIsUnchanged)
{
    const auto first = nsysSqliteExportOf(report, options);
    ASSERT_TRUE(first.ok()) << first.error().toString();
    const std::string expected = m_dir.file("runs/.gapscope-cache/train.nsys-rep.sqlite");
    EXPECT_EQ(first.value(), expected);
    EXPECT_EQ(fs::file_size(expected), fs::file_size(test::dataPath(kSaxpy)));
    ASSERT_EQ(runs().size(), 1u);
    // nsys export --type sqlite, into a temporary name that becomes the cached export once nsys succeeded.
    EXPECT_EQ(runs()[0].rfind("export --type sqlite --force-overwrite true --output " + expected + ".partial-", 0), 0u)
        << runs()[0];
    EXPECT_TRUE(runs()[0].ends_with(".sqlite " + report)) << runs()[0];

    const auto second = nsysSqliteExportOf(report, options);
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(second.value(), expected);
    EXPECT_EQ(runs().size(), 1u); // reused

    test::writeWholeFile(report, "a new recording under the same name");
    const auto third = nsysSqliteExportOf(report, options);
    ASSERT_TRUE(third.ok());
    EXPECT_EQ(runs().size(), 2u); // the report changed: exported again
}

TEST_F(NsysReportExport, LoadTraceFileOpensAReportThroughNsysNamedByTheEnvironment)
{
    const char* saved = std::getenv("NSYS");
    const std::string savedValue = saved ? saved : "";
    ::setenv("NSYS", nsys.c_str(), 1);
    auto loaded = loadTraceFile(report);
    if (saved)
        ::setenv("NSYS", savedValue.c_str(), 1);
    else
        ::unsetenv("NSYS");
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    const Trace& trace = loaded.value();
    std::size_t kernels = 0;
    for (const Lane& lane : trace.lanes())
        kernels += static_cast<std::size_t>(std::count_if(
            lane.events.begin(), lane.events.end(), [](const Event& e) { return e.kind == EventKind::Kernel; }));
    EXPECT_EQ(kernels, 5u);
    ASSERT_EQ(trace.processes().size(), 1u);
    EXPECT_EQ(trace.processes()[0].sourceFile, report);
    ASSERT_FALSE(trace.warnings().empty());
    EXPECT_EQ(trace.warnings()[0].message,
        "read through its SQLite export " + m_dir.file("runs/.gapscope-cache/train.nsys-rep.sqlite"));
}

TEST_F(NsysReportExport, WithoutNsysSaysWhatToInstallAndTheCommandToRun)
{
    options.searchPath = m_dir.file("emptybin");
    const auto result = nsysSqliteExportOf(report, options);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().file, report);
    const std::string& message = result.error().message;
    EXPECT_NE(message.find("no `nsys` was found (not on PATH, and NSYS is not set)"), std::string::npos) << message;
    EXPECT_NE(message.find("Install Nsight Systems"), std::string::npos) << message;
    EXPECT_NE(message.find("nsys export --type sqlite --output " + report + ".sqlite " + report), std::string::npos)
        << message;
    EXPECT_TRUE(runs().empty());
}

TEST_F(NsysReportExport, FailingNsysIsReportedWithItsOutput)
{
    writeFakeNsys("echo 'ERROR: the report is from a newer version' >&2; exit 3");
    const auto result = nsysSqliteExportOf(report, options);
    ASSERT_FALSE(result.ok());
    const std::string& message = result.error().message;
    EXPECT_NE(message.find(nsys + " export failed with exit status 3"), std::string::npos) << message;
    EXPECT_NE(message.find("ERROR: the report is from a newer version"), std::string::npos) << message;
    EXPECT_FALSE(fs::exists(m_dir.file("runs/.gapscope-cache/train.nsys-rep.sqlite")));
}

TEST_F(NsysReportExport, UnwritableReportFolderExportsToTheUserCache)
{
    // A file where the cache folder would go: nothing can be created there (this works as root too).
    test::writeWholeFile(m_dir.file("runs/.gapscope-cache"), "not a folder");
    const auto result = nsysSqliteExportOf(report, options);
    ASSERT_TRUE(result.ok()) << result.error().toString();
    const fs::path exported(result.value());
    EXPECT_EQ(exported.parent_path(), fs::path(m_dir.file("cache/gapscope/nsys")));
    EXPECT_TRUE(exported.filename().string().starts_with("train.nsys-rep-")) << exported;
    EXPECT_TRUE(fs::is_regular_file(exported));
    // Reused from there too.
    ASSERT_TRUE(nsysSqliteExportOf(report, options).ok());
    EXPECT_EQ(runs().size(), 1u);
}

TEST(NsysReportNames, ReportsAreKnownByTheirExtension)
{
    EXPECT_TRUE(isNsysReportName("a/b/profile.nsys-rep"));
    EXPECT_TRUE(isNsysReportName("OLD.QDREP"));
    EXPECT_FALSE(isNsysReportName("profile.sqlite"));
    EXPECT_FALSE(isNsysReportName("nsys-rep"));
}

} // namespace
} // namespace gapscope
