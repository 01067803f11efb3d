// SPDX-License-Identifier: MIT
#pragma once

// File › Export Image… of the main window: the dialog, the last choice made in it (remembered across sessions),
// and drawing the picture of what is on screen (app/export/) on a worker thread with a busy cursor.

#include "app/export/export_image_dialog.h"
#include "app/timeline/timeline_data.h"

#include <QObject>

#include <optional>

class QMainWindow;

namespace gapscope::timeline {
class TimelineView;
} // namespace gapscope::timeline

namespace gapscope::app {

class AnnotationSession;
class DiffDock;

class ImageExportController : public QObject {
    Q_OBJECT
public:
    /// `diffDock`: a comparison's picture heads with the Diff dock's verdict and window lines.
    ImageExportController(QMainWindow* window, timeline::TimelineView* view, const AnnotationSession* annotations,
        const DiffDock* diffDock);

    /// What is on screen (the picture draws it with the notes, the view's range and collapsed groups).
    void setTrace(const timeline::LoadedTrace& loaded);
    void setAnalysis(const timeline::AnalysisSnapshot& analysis);

    /// Asks what, how big and where, then exportTo().
    void exportImage();
    /// Draws the picture on a worker thread; exported() follows. False (and a status-bar message) when the
    /// choice has nothing to draw.
    bool exportTo(const picture::ExportImageChoice& choice);
    /// The size, range and file the dialog starts from: the last export's; nullopt before the first.
    std::optional<picture::ExportImageChoice> lastChoice() const;

signals:
    /// An export finished: `error` is empty on success, else it names the file and the problem.
    void exported(const QString& path, const QString& error);

private:
    QMainWindow* m_window;
    timeline::TimelineView* m_view;
    const AnnotationSession* m_annotations;
    const DiffDock* m_diffDock;
    timeline::LoadedTrace m_loaded;
    timeline::AnalysisSnapshot m_analysis;
};

} // namespace gapscope::app
