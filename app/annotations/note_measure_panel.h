// SPDX-License-Identifier: MIT
#pragma once

// The part of the Note panel that settles a hypothesis: "Measure against…" names the note's after trace (the run
// with the change), measures the note against it off the GUI thread (core/annotations/note_measurement.h, as
// `gapscope diff --note ID` does), writes the performance change and the after trace into the note (undoable,
// saved at once) and shows the proposed status. Only "Accept proposed status" changes the status.

#include "app/mainwindow/latest_job.h"
#include "core/annotations/note_measurement.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QPushButton;

namespace gapscope::app {

class AnnotationController;

class NoteMeasurePanel : public QWidget {
    Q_OBJECT
public:
    explicit NoteMeasurePanel(AnnotationController* controller, QWidget* parent = nullptr);

    /// The trace the notes are on (BASE, as read) and the viewer's analysis options.
    void setTrace(std::shared_ptr<const Trace> before, const AnalysisOptions& options);
    /// The NEW trace of the comparison on screen ("" for none): what Measure against… offers first.
    void setComparedTrace(const QString& newTrace) { m_comparedTrace = newTrace; }
    /// Where Measure against…'s file dialog opens: the NEW trace being compared, chosen already, else the folder
    /// of the note's trace (where the runs of an experiment usually lie).
    QString dialogStart() const;
    /// The note shown ("" for none).
    void setAnnotation(const QString& id);
    /// Reads `afterPath` and measures the note shown against it (off the GUI thread); measured() or
    /// measureFailed() follows. What the "Measure against…" button does after its file dialog.
    void measureAgainst(const QString& afterPath);
    /// Sets the note's status to the proposed one (undoable): what "Accept proposed status" does.
    void acceptProposedStatus();

    /// The last measurement of the note shown, if any.
    const std::optional<NoteMeasurement>& measurement() const { return m_measurement; }
    QPushButton* measureButton() const { return m_measure; }
    QPushButton* acceptButton() const { return m_accept; }
    QLabel* resultLabel() const { return m_result; }

signals:
    void measured();
    void measureFailed(const QString& message);

private:
    void updateView();
    /// The trace file the note is kept with (its sidecar's trace).
    QString noteTracePath(const QString& id) const;

    AnnotationController* m_controller;
    std::shared_ptr<const Trace> m_before;
    AnalysisOptions m_options;
    QString m_id;
    QString m_comparedTrace;
    std::optional<NoteMeasurement> m_measurement;
    QString m_measuredId;
    QPushButton* m_measure;
    QPushButton* m_accept;
    QLabel* m_result;
    LatestJob m_job;
};

} // namespace gapscope::app
