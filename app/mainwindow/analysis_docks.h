// SPDX-License-Identifier: MIT
#pragma once

// The docks that list what the analysis of the chosen window found: Gaps (with the gap threshold the timeline
// draws bands from) and Kernels. A row asks the window to show its gap or the longest occurrence of its kernel.

#include "app/timeline/timeline_data.h"

#include <QObject>

class QDockWidget;
class QMainWindow;

namespace gapscope::timeline {
class TimelineView;
} // namespace gapscope::timeline

namespace gapscope::app {

class GapsDock;
class KernelsDock;

class AnalysisDocks : public QObject {
    Q_OBJECT
public:
    AnalysisDocks(QMainWindow* window, timeline::TimelineView* view);

    GapsDock* gapsDock() const { return m_gaps; }
    KernelsDock* kernelsDock() const { return m_kernels; }
    QDockWidget* gapsDockWidget() const { return m_gapsWidget; }
    QDockWidget* kernelsDockWidget() const { return m_kernelsWidget; }

    /// The analysis shown and the trace it is of (null: none, the docks empty).
    void setAnalysis(const std::shared_ptr<const Trace>& trace, const timeline::AnalysisSnapshot& analysis);

signals:
    /// A row of the Gaps dock was activated: its AnalysisResult::gaps index.
    void gapActivated(std::size_t gap);
    /// A row of the Kernels dock was activated: the longest kernel of that name.
    void kernelActivated(gapscope::EventRef kernel);

private:
    // In creation order: the View menu lists the docks in the order they were made.
    GapsDock* m_gaps;
    QDockWidget* m_gapsWidget;
    KernelsDock* m_kernels;
    QDockWidget* m_kernelsWidget;
    std::shared_ptr<const Trace> m_trace;
};

} // namespace gapscope::app
