// SPDX-License-Identifier: MIT
#include "app/mainwindow/load_status.h"

#include "app/compare/block_names.h"
#include "app/mainwindow/cut_short_banner.h"
#include "app/mainwindow/trace_loader.h"
#include "app/models/event_details.h"

#include <QLabel>
#include <QMainWindow>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

#include <algorithm>
#include <vector>

namespace gapscope::app {

LoadStatus::LoadStatus(QMainWindow* window, TraceLoader* loader, CutShortBanner* banner)
    : QObject(window)
    , m_window(window)
    , m_progressLabel(new QLabel(window))
    , m_progress(new QProgressBar(window))
    , m_cancel(new QPushButton(tr("Cancel"), window))
    , m_figures(new QLabel(window))
    , m_cutShort(banner)
{
    m_progress->setMaximumWidth(220);
    connect(m_cancel, &QPushButton::clicked, loader, &TraceLoader::cancelLoad);
    QStatusBar* bar = window->statusBar();
    bar->addPermanentWidget(m_figures);
    bar->addPermanentWidget(m_progressLabel);
    bar->addPermanentWidget(m_progress);
    bar->addPermanentWidget(m_cancel);
    setLoading(false);

    connect(loader, &TraceLoader::loadProgress, this, [this](quint64, int percent, const QString& text) {
        m_progress->setRange(0, 100);
        m_progress->setValue(percent);
        m_progressLabel->setText(text);
    });
    connect(loader, &TraceLoader::loadCanceled, this, [this] {
        setLoading(false);
        m_window->statusBar()->showMessage(tr("Loading canceled"), 5000);
    });
}

void LoadStatus::setLoading(bool loading)
{
    m_progress->setVisible(loading);
    m_cancel->setVisible(loading);
    m_progressLabel->setVisible(loading);
    if (loading) {
        m_progress->setRange(0, 0);
        m_progressLabel->setText(tr("Loading..."));
    }
}

void LoadStatus::showCutShort(const Trace* trace)
{
    m_cutShort->setTrace(trace);
}

void LoadStatus::showFigures(const timeline::LoadedTrace& loaded, const timeline::AnalysisSnapshot& analysis)
{
    if (!analysis.result || !loaded.trace) {
        m_figures->clear();
        return;
    }
    const AnalysisResult& result = *analysis.result;
    const ComparedTraces* compared = loaded.comparison.get();
    QStringList parts;
    const std::string_view kind = windowKindName(result.options.window.kind);
    parts << tr("window %1").arg(QString::fromUtf8(kind.data(), static_cast<qsizetype>(kind.size())));
    const std::vector<DeviceFigures> devices = devicesInBlockOrder(&result, compared);
    // The same figure, to the same digits, as Details, the utilization lane and `gapscope report`; for more than
    // two GPUs their range, so that the label leaves the status bar room for its messages (each GPU is in Details).
    if (devices.size() > 2) {
        const auto [low, high] = std::minmax_element(devices.begin(), devices.end(),
            [](const DeviceFigures& a, const DeviceFigures& b) { return a.utilization < b.utilization; });
        parts << tr("%1 GPUs: utilization %2 % to %3 % (each in Details)")
                     .arg(devices.size())
                     .arg(100.0 * low->utilization, 0, 'f', 2)
                     .arg(100.0 * high->utilization, 0, 'f', 2);
    } else {
        for (const DeviceFigures& d : devices) {
            parts << tr("%1: %2 busy of %3 (%4 %)")
                         .arg(blockDeviceName(*loaded.trace, compared, d), models::durationText(d.busyNs),
                             models::durationText(d.spanNs))
                         .arg(100.0 * d.utilization, 0, 'f', 2);
        }
    }
    if (!result.hasGpuActivity)
        parts << tr("no GPU activity in this trace");
    m_figures->setText(parts.join(QStringLiteral(" \u00b7 ")));
}

QMessageBox* LoadStatus::prepareError(const QString& message)
{
    setLoading(false);
    m_lastError = message;
    if (!m_errorBox) {
        // Non-modal: the viewer stays usable (and tests are not blocked) while the message is up.
        m_errorBox
            = new QMessageBox(QMessageBox::Warning, tr("Could not open the trace"), {}, QMessageBox::Ok, m_window);
        m_errorBox->setModal(false);
    }
    m_errorBox->setText(tr("Could not open the trace."));
    m_errorBox->setInformativeText(message);
    return m_errorBox;
}

} // namespace gapscope::app
