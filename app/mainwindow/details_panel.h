// SPDX-License-Identifier: MIT
#pragma once

// The Details dock of the main window: what the selection is (an event, a gap, a range measured off the GUI
// thread) or, with nothing selected, the summary of the trace on screen and its import notes. Links in it name
// events; a click asks the window to show one.

#include "app/timeline/timeline_data.h"

#include <QObject>

#include <functional>

class QDockWidget;
class QMainWindow;
class QTextBrowser;

namespace gapscope::timeline {
class TimelineState;
} // namespace gapscope::timeline

namespace gapscope::app {

class GapsDock;
class TraceLoader;

class DetailsPanel : public QObject {
    Q_OBJECT
public:
    /// `options`: the options of the viewer's analyses now (WindowSelector::analysisOptions()); `gaps`: the Gaps
    /// dock, whose threshold the summary counts the gaps against.
    DetailsPanel(QMainWindow* window, timeline::TimelineState* state, TraceLoader* loader,
        std::function<AnalysisOptions()> options, const GapsDock* gaps);

    QTextBrowser* browser() const { return m_browser; }
    QDockWidget* dockWidget() const { return m_dockWidget; }

    /// A new trace is on screen: the previous one's range figures are forgotten.
    void setTrace(const timeline::LoadedTrace& loaded);
    /// The analysis shown; refresh() then shows what it says about the selection.
    void setAnalysis(const timeline::AnalysisSnapshot& analysis);
    /// Shows the selection: an event, a gap, a range (measured off the GUI thread first), else the summary.
    void refresh();
    /// The trace's files, devices and figures over the chosen window, and its import notes.
    void showSummary();
    /// Shows text another part made (a collective's arrivals) and brings the dock to the front.
    void showHtml(const QString& html);

signals:
    /// An event's link was clicked.
    void eventLinkActivated(gapscope::EventRef event);

private:
    timeline::TimelineState* m_state;
    TraceLoader* m_loader;
    std::function<AnalysisOptions()> m_options;
    const GapsDock* m_gaps;
    QTextBrowser* m_browser;
    QDockWidget* m_dockWidget;
    timeline::LoadedTrace m_loaded;
    timeline::AnalysisSnapshot m_analysis;
    timeline::AnalysisSnapshot m_rangeAnalysis;
};

} // namespace gapscope::app
