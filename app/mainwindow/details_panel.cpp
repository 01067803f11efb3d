// SPDX-License-Identifier: MIT
// The Details panel of the main window: a gap, an event, the selection, or the summary of the trace and its
// import notes.
#include "app/mainwindow/main_window.h"

#include "app/annotations/annotation_controller.h"
#include "app/annotations/annotation_session.h"
#include "app/annotations/annotations_dock.h"
#include "app/compare/diff_dock.h"
#include "app/export/picture_export_job.h"
#include "app/job/job_session.h"
#include "app/mainwindow/gaps_dock.h"
#include "app/mainwindow/kernels_dock.h"
#include "app/mainwindow/search_bar.h"
#include "app/mainwindow/window_selector.h"
#include "app/models/event_details.h"
#include "app/record/record_dialog.h"
#include "app/timeline/timeline_view.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>

namespace gapscope::app {

void MainWindow::showGap(std::size_t gap)
{
    if (!m_analysis.result || gap >= m_analysis.result->gaps.size())
        return;
    const Gap& g = m_analysis.result->gaps[gap];
    m_state->selectGap(gap);
    m_view->revealDevice(g.device);
    m_view->revealFlow();
    // Context on both sides: the gap takes two thirds of the view.
    m_view->zoomToRange(g.start, g.end, 0.25);
}

void MainWindow::showTraceEvent(EventRef event, bool zoom)
{
    if (!m_loaded.trace)
        return;
    m_state->selectEvent(event);
    m_view->revealLane(event.lane);
    const Event& e = m_loaded.trace->event(event);
    const auto [start, end] = m_state->visibleRange();
    if (zoom)
        m_view->zoomToRange(e.start, e.end, 1.0);
    else if (e.end < start || e.start > end)
        m_view->zoomToRange(e.start, e.end, static_cast<double>(end - start) / std::max<TimeNs>(1, 2 * e.duration()));
}

void MainWindow::onSelectionChanged()
{
    if (!m_loaded.trace) {
        showSummary();
        return;
    }
    const TimeNs origin = m_state->bounds().first;
    m_gapsDock->showGap(m_state->selectedGap());
    if (const auto event = m_state->selectedEvent()) {
        m_details->setHtml(models::eventDetailsHtml(*m_loaded.trace, *event, origin));
    } else if (const auto gap = m_state->selectedGap(); gap && m_analysis.result) {
        m_details->setHtml(models::gapDetailsHtml(*m_loaded.trace, *m_analysis.result, *gap, origin));
    } else if (const auto range = m_state->selectedRange()) {
        const auto& r = m_rangeAnalysis.result;
        const bool current = r && r->options.window.kind == WindowKind::Explicit
            && r->options.window.explicitStart == range->first && r->options.window.explicitEnd == range->second;
        if (current) {
            m_details->setHtml(models::rangeDetailsHtml(*m_loaded.trace, *r, *range, origin));
        } else {
            m_details->setHtml(tr("<p>Measuring the range...</p>"));
            AnalysisOptions options = analysisOptions();
            options.window = WindowSpec { WindowKind::Explicit, 0, range->first, range->second };
            m_loader->analyze(m_loaded.trace, m_loaded.laneSummaries, options, AnalysisPurpose::Range);
        }
    } else {
        showSummary();
    }
}

void MainWindow::showSummary()
{
    if (!m_loaded.trace) {
        m_details->setHtml(tr("<h3>GapScope</h3><p>Open a trace with File \u203a Open, drop files on the window, or "
                              "try File \u203a Open Demo Trace.</p><p>Several files open side by side, one process "
                              "group (rank) each.</p>"));
        return;
    }
    const Trace& trace = *m_loaded.trace;
    QString html = tr("<h3 style='margin:0'>Trace</h3><p>");
    for (const std::string& file : m_loaded.files)
        html += QString::fromStdString(file).toHtmlEscaped() + QStringLiteral("<br>");
    if (const auto& compared = m_loaded.comparison) {
        html += tr("compared with (New, under it):<br>");
        for (const std::string& file : compared->newFiles)
            html += QString::fromStdString(file).toHtmlEscaped() + QStringLiteral("<br>");
    }
    html += tr("%1 processes, %2 GPUs, %3 lanes, %4 events</p>")
                .arg(trace.processes().size())
                .arg(trace.devices().size())
                .arg(trace.lanes().size())
                .arg(trace.eventCount());
    if (m_analysis.result) {
        for (const DeviceFigures& d : devicesInBlockOrder())
            html += tr("<p>%1: utilization <b>%2 %</b> over the %3 window (%4); %5 gaps, idle %6.</p>")
                        .arg(blockDeviceName(d))
                        .arg(100.0 * d.utilization, 0, 'f', 2)
                        .arg(QString::fromStdString(std::string(windowKindName(d.window.kind))))
                        .arg(models::durationText(d.spanNs))
                        .arg(d.gapCount)
                        .arg(models::durationText(d.idleNs));
        if (m_analysis.result->hasGpuActivity)
            html += tr("<p>Click a gap band, or a row of the Gaps dock, to read why the GPU was idle. Drag with "
                       "Shift (or on the ruler) to measure a range.</p>");
        else
            html += tr("<p>No GPU activity in this trace: there are no GPU figures or gaps to show.</p>");
        for (const std::string& w : m_analysis.result->warnings)
            html += QStringLiteral("<p style='color:#a00'>%1</p>").arg(QString::fromStdString(w).toHtmlEscaped());
    }
    if (!trace.warnings().empty()) {
        // Red only when events were lost; otherwise the readers' notes (the nsys version, absent tables...).
        if (trace.skippedEvents() > 0)
            html += tr("<p style='color:#a00'>%n event(s) skipped while loading:</p><ul>", nullptr,
                static_cast<int>(trace.skippedEvents()));
        else
            html += tr("<p>Notes from loading (no event skipped):</p><ul>");
        for (std::size_t i = 0; i < trace.warnings().size() && i < 20; ++i) {
            const ImportWarning& w = trace.warnings()[i];
            html += QStringLiteral("<li>%1</li>").arg(QString::fromStdString(w.toString()).toHtmlEscaped());
        }
        html += QStringLiteral("</ul>");
    }
    m_details->setHtml(html);
}

} // namespace gapscope::app
