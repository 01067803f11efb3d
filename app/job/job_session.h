// SPDX-License-Identifier: MIT
#pragma once

// The viewer's side of a job (several ranks): builds the JobData off the GUI thread from the analysed trace (or
// from `.summary.json` files), shows it in the Job overview above the lanes and in the Ranks dock, computes the
// overview's heatmap off the GUI thread at each zoom, and answers clicks: a rank brings its lanes into view, a
// collective selects its kernels on every rank and draws their arrival spread on the lanes.

#include "app/job/job_data.h"
#include "app/job/job_lane_overlay.h"
#include "app/job/job_overview.h"
#include "app/mainwindow/latest_job.h"
#include "app/timeline/timeline_data.h"

#include <QObject>
#include <QStringList>

class QDockWidget;
class QLabel;
class QMainWindow;

namespace gapscope::app {

class RanksDock;

class JobSession : public QObject {
    Q_OBJECT
public:
    JobSession(QMainWindow* window, timeline::TimelineView* view, timeline::TimelineState* state);

    /// The Job overview stacked above the timeline view: what the main window shows in the middle.
    QWidget* timelineArea() const { return m_area; }
    QDockWidget* ranksDockWidget() const { return m_ranksDockWidget; }
    RanksDock* ranksDock() const { return m_ranksDock; }
    timeline::JobOverview* overview() const { return m_overview; }
    timeline::JobLaneOverlay* laneOverlay() const { return m_overlay; }
    const std::shared_ptr<const timeline::JobData>& job() const { return m_job; }

    /// A new trace is on screen: the job of the previous one is dropped.
    void setTrace(const timeline::LoadedTrace& loaded);
    /// Its analysis (another window): with several processes, the job is rebuilt from it off the GUI thread.
    void setAnalysis(const timeline::AnalysisSnapshot& analysis);
    /// Opens rank summaries (`.summary.json`) as a job without lanes; jobShown() or failed() follows.
    void openSummaries(const QStringList& files);
    /// Whether every file is a summary file.
    static bool areSummaryFiles(const QStringList& files);

    /// Selects a matched collective: its kernels on every rank whose trace is open, and their arrival spread.
    void selectCollective(std::size_t collective);
    /// The selected collective's kernels (one per rank whose trace is open), in rank order.
    std::vector<EventRef> selectedKernels() const;
    /// Brings a rank's lanes (JobData row) into view; false when its trace is not open.
    bool revealRank(std::size_t row);

signals:
    /// A job (or none) is shown in the overview and the Ranks dock.
    void jobShown();
    /// Summaries could not be read; the message names the file.
    void failed(const QString& message);
    /// A line for the status bar.
    void message(const QString& text);
    /// The Details panel's text for a selected collective: its arrival, wait and end on each rank.
    void detailsChanged(const QString& html);

private:
    void showJob(std::shared_ptr<const timeline::JobData> job);
    void requestHeatmap();
    QString collectiveDetailsHtml(std::size_t collective) const;

    QMainWindow* m_window;
    timeline::TimelineView* m_view;
    timeline::TimelineState* m_state;
    QWidget* m_area;
    timeline::JobOverview* m_overview;
    timeline::JobLaneOverlay* m_overlay;
    QLabel* m_noLanes;
    RanksDock* m_ranksDock;
    QDockWidget* m_ranksDockWidget;
    timeline::LoadedTrace m_loaded;
    std::shared_ptr<const timeline::JobData> m_job;
    LatestJob m_build;
    LatestJob m_heatmap;
    bool m_heatmapQueued = false;
};

} // namespace gapscope::app
