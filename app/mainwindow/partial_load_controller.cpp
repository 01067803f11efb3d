// SPDX-License-Identifier: MIT
#include "app/mainwindow/partial_load_controller.h"

#include "app/timeline/timeline_state.h"
#include "core/io/memory_fit.h"

#include <QAction>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>

namespace gapscope::app {

PartialLoadController::PartialLoadController(QObject* parent, timeline::TimelineState* state)
    : QObject(parent)
    , m_state(state)
{ }

void PartialLoadController::addActions(QMenu* file)
{
    m_loadRange = file->addAction(tr("Load Selected Range with &All Lanes"), this, [this] {
        const auto range = m_state->selectedRange();
        if (!range || m_files.empty())
            return;
        ReadFilter filter;
        filter.from = range->first;
        filter.to = range->second;
        QStringList files;
        for (const std::string& path : m_files)
            files << QString::fromStdString(path);
        emit openRequested(files, filter);
    });
    m_loadRange->setToolTip(tr("This trace was loaded in part: read its files again, keeping every lane's "
                               "events that overlap the selected range (Shift+drag to select)"));
    connect(m_state, &timeline::TimelineState::selectionChanged, this, &PartialLoadController::updateControls);
    updateControls();
}

void PartialLoadController::loadRequested(const QStringList& files, const ReadFilter& filter)
{
    m_requestedFiles = files;
    m_requestedFilter = filter;
}

void PartialLoadController::comparisonRequested()
{
    m_requestedFiles.clear();
}

void PartialLoadController::setTrace(const timeline::LoadedTrace& loaded)
{
    m_files = loaded.files;
    m_loadedFilter = loaded.comparison ? ReadFilter {} : m_requestedFilter;
    updateControls();
}

void PartialLoadController::clearTrace()
{
    m_files.clear();
}

void PartialLoadController::updateControls()
{
    if (m_loadRange)
        m_loadRange->setEnabled(m_loadedFilter.active() && m_state->selectedRange().has_value());
}

void PartialLoadController::offerAfterFailure(QMessageBox* errorBox, const QString& message)
{
    const bool tooLarge = message.contains(
        QString::fromUtf8(kTooLargeForMemory.data(), static_cast<qsizetype>(kTooLargeForMemory.size())));
    if (!m_gpuOnly && tooLarge) {
        m_gpuOnly = errorBox->addButton(tr("Load GPU Lanes Only"), QMessageBox::AcceptRole);
        m_gpuOnly->setToolTip(tr("Kernels, copies, memsets and syncs only: busy, idle and the gaps are the "
                                 "whole trace's, without host evidence; then select a range and use "
                                 "File \u203a Load Selected Range with All Lanes"));
        connect(m_gpuOnly, &QAbstractButton::clicked, this, [this] {
            ReadFilter gpuOnly;
            gpuOnly.gpuOnly = true;
            emit openRequested(m_requestedFiles, gpuOnly);
        });
    }
    if (m_gpuOnly)
        m_gpuOnly->setVisible(tooLarge && !m_requestedFiles.isEmpty());
}

} // namespace gapscope::app
