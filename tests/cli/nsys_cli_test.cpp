// SPDX-License-Identifier: MIT
// The subcommands on Nsight Systems SQLite exports (tests/data/nsys, tests/data/pipit): `convert` to Kineto JSON
// reads back as the same model with the same figures, `report` gives the figures of the export, `export
// --markdown` works on it like on any trace.
#include "cli/commands.h"
#include "core/analysis/analysis.h"
#include "core/io/trace_file.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <sstream>

namespace gapscope {
namespace {

using test::dataPath;
using test::TempDir;

const std::string kMock = "nsys/nsys-ai/mock.sqlite";

std::array<std::size_t, kEventKindCount> kindCounts(const Trace& trace)
{
    std::array<std::size_t, kEventKindCount> counts {};
    for (const Lane& lane : trace.lanes()) {
        for (const Event& e : lane.events)
            ++counts[static_cast<std::size_t>(e.kind)];
    }
    return counts;
}

class NsysConvert : public testing::TestWithParam<const char*> { };

TEST_P(NsysConvert, KinetoJsonReadsBackAsTheSameModel)
{
    TempDir dir;
    const std::string output = dir.file("converted.json.gz");
    std::ostringstream out;
    std::ostringstream err;
    ASSERT_EQ(cli::runConvert({ dataPath(GetParam()), output }, out, err), 0) << err.str();

    auto original = loadTraceFile(dataPath(GetParam()));
    ASSERT_TRUE(original.ok()) << original.error().toString();
    auto reread = loadTraceFile(output);
    ASSERT_TRUE(reread.ok()) << reread.error().toString();
    const Trace& a = original.value();
    const Trace& b = reread.value();
    EXPECT_EQ(kindCounts(a), kindCounts(b));
    ASSERT_EQ(a.processes().size(), b.processes().size());
    for (std::size_t i = 0; i < a.processes().size(); ++i) {
        EXPECT_EQ(a.processes()[i].pid, b.processes()[i].pid);
        EXPECT_EQ(a.processes()[i].name, b.processes()[i].name);
        EXPECT_EQ(a.processes()[i].rank, b.processes()[i].rank);
    }
    ASSERT_EQ(a.devices().size(), b.devices().size());
    for (std::size_t i = 0; i < a.devices().size(); ++i) {
        EXPECT_EQ(a.devices()[i].id, b.devices()[i].id);
        EXPECT_EQ(a.devices()[i].name, b.devices()[i].name);
    }

    // The figures: every device's span, busy and idle time, each gap with its cause, the kernel statistics.
    const AnalysisResult ra = analyze(a, {});
    const AnalysisResult rb = analyze(b, {});
    ASSERT_EQ(ra.devices.size(), rb.devices.size());
    for (std::size_t i = 0; i < ra.devices.size(); ++i) {
        EXPECT_EQ(ra.devices[i].spanNs, rb.devices[i].spanNs);
        EXPECT_EQ(ra.devices[i].busyNs, rb.devices[i].busyNs);
        EXPECT_EQ(ra.devices[i].idleNs, rb.devices[i].idleNs);
        EXPECT_EQ(ra.devices[i].idleByCause, rb.devices[i].idleByCause);
        EXPECT_EQ(ra.devices[i].gapCount, rb.devices[i].gapCount);
    }
    ASSERT_EQ(ra.gaps.size(), rb.gaps.size());
    for (std::size_t i = 0; i < ra.gaps.size(); ++i) {
        EXPECT_EQ(ra.gaps[i].start, rb.gaps[i].start);
        EXPECT_EQ(ra.gaps[i].end, rb.gaps[i].end);
        EXPECT_EQ(ra.gaps[i].cause, rb.gaps[i].cause);
    }
    ASSERT_EQ(ra.kernels.size(), rb.kernels.size());
    for (std::size_t i = 0; i < ra.kernels.size(); ++i) {
        EXPECT_EQ(ra.kernels[i].name, rb.kernels[i].name);
        EXPECT_EQ(ra.kernels[i].count, rb.kernels[i].count);
        EXPECT_EQ(ra.kernels[i].totalNs, rb.kernels[i].totalNs);
    }
}

INSTANTIATE_TEST_SUITE_P(RealExports, NsysConvert,
    testing::Values("nsys/nsys-ai/mock.sqlite", "nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite",
        "pipit/cloverleaf-nsys/perlmutter-cloverleaf-cuda.sqlite"));

TEST(NsysReport, JsonReportOfAnExportGivesItsFigures)
{
    std::ostringstream out;
    std::ostringstream err;
    ASSERT_EQ(cli::runReport({ "--json", dataPath(kMock) }, out, err), 0) << err.str();
    const auto doc = nlohmann::json::parse(out.str());
    ASSERT_EQ(doc["devices"].size(), 1u);
    const auto& device = doc["devices"][0];
    // Computed by hand: span 22,453,059, busy 5,761, idle 22,447,298; both gaps wait for the host.
    EXPECT_EQ(device["span_ns"], 22453059);
    EXPECT_EQ(device["busy_ns"], 5761);
    EXPECT_EQ(device["idle_ns"], 22447298);
    EXPECT_EQ(device["idle_by_cause_ns"]["host"], 22447298);
    EXPECT_EQ(doc["gaps"][0]["start_ns"], 1517728492);
    EXPECT_EQ(doc["gaps"][0]["end_ns"], 1535979030);
    EXPECT_EQ(doc["gaps"][0]["cause"], "host");
    ASSERT_EQ(doc["kernels"].size(), 2u);
    // The import summary states the export's nsys version.
    bool versionStated = false;
    for (const auto& w : doc["import"]["warnings"])
        versionStated = versionStated || w["message"].get<std::string>().find("nsys 2026.1.1.204") != std::string::npos;
    EXPECT_TRUE(versionStated) << doc["import"].dump();
}

TEST(NsysReport, TextReportNamesTheDevice)
{
    std::ostringstream out;
    std::ostringstream err;
    ASSERT_EQ(cli::runReport({ dataPath("nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite") }, out, err), 0)
        << err.str();
    EXPECT_NE(out.str().find("NVIDIA A100-SXM4-40GB"), std::string::npos) << out.str();
}

TEST(NsysExport, MarkdownOfAnExportWithoutNotes)
{
    TempDir dir;
    const std::string trace = dir.file("mock.sqlite");
    std::filesystem::copy_file(dataPath(kMock), trace);
    std::ostringstream out;
    std::ostringstream err;
    ASSERT_EQ(cli::runExport({ trace, "--markdown", "-" }, out, err), 0) << err.str();
    EXPECT_NE(out.str().find("# GapScope hypotheses: mock.sqlite\n\n0 notes."), std::string::npos) << out.str();
}

} // namespace
} // namespace gapscope
