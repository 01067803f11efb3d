// SPDX-License-Identifier: MIT
#include "app/compare/comparison_controller.h"

#include "app/compare/diff_dock.h"
#include "app/mainwindow/trace_loader.h"
#include "app/timeline/timeline_view.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolBar>

#include <algorithm>

namespace gapscope::app {

ComparisonController::ComparisonController(
    QMainWindow* window, timeline::TimelineView* view, TraceLoader* loader, std::function<AnalysisOptions()> options)
    : QObject(window)
    , m_window(window)
    , m_view(view)
    , m_loader(loader)
    , m_options(std::move(options))
    , m_dock(new DiffDock(window))
    , m_dockWidget(new QDockWidget(tr("Diff"), window))
{
    m_dockWidget->setObjectName(QStringLiteral("diffDock"));
    m_dockWidget->setWidget(m_dock);
    connect(m_dock, &DiffDock::kernelActivated, this, [this](const QString& name) { highlightKernel(name); });
    connect(m_dock, &DiffDock::deviceActivated, this, &ComparisonController::selectDevice);
}

void ComparisonController::addToToolBar(QToolBar* tools)
{
    m_alignStep = new QSpinBox(m_window);
    m_alignStep->setPrefix(tr("align on step "));
    m_alignStep->setSpecialValueText(tr("align on window start"));
    m_alignStep->setToolTip(tr("The counted step (warm-up excluded) at which the NEW block starts together with BASE"));
    connect(m_alignStep, &QSpinBox::valueChanged, this, [this](int value) {
        const auto* compared = m_loaded.comparison.get();
        const std::optional<std::size_t> step
            = value > 0 ? std::optional<std::size_t>(static_cast<std::size_t>(value - 1)) : std::nullopt;
        if (compared && step != compared->alignStep)
            alignOn(step);
    });
    m_alignAction = tools->addWidget(m_alignStep);
    m_alignAction->setVisible(false);
}

void ComparisonController::setTrace(const timeline::LoadedTrace& loaded)
{
    m_loaded = loaded;
    updateControls();
    startDiff();
    if (m_loaded.comparison)
        m_dockWidget->raise();
}

void ComparisonController::clearTrace()
{
    m_loaded = {};
}

quint64 ComparisonController::compareWith(const QStringList& newFiles)
{
    ComparisonRequest request;
    if (const auto& compared = m_loaded.comparison) {
        request.base = compared->base;
        request.baseFiles = compared->baseFiles;
        if (!compared->baseRuns.runFiles.empty())
            request.baseRuns = std::make_shared<const ComparedSideRuns>(compared->baseRuns);
    } else {
        request.base = m_loaded.trace;
        request.baseFiles = m_loaded.files;
        request.baseRuns = m_loaded.runs;
    }
    request.newFiles = newFiles;
    emit loadStarted(true);
    return m_loader->loadComparison(request, m_options());
}

quint64 ComparisonController::alignOn(std::optional<std::size_t> step)
{
    const auto& compared = m_loaded.comparison;
    if (!compared)
        return 0;
    ComparisonRequest request;
    request.base = compared->base;
    request.baseFiles = compared->baseFiles;
    if (!compared->baseRuns.runFiles.empty())
        request.baseRuns = std::make_shared<const ComparedSideRuns>(compared->baseRuns);
    request.fresh = compared->fresh;
    request.newRuns = compared->newRuns;
    for (const std::string& file : compared->newFiles)
        request.newFiles << QString::fromStdString(file);
    request.alignStep = step;
    emit loadStarted(false);
    return m_loader->loadComparison(request, m_options());
}

bool ComparisonController::realign()
{
    if (!m_loaded.comparison)
        return false;
    alignOn(m_loaded.comparison->alignStep);
    return true;
}

void ComparisonController::updateControls()
{
    const auto& compared = m_loaded.comparison;
    if (m_alignAction)
        m_alignAction->setVisible(compared != nullptr);
    if (!compared || !m_alignStep)
        return;
    const QSignalBlocker blocker(m_alignStep);
    const auto steps = static_cast<int>(std::min(compared->baseStepStarts.size(), compared->newStepStarts.size()));
    m_alignStep->setRange(0, steps);
    m_alignStep->setValue(compared->alignStep ? static_cast<int>(*compared->alignStep) + 1 : 0);
    m_alignStep->setEnabled(steps > 0);
}

void ComparisonController::startDiff()
{
    const auto compared = m_loaded.comparison;
    if (!compared) {
        m_diffJob.drop();
        m_dock->setDiff(nullptr, tr("Compare this trace with another run: File \u203a Compare With..."));
        return;
    }
    m_dock->setDiff(nullptr, tr("Computing the diff..."));
    const AnalysisOptions options = comparisonDiffOptions(m_options(), *compared->base);
    m_diffJob.run(
        this,
        [compared, options](std::stop_token stop) {
            return std::make_shared<const ComparisonDiff>(computeComparisonDiff(*compared, options, 10, stop));
        },
        [this](const std::shared_ptr<const ComparisonDiff>& diff) {
            if (diff->stopped)
                return;
            m_dock->setDiff(diff);
            emit diffShown();
        });
}

std::pair<std::size_t, std::size_t> ComparisonController::highlightKernel(const QString& name)
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
    m_window->statusBar()->showMessage(
        tr("%1: %2 in Base, %3 in New (outlined)").arg(name).arg(counts.first).arg(counts.second), 15000);
    return counts;
}

void ComparisonController::selectDevice(std::optional<int> rank, int deviceId, int newDeviceId)
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
        if (device.id == (newSide ? newDeviceId : deviceId) && rankMatches) {
            selected[d] = true;
            if (!first)
                first = DeviceIndex { d };
        }
    }
    m_view->setSelectedDevices(std::move(selected));
    if (first)
        m_view->revealDevice(*first);
}

} // namespace gapscope::app
