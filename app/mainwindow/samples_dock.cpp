// SPDX-License-Identifier: MIT
#include "app/mainwindow/samples_dock.h"

#include "app/models/event_details.h"
#include "app/timeline/timeline_state.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QTreeView>
#include <QVBoxLayout>

namespace gapscope::app {

SamplesDock::SamplesDock(QMainWindow* window, timeline::TimelineState* state)
    : QObject(window)
    , m_state(state)
    , m_model(new models::SampleTreeModel(this))
    , m_dockWidget(new QDockWidget(tr("CPU Samples"), window))
    , m_header(new QLabel)
    , m_tree(new QTreeView)
{
    m_dockWidget->setObjectName(QStringLiteral("samplesDock"));
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    m_header->setWordWrap(true);
    layout->addWidget(m_header);
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true); // the view then asks for the rows on screen only
    m_tree->setAlternatingRowColors(true);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(models::SampleTreeModel::FunctionColumn, QHeaderView::Stretch);
    layout->addWidget(m_tree, 1);
    m_dockWidget->setWidget(content);
    connect(m_state, &timeline::TimelineState::selectionChanged, this, &SamplesDock::showSelection);
    showSelection();
}

void SamplesDock::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    showSelection();
}

void SamplesDock::showSelection()
{
    const auto range = m_state->selectedRange();
    if (!m_trace || m_trace->samples().empty()) {
        m_model->clear();
        m_header->setText(m_trace ? tr("This trace has no CPU samples (Nsight Systems records them with "
                                       "--sample=process-tree, its default).")
                                  : QString());
        return;
    }
    if (!range) {
        m_model->clear();
        m_header->setText(tr("Select a range (Shift-drag, or drag on the ruler) to see the CPU samples in it, "
                             "callers first. Its Details list the same samples bottom-up."));
        return;
    }
    m_model->setRange(m_trace, range->first, range->second);
    const std::size_t count = m_model->sampleCount();
    const QString duration = models::durationText(range->second - range->first);
    m_header->setText(count == 1
            ? tr("1 CPU sample in the selected range (%1), callers first:").arg(duration)
            : tr("%1 CPU samples in the selected range (%2), callers first:").arg(count).arg(duration));
    // One sampled thread: its functions are what there is to read.
    if (m_model->rowCount() == 1)
        m_tree->expand(m_model->index(0, 0));
}

} // namespace gapscope::app
