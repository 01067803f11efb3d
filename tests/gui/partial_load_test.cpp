// SPDX-License-Identifier: MIT
// A trace too large for the memory available, in the viewer: the refusal offers "Load GPU Lanes Only", and a range
// selected on that partial trace reloads with every lane (docs/hardening.md "Traces larger than memory").
#include "app/mainwindow/load_status.h"
#include "app/mainwindow/main_window.h"
#include "app/mainwindow/partial_load_controller.h"
#include "app/timeline/timeline_state.h"
#include "core/io/trace_file.h"
#include "gui/main_window_test_support.h"
#include "tests/test_paths.h"

#include <QAbstractButton>
#include <QAction>
#include <QMessageBox>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>

using namespace gapscope;

namespace {

const char* kResnet = test::kResnet50Trace;

struct Counts {
    std::size_t gpu = 0;
    std::size_t host = 0;
};

Counts countOf(const Trace& trace, TimeNs from = std::numeric_limits<TimeNs>::min(),
    TimeNs to = std::numeric_limits<TimeNs>::max())
{
    Counts c;
    for (const Lane& lane : trace.lanes()) {
        for (const Event& e : lane.events) {
            const bool overlaps = e.start == e.end ? (e.start >= from && e.start < to) : (e.start < to && e.end > from);
            if (overlaps)
                (isGpuLaneKind(e.kind) ? c.gpu : c.host) += 1;
        }
    }
    return c;
}

TEST(PartialLoad, TooLargeOffersGpuLanesOnlyThenARangeWithAllLanes)
{
    const QString path = test::dataFile(kResnet);
    auto whole = loadTraceFile(path.toStdString());
    ASSERT_TRUE(whole.ok()) << whole.error().toString();
    const Counts all = countOf(whole.value());

    app::MainWindow window;
    window.show();
    // 500 kB available: the 1.1 MB gzip trace (about 20 MB of JSON) is refused before it is read.
    ::setenv("GAPSCOPE_AVAILABLE_MEMORY", "500000", 1);
    QSignalSpy failed(&window, &app::MainWindow::loadFailed);
    window.openFiles({ path });
    ASSERT_TRUE(failed.wait(60'000));
    ASSERT_NE(window.loadStatus()->errorDialog(), nullptr);
    EXPECT_TRUE(window.loadStatus()->errorDialog()->informativeText().contains("too large for the memory available"));
    ASSERT_NE(window.partialLoad()->gpuOnlyButton(), nullptr);
    EXPECT_TRUE(window.partialLoad()->gpuOnlyButton()->isVisible());

    // Load GPU Lanes Only: the trace on screen holds every GPU event and no host event, and says it is partial.
    QSignalSpy shown(&window, &app::MainWindow::traceShown);
    window.partialLoad()->gpuOnlyButton()->click();
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_TRUE(window.partialLoad()->loadedFilter().gpuOnly);
    const Trace& gpuOnly = *window.loadedTrace().trace;
    EXPECT_EQ(countOf(gpuOnly).gpu, all.gpu);
    EXPECT_EQ(countOf(gpuOnly).host, 0u);
    ASSERT_FALSE(gpuOnly.warnings().empty());
    EXPECT_EQ(gpuOnly.warnings().front().message.rfind("loaded only the GPU lanes: ", 0), 0u);

    // Nothing selected: nothing to reload. A range selected (the middle fifth of the GPU lanes' span): every lane.
    EXPECT_FALSE(window.partialLoad()->loadRangeAction()->isEnabled());
    const auto span = gpuOnly.timeSpan();
    ASSERT_TRUE(span.has_value());
    const TimeNs from = span->first + 2 * (span->second - span->first) / 5;
    const TimeNs to = span->first + 3 * (span->second - span->first) / 5;
    window.timelineState()->selectRange(timeline::TimeRange { from, to });
    ASSERT_TRUE(window.partialLoad()->loadRangeAction()->isEnabled());
    // A range holds far less than the whole: the reload is not refused (the check is for whole loads).
    window.partialLoad()->loadRangeAction()->trigger();
    ASSERT_TRUE(shown.wait(60'000));
    ::unsetenv("GAPSCOPE_AVAILABLE_MEMORY");
    EXPECT_FALSE(window.partialLoad()->loadedFilter().gpuOnly);
    EXPECT_EQ(window.partialLoad()->loadedFilter().from, from);
    EXPECT_EQ(window.partialLoad()->loadedFilter().to, to);
    const Counts expected = countOf(whole.value(), from, to);
    const Counts ranged = countOf(*window.loadedTrace().trace);
    EXPECT_EQ(ranged.gpu, expected.gpu);
    EXPECT_EQ(ranged.host, expected.host);
    EXPECT_GT(ranged.host, 0u);
    EXPECT_LT(ranged.gpu + ranged.host, all.gpu + all.host);
}

} // namespace
