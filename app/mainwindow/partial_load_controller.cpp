// SPDX-License-Identifier: MIT
// Partial loads in the viewer (docs/hardening.md "Traces larger than memory"): a trace refused for lack of memory
// can be opened with its GPU lanes only, and from there any selected range reloaded with every lane.
#include "app/mainwindow/main_window.h"
#include "app/timeline/timeline_state.h"
#include "core/io/memory_fit.h"

#include <QAction>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

namespace gapscope::app {

void MainWindow::createPartialLoadActions(QMenu* file)
{
    m_loadRangeAction = file->addAction(tr("Load Selected Range with &All Lanes"), this, [this] {
        const auto range = m_state->selectedRange();
        if (!range || m_loaded.files.empty())
            return;
        ReadFilter filter;
        filter.from = range->first;
        filter.to = range->second;
        QStringList files;
        for (const std::string& path : m_loaded.files)
            files << QString::fromStdString(path);
        openFiles(files, filter);
    });
    m_loadRangeAction->setToolTip(tr("This trace was loaded in part: read its files again, keeping every lane's "
                                     "events that overlap the selected range (Shift+drag to select)"));
    connect(m_state, &timeline::TimelineState::selectionChanged, this, &MainWindow::updatePartialLoadControls);
    updatePartialLoadControls();
}

void MainWindow::updatePartialLoadControls()
{
    if (m_loadRangeAction)
        m_loadRangeAction->setEnabled(m_loadedFilter.active() && m_state->selectedRange().has_value());
}

void MainWindow::offerPartialLoad(const QString& message)
{
    const bool tooLarge = message.contains(
        QString::fromUtf8(kTooLargeForMemory.data(), static_cast<qsizetype>(kTooLargeForMemory.size())));
    if (!m_gpuOnlyButton && tooLarge) {
        m_gpuOnlyButton = m_errorBox->addButton(tr("Load GPU Lanes Only"), QMessageBox::AcceptRole);
        m_gpuOnlyButton->setToolTip(tr("Kernels, copies, memsets and syncs only: busy, idle and the gaps are the "
                                       "whole trace's, without host evidence; then select a range and use "
                                       "File \u203a Load Selected Range with All Lanes"));
        connect(m_gpuOnlyButton, &QAbstractButton::clicked, this, [this] {
            ReadFilter gpuOnly;
            gpuOnly.gpuOnly = true;
            openFiles(m_pendingFiles, gpuOnly);
        });
    }
    if (m_gpuOnlyButton)
        m_gpuOnlyButton->setVisible(tooLarge && !m_pendingFiles.isEmpty());
}

} // namespace gapscope::app
