// SPDX-License-Identifier: MIT
// CPU samples of Nsight Systems exports (COMPOSITE_EVENTS, SAMPLING_CALLCHAINS): pipit's CloverLeaf and saxpy
// exports (tests/data/NOTICE.md), every figure found by a sqlite3 query on the file, quoted beside it.
// nsightful's power-iteration export, which the issue also names, is not in the test data.
#include "core/analysis/analysis.h"
#include "core/analysis/gap_evidence.h"
#include "core/io/nsys/nsys_sqlite_reader.h"
#include "tests/core/hand_trace.h"

#include <gtest/gtest.h>

#include <map>

namespace gapscope {
namespace {

using test::load;

const std::string kCloverLeaf = "pipit/cloverleaf-nsys/perlmutter-cloverleaf-cuda.sqlite";
const std::string kSaxpy = "nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite";

std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> countsByThread(const Trace& trace)
{
    std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> counts;
    for (const ThreadSamples& t : trace.samples().threads())
        counts[{ trace.processes()[t.process.value].pid, t.tid }] += t.samples.size();
    return counts;
}

bool sortedByTime(const ThreadSamples& t)
{
    return std::is_sorted(t.samples.begin(), t.samples.end(),
        [](const CpuSample& a, const CpuSample& b) { return a.time < b.time; });
}

TEST(NsysCpuSamples, CloverLeafCountsPerThreadAreTheRowsPerThread)
{
    const Trace trace = load(kCloverLeaf);
    // SELECT globalTid >> 24 & 0xffffff, globalTid & 0xffffff, count(*) FROM COMPOSITE_EVENTS GROUP BY globalTid
    const std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> expected
        = { { { 1701896, 1701896 }, 1512 }, { { 1701896, 1701902 }, 16 }, { { 1701896, 1701905 }, 3 } };
    EXPECT_EQ(countsByThread(trace), expected);
    EXPECT_EQ(trace.samples().count(), 1531u);
    for (const ThreadSamples& t : trace.samples().threads())
        EXPECT_TRUE(sortedByTime(t));
    // Sample 1 (the first of the main thread, at 18,318,190 ns, on CPU 39): SELECT stackDepth, s.value, m.value
    // FROM SAMPLING_CALLCHAINS JOIN StringIds s ON s.id = symbol JOIN StringIds m ON m.id = module WHERE id = 1.
    const ThreadSamples* main = trace.samples().find(ProcessIndex { 0 }, 1701896);
    ASSERT_NE(main, nullptr);
    const CpuSample& first = main->samples.front();
    EXPECT_EQ(first.time, 18'318'190);
    EXPECT_EQ(first.cpu, 39u);
    const auto frames = trace.samples().chain(first.callchain);
    const std::vector<std::string_view> functions = { "do_lookup_x", "_dl_lookup_symbol_x", "_dl_relocate_object",
        "dl_main", "_dl_sysdep_start", "_dl_start", "0x7f72bf047558" };
    ASSERT_EQ(frames.size(), functions.size());
    for (std::size_t i = 0; i < frames.size(); ++i) {
        EXPECT_EQ(trace.strings().view(frames[i].function), functions[i]);
        EXPECT_EQ(trace.strings().view(frames[i].module), "/lib64/ld-2.31.so");
    }
    // The same stacks are stored once: fewer chains than samples (SELECT count(DISTINCT id) is 1,531, one
    // chain per sample in the file).
    EXPECT_LT(trace.samples().chainCount(), 1531u);
}

TEST(NsysCpuSamples, SaxpyCountsAndAHostGapsTopFunctionsAreThoseOfTheRowsInIt)
{
    const Trace trace = load(kSaxpy);
    // SELECT count(*) FROM COMPOSITE_EVENTS GROUP BY globalTid: one thread, 1230493.
    const std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> expected = { { { 1230493, 1230493 }, 5451 } };
    EXPECT_EQ(countsByThread(trace), expected);

    // The device gap [962,467,264, 1,158,713,065) ends with a copy whose cudaMemcpy began after its start: `host`.
    const AnalysisResult result = analyze(trace, {});
    std::optional<Gap> found;
    for (const Gap gap : result.gaps) {
        if (!gap.stream && gap.start == 962'467'264)
            found = gap;
    }
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->end, 1'158'713'065);
    ASSERT_EQ(found->cause, GapCause::Host);
    const GapEvidence evidence = gapEvidence(trace, *found, result.options.launchThresholdNs);
    ASSERT_TRUE(evidence.samples.has_value()) << evidence.summary;
    // SELECT count(*) FROM COMPOSITE_EVENTS WHERE globalTid = 302119224788637 AND start >= 962467264 AND
    // start < 1158713065: 968. Self: the same rows joined with their stackDepth 0 frame, GROUP BY symbol: main 605,
    // std::abs(double) 90, cxip_cq_progress 58. Total: count(DISTINCT id) of the rows with the symbol at any depth:
    // main 692, std::abs(double) 90, cxip_cq_progress 61.
    EXPECT_EQ(evidence.samples->count, 968u);
    ASSERT_GE(evidence.samples->top.size(), 3u);
    const auto expectTop = [&](std::size_t i, std::string_view function, std::string_view module, std::uint32_t self,
                               std::uint32_t total) {
        SCOPED_TRACE("top function " + std::to_string(i));
        const SampledFunction& f = evidence.samples->top[i];
        EXPECT_EQ(trace.strings().view(f.frame.function), function);
        EXPECT_EQ(trace.strings().view(f.frame.module), module);
        EXPECT_EQ(f.self, self);
        EXPECT_EQ(f.total, total);
    };
    const std::string app = "/global/u2/o/ocankur/apps/chatterbug/saxpy-mpi-cuda/saxpy-mpi-cuda";
    expectTop(0, "main", app, 605, 692);
    expectTop(1, "std::abs(double)", app, 90, 90);
    expectTop(2, "cxip_cq_progress", "/opt/cray/libfabric/1.15.2.0/lib64/libfabric.so.1.18.2", 58, 61);
    EXPECT_NE(evidence.summary.find("; the launching thread was sampled 968 times in this gap: main (saxpy-mpi-cuda) "
                                    "605 self / 692 total, std::abs(double) (saxpy-mpi-cuda) 90 self / 90 total"),
        std::string::npos)
        << evidence.summary;
}

TEST(NsysCpuSamples, AnExportWithoutSamplesHasNoneAndSaysNothingOfThem)
{
    const Trace trace = load("nsys/nsys-ai/mock.sqlite");
    EXPECT_TRUE(trace.samples().empty());
    for (const ImportWarning& w : trace.warnings())
        EXPECT_EQ(w.message.find("COMPOSITE_EVENTS"), std::string::npos) << w.message;
}

} // namespace
} // namespace gapscope
