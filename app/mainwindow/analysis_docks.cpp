// SPDX-License-Identifier: MIT
#include "app/mainwindow/analysis_docks.h"

#include "app/mainwindow/gaps_dock.h"
#include "app/mainwindow/kernels_dock.h"
#include "app/models/kernel_model.h"
#include "app/timeline/timeline_view.h"

#include <QDockWidget>
#include <QMainWindow>

namespace gapscope::app {

AnalysisDocks::AnalysisDocks(QMainWindow* window, timeline::TimelineView* view)
    : QObject(window)
    , m_gaps(new GapsDock(window))
    , m_gapsWidget(new QDockWidget(tr("Gaps"), window))
    , m_kernels(new KernelsDock(window))
    , m_kernelsWidget(new QDockWidget(tr("Kernels"), window))
{
    m_gapsWidget->setObjectName(QStringLiteral("gapsDock"));
    m_gapsWidget->setWidget(m_gaps);
    m_kernelsWidget->setObjectName(QStringLiteral("kernelsDock"));
    m_kernelsWidget->setWidget(m_kernels);

    connect(m_gaps, &GapsDock::gapActivated, this, &AnalysisDocks::gapActivated);
    connect(m_gaps, &GapsDock::thresholdChanged, view, &timeline::TimelineView::setGapThreshold);
    view->setGapThreshold(m_gaps->threshold());
    connect(m_kernels, &KernelsDock::kernelActivated, this, [this](const QString& name) {
        if (!m_trace)
            return;
        if (const auto longest = models::longestKernelNamed(*m_trace, name.toStdString()))
            emit kernelActivated(*longest);
    });
}

void AnalysisDocks::setAnalysis(const std::shared_ptr<const Trace>& trace, const timeline::AnalysisSnapshot& analysis)
{
    m_trace = trace;
    m_gaps->setData(trace, analysis);
    m_kernels->setResult(trace, analysis.result);
}

} // namespace gapscope::app
