// SPDX-License-Identifier: MIT
// The comparison part of the main window (File › Compare With…): loading NEW under BASE, the alignment, the Diff
// dock's job, and what its rows select on the timeline. docs/comparing-in-the-viewer.md.
#include "app/compare/diff_dock.h"
#include "app/mainwindow/main_window.h"
#include "app/models/event_details.h"
#include "app/timeline/timeline_view.h"

#include <QAction>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStatusBar>

#include <algorithm>

namespace gapscope::app {

quint64 MainWindow::compareWith(const QStringList& newFiles)
{
    ComparisonRequest request;
    if (const auto& compared = m_loaded.comparison) {
        request.base = compared->base;
        request.baseFiles = compared->baseFiles;
    } else {
        request.base = m_loaded.trace;
        request.baseFiles = m_loaded.files;
    }
    request.newFiles = newFiles;
    m_pendingFiles.clear();
    setLoadingUi(true);
    return m_loader->loadComparison(request, analysisOptions());
}

quint64 MainWindow::alignComparisonOn(std::optional<std::size_t> step)
{
    const auto& compared = m_loaded.comparison;
    if (!compared)
        return 0;
    ComparisonRequest request;
    request.base = compared->base;
    request.baseFiles = compared->baseFiles;
    request.fresh = compared->fresh;
    for (const std::string& file : compared->newFiles)
        request.newFiles << QString::fromStdString(file);
    request.alignStep = step;
    setLoadingUi(true);
    return m_loader->loadComparison(request, analysisOptions());
}

void MainWindow::updateComparisonControls()
{
    const auto& compared = m_loaded.comparison;
    m_alignAction->setVisible(compared != nullptr);
    if (!compared)
        return;
    const QSignalBlocker blocker(m_alignStep);
    const auto steps = static_cast<int>(std::min(compared->baseStepStarts.size(), compared->newStepStarts.size()));
    m_alignStep->setRange(0, steps);
    m_alignStep->setValue(compared->alignStep ? static_cast<int>(*compared->alignStep) + 1 : 0);
    m_alignStep->setEnabled(steps > 0);
}

void MainWindow::startDiff()
{
    const auto compared = m_loaded.comparison;
    if (!compared) {
        m_diffJob.drop();
        m_diffDock->setDiff(nullptr, tr("Compare this trace with another run: File \u203a Compare With..."));
        return;
    }
    m_diffDock->setDiff(nullptr, tr("Computing the diff..."));
    const AnalysisOptions options = comparisonDiffOptions(analysisOptions());
    m_diffJob.run(
        this,
        [compared, options](std::stop_token stop) {
            return std::make_shared<const ComparisonDiff>(computeComparisonDiff(*compared, options, 10, stop));
        },
        [this](const std::shared_ptr<const ComparisonDiff>& diff) {
            if (diff->stopped)
                return;
            m_diffDock->setDiff(diff);
            emit diffShown();
        });
}

std::pair<std::size_t, std::size_t> MainWindow::highlightKernel(const QString& name)
{
    const auto& compared = m_loaded.comparison;
    if (!compared || !m_loaded.trace)
        return {};
    const Trace& trace = *m_loaded.trace;
    const std::string key = name.toStdString();
    std::vector<bool> names(trace.strings().size());
    if (const auto id = trace.strings().find(key))
        names[id->value] = true;
    m_view->setHighlightedNames(std::move(names));
    const auto processes = static_cast<std::uint32_t>(trace.processes().size());
    const std::pair<std::size_t, std::size_t> counts { kernelOccurrences(trace, key, 0, compared->newFirstProcess),
        kernelOccurrences(trace, key, compared->newFirstProcess, processes) };
    statusBar()->showMessage(
        tr("%1: %2 in Base, %3 in New (outlined)").arg(name).arg(counts.first).arg(counts.second), 15000);
    return counts;
}

void MainWindow::selectComparedDevice(std::optional<int> rank, int deviceId)
{
    const auto& compared = m_loaded.comparison;
    if (!compared || !m_loaded.trace)
        return;
    const Trace& trace = *m_loaded.trace;
    std::vector<bool> selected(trace.devices().size());
    std::optional<DeviceIndex> first;
    for (std::uint32_t d = 0; d < trace.devices().size(); ++d) {
        const Device& device = trace.devices()[d];
        // A side of one process matches the other's one process whatever their ranks (as compareRuns() does).
        const bool newSide = device.process.value >= compared->newFirstProcess;
        const Trace& side = newSide ? *compared->fresh : *compared->base;
        const bool rankMatches = side.processes().size() == 1 || trace.processes()[device.process.value].rank == rank;
        if (device.id == deviceId && rankMatches) {
            selected[d] = true;
            if (!first)
                first = DeviceIndex { d };
        }
    }
    m_view->setSelectedDevices(std::move(selected));
    if (first)
        m_view->revealDevice(*first);
}

std::vector<DeviceFigures> MainWindow::devicesInBlockOrder() const
{
    std::vector<DeviceFigures> devices = m_analysis.result ? m_analysis.result->devices : std::vector<DeviceFigures> {};
    // A comparison lists BASE's devices first (rank order would sort the two runs' processes by pid).
    if (const auto& compared = m_loaded.comparison)
        std::stable_sort(devices.begin(), devices.end(), [&](const DeviceFigures& a, const DeviceFigures& b) {
            return (a.process.value < compared->newFirstProcess) > (b.process.value < compared->newFirstProcess);
        });
    return devices;
}

QString MainWindow::blockDeviceName(const DeviceFigures& d) const
{
    const QString name = models::deviceName(*m_loaded.trace, d.device);
    if (const auto& compared = m_loaded.comparison)
        return (d.process.value < compared->newFirstProcess ? tr("Base %1") : tr("New %1")).arg(name);
    return name;
}

} // namespace gapscope::app
