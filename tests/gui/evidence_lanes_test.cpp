// SPDX-License-Identifier: MIT
// What the timeline shows of a trace's memory and CPU samples, on real traces: the BERT trace's GPU memory lane
// (allocated filled up to its largest Total Allocated, reserved above it) and saxpy's sample strip (a tick where
// the thread was sampled, and a tooltip naming the sampled frames; Fit Whole Trace shows the samples before its
// first event).
#include "app/mainwindow/main_window.h"
#include "app/timeline/counter_painter.h"
#include "app/timeline/timeline_state.h"
#include "app/timeline/timeline_view.h"
#include "gui/main_window_test_support.h"

#include <QApplication>
#include <QHelpEvent>
#include <QToolTip>

#include <gtest/gtest.h>

#include <algorithm>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

const char* const kBert = "tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz";
const char* const kSaxpy = "nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite";

class EvidenceLanes : public ::testing::Test {
protected:
    void open(const char* file)
    {
        window.resize(1400, 900);
        window.show();
        ASSERT_TRUE(test::openAndWait(window, { test::dataFile(file) }));
    }
    QString tooltipAt(QPoint pos)
    {
        QWidget* viewport = window.timelineView()->canvas();
        QHelpEvent help(QEvent::ToolTip, pos, viewport->mapToGlobal(pos));
        QApplication::sendEvent(viewport, &help);
        QString text = QToolTip::text();
        QToolTip::hideText();
        return text;
    }
    app::MainWindow window;
};

bool bluish(QRgb pixel)
{
    return qBlue(pixel) > qRed(pixel) + 40;
}

TEST_F(EvidenceLanes, TheGpuMemoryLaneIsFilledUpToTheLargestAllocationAndTheReservedLineIsAbove)
{
    ASSERT_NO_FATAL_FAILURE(open(kBert));
    TimelineView* view = window.timelineView();
    const Trace& trace = *view->scene().trace;
    const auto memory = std::find_if(view->layout().rows().begin(), view->layout().rows().end(),
        [](const LayoutRow& row) { return row.kind == RowKind::CounterLane && row.device; });
    ASSERT_NE(memory, view->layout().rows().end());
    EXPECT_EQ(memory->label, "memory (allocated, reserved)");
    ASSERT_EQ(memory->counterTracks.size(), 2u);
    const CounterTrack& allocated = trace.counters().tracks()[memory->counterTracks[0]];
    const CounterTrack& reserved = trace.counters().tracks()[memory->counterTracks[1]];
    EXPECT_EQ(allocated.name, kMemoryAllocatedTrack);
    EXPECT_EQ(reserved.name, kMemoryReservedTrack);
    // The largest Total Allocated of the trace's GPU [memory] events is 101,305,344 bytes, at the first point that
    // reaches it; Total Reserved peaks at 121,634,816 (as chrome_memory_counters_test.cpp reads them).
    const auto peak = std::max_element(allocated.points.begin(), allocated.points.end(),
        [](const CounterPoint& a, const CounterPoint& b) { return a.value < b.value; });
    ASSERT_EQ(peak->value, 101'305'344.0);
    // Zoomed to 20 us around the peak: the pixel column holding it holds no other point.
    view->state()->setVisibleRange({ peak->time - 10'000, peak->time + 10'000 }, TimelineState::History::Push);
    QApplication::processEvents();
    const TimelineScene scene = view->scene();
    const int column = static_cast<int>(scene.axis.timeToX(peak->time)) + scene.labelWidth;
    const int top = TimelinePainter::contentYToScreen(scene, memory->y);
    const QImage image = view->canvas()->grab().toImage();
    // The lane is scaled to the reserved peak: the allocated area ends 101.3 / 121.6 of the way up (23 of its
    // 28 pixels), the reserved line runs along the top.
    const int bottom = top + memory->height - 2;
    EXPECT_TRUE(bluish(image.pixel(column + 1, bottom - 5))) << "inside the allocated area";
    EXPECT_TRUE(bluish(image.pixel(column + 1, bottom - 23))) << "the allocated area's edge";
    EXPECT_FALSE(bluish(image.pixel(column + 1, bottom - 26))) << "above it";
    const QRgb reservedLine = image.pixel(column + 1, bottom - 28);
    EXPECT_GT(qRed(reservedLine), qBlue(reservedLine) + 40) << "the reserved line (orange)";
    // What the pointer over the peak says.
    const QString tip = tooltipAt(QPoint(column + 1, top + memory->height / 2));
    EXPECT_TRUE(tip.contains(QStringLiteral("memory allocated: 101.3 MB"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("memory reserved: 121.6 MB"))) << tip.toStdString();
}

TEST_F(EvidenceLanes, ASampledThreadHasATickWhereItWasSampledAndTheTooltipNamesTheFrames)
{
    ASSERT_NO_FATAL_FAILURE(open(kSaxpy));
    TimelineView* view = window.timelineView();
    const auto lane = std::find_if(view->layout().rows().begin(), view->layout().rows().end(),
        [](const LayoutRow& row) { return row.kind == RowKind::ThreadLane && row.samples; });
    ASSERT_NE(lane, view->layout().rows().end());
    // The export's first sample (SELECT id, start FROM COMPOSITE_EVENTS ORDER BY start LIMIT 1: id 1 at
    // 24,479,746 ns) ran _dl_relocate_object in /lib64/ld-2.31.so (its SAMPLING_CALLCHAINS row of stackDepth 0);
    // the next one is 594 us later, outside a 200 us view.
    constexpr TimeNs kFirstSample = 24'479'746;
    view->state()->setVisibleRange({ kFirstSample - 100'000, kFirstSample + 100'000 }, TimelineState::History::Push);
    QApplication::processEvents();
    const TimelineScene scene = view->scene();
    const int column = static_cast<int>(scene.axis.timeToX(kFirstSample)) + scene.labelWidth;
    const int strip = TimelinePainter::contentYToScreen(scene, *view->layout().sampleStripTop(*lane));
    const QImage image = view->canvas()->grab().toImage();
    const QRgb tick = image.pixel(column, strip + 2);
    EXPECT_LT(qGray(tick), 140) << "a dark tick at the sample";
    const QRgb beside = image.pixel(column + 20, strip + 2);
    EXPECT_GT(qGray(beside), 200) << "no tick 20 px (about 3.5 us) away";
    const QString tip = tooltipAt(QPoint(column, strip + 2));
    EXPECT_TRUE(tip.startsWith(QStringLiteral("CPU sample at"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("\n_dl_relocate_object (/lib64/ld-2.31.so)"))) << tip.toStdString();
}

TEST_F(EvidenceLanes, FitWholeTraceShowsTheSamplesTakenBeforeTheFirstEvent)
{
    ASSERT_NO_FATAL_FAILURE(open(kSaxpy));
    TimelineView* view = window.timelineView();
    view->zoomBy(8.0);
    view->fitAll();
    QApplication::processEvents();
    // Nsight Systems sampled saxpy from 24,479,746 ns (SELECT min(start) FROM COMPOSITE_EVENTS), 40.6 ms before
    // its first event, the NVTX range at 65,117,824 (SELECT min(start) FROM NVTX_EVENTS WHERE end IS NOT NULL);
    // the last end is that of the NVTX range ending at 2,088,944,716. Times still count from the first event.
    constexpr TimeNs kFirstSample = 24'479'746;
    EXPECT_EQ(view->state()->visibleRange(), (TimeRange { kFirstSample, 2'088'944'716 }));
    EXPECT_EQ(view->state()->origin(), 65'117'824);
    const auto lane = std::find_if(view->layout().rows().begin(), view->layout().rows().end(),
        [](const LayoutRow& row) { return row.kind == RowKind::ThreadLane && row.samples; });
    ASSERT_NE(lane, view->layout().rows().end());
    const TimelineScene scene = view->scene();
    const int column = static_cast<int>(scene.axis.timeToX(kFirstSample)) + scene.labelWidth;
    EXPECT_EQ(column, scene.labelWidth);
    const int strip = TimelinePainter::contentYToScreen(scene, *view->layout().sampleStripTop(*lane));
    const QImage image = view->canvas()->grab().toImage();
    EXPECT_LT(qGray(image.pixel(column, strip + 2)), 140) << "the first sample's tick at the left edge";
    const QString tip = tooltipAt(QPoint(column, strip + 2));
    EXPECT_TRUE(tip.contains(QStringLiteral("at -40.6"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("\n_dl_relocate_object (/lib64/ld-2.31.so)"))) << tip.toStdString();
}

} // namespace
