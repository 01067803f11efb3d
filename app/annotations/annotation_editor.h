// SPDX-License-Identifier: MIT
#pragma once

// The note editor: title, status, colour and the seven fields of the optimization record of one
// note, and the figures measured over its range (read-only, computed off the GUI thread each time the
// note or its range is shown). Text edits become one undo command per field edit, made when the field
// loses focus or after a short pause in typing, never one per keystroke.

#include "app/mainwindow/latest_job.h"
#include "core/analysis/analysis.h"
#include "core/annotations/annotation_figures.h"

#include <QWidget>

#include <array>
#include <memory>
#include <set>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTextBrowser;
class QTimer;

namespace gapscope::app {

class AnnotationController;
class NoteMeasurePanel;

class AnnotationEditor : public QWidget {
    Q_OBJECT
public:
    /// The text fields, in the order they are shown.
    enum Field {
        TitleField,
        ProblemField,
        BaselineField,
        HypothesisField,
        ChangeField,
        CorrectnessCheckField,
        PerformanceChangeField,
        SideEffectsField,
        FieldCount
    };

    explicit AnnotationEditor(AnnotationController* controller, QWidget* parent = nullptr);
    ~AnnotationEditor() override;

    /// The trace the figures are measured on and the analysis options (activity set, launch threshold,
    /// step pattern) they use; the window is always the note's range.
    void setTrace(std::shared_ptr<const Trace> trace, const AnalysisOptions& options, TimeNs origin);
    /// The note shown ("" for none).
    QString annotationId() const { return m_id; }
    /// Turns the edits not yet committed into undo commands now (one per field).
    void commitPending();
    /// Puts the keyboard focus on the title, selected, for a note just created.
    void focusTitle();

    /// The figures of the note shown, once measured (for tests).
    const std::optional<AnnotationFigures>& figures() const { return m_figures; }

    QLineEdit* titleEdit() const { return m_title; }
    QComboBox* statusCombo() const { return m_status; }
    QComboBox* colourCombo() const { return m_colour; }
    /// The text edit of a record field (not TitleField).
    QPlainTextEdit* fieldEdit(Field field) const { return m_fields[static_cast<std::size_t>(field)]; }
    QTextBrowser* figuresView() const { return m_figuresView; }
    /// "Measure against…", the proposed status and "Accept proposed status".
    NoteMeasurePanel* measurePanel() const { return m_measurePanel; }

    /// The label of a field ("Hypothesis").
    static QString fieldLabel(Field field);
    /// Milliseconds of no typing after which an edit is committed.
    static constexpr int kCommitDelayMs = 1200;

signals:
    /// New figures are shown.
    void figuresShown();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showAnnotation(const QString& id);
    void reload();
    void fieldEdited(Field field);
    void commitField(Field field);
    QString widgetText(Field field) const;
    void measure();
    void showFigures();
    void setColourChoice(const QString& colour);

    AnnotationController* m_controller;
    QString m_id;
    std::shared_ptr<const Trace> m_trace;
    AnalysisOptions m_options;
    TimeNs m_origin = 0;

    QLabel* m_heading;
    QLineEdit* m_title;
    QComboBox* m_status;
    QComboBox* m_colour;
    QLabel* m_range;
    std::array<QPlainTextEdit*, FieldCount> m_fields {};
    QTextBrowser* m_figuresView;
    NoteMeasurePanel* m_measurePanel;
    QWidget* m_form;
    QTimer* m_commitTimer;
    std::set<Field> m_dirty;
    bool m_loading = false;

    // Figures: the range they were measured for, and the measurement in flight (the latest wins).
    std::optional<AnnotationFigures> m_figures;
    std::pair<TimeNs, TimeNs> m_measuredRange { 0, 0 };
    QString m_measuredId;
    LatestJob m_measuring;
};

} // namespace gapscope::app
