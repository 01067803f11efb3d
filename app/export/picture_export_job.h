// SPDX-License-Identifier: MIT
#pragma once

// The viewer's image export: draws the picture on the thread pool (a big trace takes a moment) while
// holding shared references to what it draws, and reports on the GUI thread.

#include "app/export/annotated_picture.h"
#include "app/export/export_image_dialog.h"
#include "app/timeline/timeline_data.h"

#include <QObject>

namespace gapscope::picture {

/// What the viewer shows now, shared so that drawing can go on while the user loads another trace.
struct ViewPictureSource {
    timeline::LoadedTrace loaded;
    timeline::AnalysisSnapshot analysis;
    std::vector<Annotation> annotations;
    /// The view's range and folded groups.
    std::pair<TimeNs, TimeNs> visible { 0, 1 };
    std::optional<std::pair<TimeNs, TimeNs>> selection;
    timeline::CollapseState collapse;
    TimeNs gapThreshold = 100'000;
    /// Zero of the ruler (the trace start).
    TimeNs origin = 0;
    QString traceName;
    /// A comparison's verdict line and its window, as the Diff dock shows them (empty otherwise).
    QStringList comparisonLines;
};

/// The request for a choice of the export dialog; nullopt when the choice has no range (no selection, or
/// an empty analysis window). Pointers in it point into `source`.
std::optional<PictureRequest> viewPictureRequest(const ViewPictureSource& source, const ExportImageChoice& choice);

/// Measures the notes of `source` that name an after trace against it (loading each: run it off the GUI thread)
/// into request.measurements and request.measurementErrors, as `gapscope export` does.
void measureViewNotes(const ViewPictureSource& source, PictureRequest& request);

class PictureExportJob : public QObject {
    Q_OBJECT
public:
    /// Starts measuring the notes (measureViewNotes()) and writing the picture of `choice` to choice.path; finished()
    /// follows on the GUI thread, then the job deletes itself. Returns null (and starts nothing) when the choice has no
    /// range.
    static PictureExportJob* start(
        std::shared_ptr<const ViewPictureSource> source, const ExportImageChoice& choice, QObject* parent);

signals:
    /// `error` is empty on success; otherwise it names the file and the problem.
    void finished(const QString& path, const QString& error);

private:
    explicit PictureExportJob(QObject* parent);
};

} // namespace gapscope::picture
