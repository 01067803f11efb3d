// SPDX-License-Identifier: MIT
#include "app/mainwindow/details_panel.h"

#include "app/compare/block_names.h"
#include "app/mainwindow/gaps_dock.h"
#include "app/mainwindow/trace_loader.h"
#include "app/models/event_details.h"
#include "app/timeline/timeline_state.h"
#include "core/io/common/cut_short.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QTextBrowser>
#include <QUrl>

namespace gapscope::app {

DetailsPanel::DetailsPanel(QMainWindow* window, timeline::TimelineState* state, TraceLoader* loader,
    std::function<AnalysisOptions()> options, const GapsDock* gaps)
    : QObject(window)
    , m_state(state)
    , m_loader(loader)
    , m_options(std::move(options))
    , m_gaps(gaps)
    , m_browser(new QTextBrowser(window))
    , m_dockWidget(new QDockWidget(tr("Details"), window))
{
    m_browser->setOpenLinks(false);
    m_dockWidget->setObjectName(QStringLiteral("detailsDock"));
    m_dockWidget->setWidget(m_browser);
    connect(m_browser, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (!m_loaded.trace)
            return;
        if (const auto ref = models::eventFromLink(url.toString(), *m_loaded.trace))
            emit eventLinkActivated(*ref);
    });
    connect(m_loader, &TraceLoader::analysisFinished, this,
        [this](quint64, AnalysisPurpose purpose, const timeline::AnalysisSnapshot& analysis) {
            if (purpose != AnalysisPurpose::Range)
                return;
            m_rangeAnalysis = analysis;
            refresh();
        });
    // The summary counts the gaps at least as long as the Gaps dock's threshold.
    connect(m_gaps, &GapsDock::thresholdChanged, this, &DetailsPanel::refresh);
}

void DetailsPanel::setTrace(const timeline::LoadedTrace& loaded)
{
    m_loaded = loaded;
    m_analysis = {};
    m_rangeAnalysis = {};
}

void DetailsPanel::setAnalysis(const timeline::AnalysisSnapshot& analysis)
{
    m_analysis = analysis;
}

void DetailsPanel::showHtml(const QString& html)
{
    m_browser->setHtml(html);
    m_dockWidget->raise();
}

void DetailsPanel::refresh()
{
    if (!m_loaded.trace) {
        showSummary();
        return;
    }
    const TimeNs origin = m_state->origin();
    if (const auto event = m_state->selectedEvent()) {
        m_browser->setHtml(models::eventDetailsHtml(*m_loaded.trace, *event, origin));
    } else if (const auto gap = m_state->selectedGap(); gap && m_analysis.result) {
        m_browser->setHtml(models::gapDetailsHtml(*m_loaded.trace, *m_analysis.result, *gap, origin));
    } else if (const auto range = m_state->selectedRange()) {
        const auto& r = m_rangeAnalysis.result;
        const bool current = r && r->options.window.kind == WindowKind::Explicit
            && r->options.window.explicitStart == range->first && r->options.window.explicitEnd == range->second;
        if (current) {
            m_browser->setHtml(models::rangeDetailsHtml(*m_loaded.trace, *r, *range, origin));
        } else {
            m_browser->setHtml(tr("<p>Measuring the range...</p>"));
            AnalysisOptions options = m_options();
            options.window = WindowSpec { WindowKind::Explicit, 0, range->first, range->second };
            m_loader->analyze(m_loaded.trace, m_loaded.laneSummaries, options, AnalysisPurpose::Range);
        }
    } else {
        showSummary();
    }
}

void DetailsPanel::showSummary()
{
    if (!m_loaded.trace) {
        m_browser->setHtml(tr("<h3>GapScope</h3><p>Open a trace with File \u203a Open, drop files on the window, or "
                              "try File \u203a Open Demo Trace.</p><p>Several files open side by side, one process "
                              "group (rank) each.</p>"));
        return;
    }
    const Trace& trace = *m_loaded.trace;
    const ComparedTraces* compared = m_loaded.comparison.get();
    QString html = tr("<h3 style='margin:0'>Trace</h3><p>");
    for (const std::string& file : m_loaded.files)
        html += QString::fromStdString(file).toHtmlEscaped() + QStringLiteral("<br>");
    if (compared) {
        html += tr("compared with (New, under it):<br>");
        for (const std::string& file : compared->newFiles)
            html += QString::fromStdString(file).toHtmlEscaped() + QStringLiteral("<br>");
    }
    html += tr("%1 processes, %2 GPUs, %3 lanes, %4 events</p>")
                .arg(trace.processes().size())
                .arg(trace.devices().size())
                .arg(trace.lanes().size())
                .arg(trace.eventCount());
    if (const AnalysisResult* result = m_analysis.result.get()) {
        const TimeNs listed = m_gaps->threshold();
        for (const DeviceFigures& d : devicesInBlockOrder(result, compared)) {
            std::size_t atLeast = 0;
            for (const Gap& gap : result->gaps)
                atLeast += !gap.stream && gap.device == d.device && gap.duration() >= listed ? 1 : 0;
            html += tr("<p>%1: utilization <b>%2 %</b> over the %3 window (%4); %5 gaps (%6 of them \u2265 %7, "
                       "listed in the Gaps dock), idle %8.</p>")
                        .arg(blockDeviceName(trace, compared, d))
                        .arg(100.0 * d.utilization, 0, 'f', 2)
                        .arg(QString::fromStdString(std::string(windowKindName(d.window.kind))))
                        .arg(models::durationText(d.spanNs))
                        .arg(d.gapCount)
                        .arg(atLeast)
                        .arg(models::durationText(listed))
                        .arg(models::durationText(d.idleNs));
        }
        if (result->hasGpuActivity)
            html += tr("<p>Click a gap band, or a row of the Gaps dock, to read why the GPU was idle. Drag with "
                       "Shift (or on the ruler) to measure a range.</p>");
        else
            html += tr("<p>No GPU activity in this trace: there are no GPU figures or gaps to show.</p>");
        for (const std::string& w : result->warnings)
            html += QStringLiteral("<p style='color:#a00'>%1</p>").arg(QString::fromStdString(w).toHtmlEscaped());
    }
    if (!trace.warnings().empty()) {
        // Red only when events were lost; otherwise the readers' notes (the nsys version, absent tables...).
        for (const CutShortFile& cut : cutShortFiles(trace))
            html += QStringLiteral("<p style='color:#a00'><b>%1</b></p>")
                        .arg(QString::fromStdString(cutShortLine(cut)).toHtmlEscaped());
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
    m_browser->setHtml(html);
}

} // namespace gapscope::app
