// SPDX-License-Identifier: MIT
#include "app/annotations/note_measure_panel.h"
#include "app/models/string_view_text.h"

#include "app/annotations/annotation_controller.h"
#include "core/io/trace_file.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <filesystem>
#include <variant>

namespace gapscope::app {

namespace {

using models::fromView;

/// The after trace as the sidecar keeps it: relative to the BASE trace's folder (as `gapscope diff --note` writes
/// it), so that the two files can move together.
std::string relativeToTrace(const QString& after, const QString& tracePath)
{
    namespace fs = std::filesystem;
    std::error_code error;
    const fs::path folder = fs::absolute(tracePath.toStdString(), error).parent_path();
    const fs::path relative = fs::proximate(fs::absolute(after.toStdString(), error), folder, error);
    return error ? after.toStdString() : relative.string();
}

} // namespace

NoteMeasurePanel::NoteMeasurePanel(AnnotationController* controller, QWidget* parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_measure(new QPushButton(tr("Measure against..."), this))
    , m_accept(new QPushButton(tr("Accept proposed status"), this))
    , m_result(new QLabel(this))
{
    m_measure->setToolTip(tr("Choose the trace of the run with the change (the after trace): the note's performance "
                             "change is measured against it, as gapscope diff --note does"));
    m_accept->setToolTip(tr("Set the note's status to the one the measurement proposes"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(m_measure);
    buttons->addWidget(m_accept);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(m_result);
    connect(m_measure, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Measure the note against (after trace)"),
            dialogStart(), tr("Traces (*.json *.json.gz *.gz *.gapscope *.sqlite *.nsys-rep *.qdrep);;All files (*)"));
        if (!file.isEmpty())
            measureAgainst(file);
    });
    connect(m_accept, &QPushButton::clicked, this, &NoteMeasurePanel::acceptProposedStatus);
    connect(m_controller, &AnnotationController::annotationsChanged, this, &NoteMeasurePanel::updateView);
    updateView();
}

void NoteMeasurePanel::setTrace(std::shared_ptr<const Trace> before, const AnalysisOptions& options)
{
    if (before != m_before) {
        m_job.drop();
        m_measurement.reset();
        m_measuredId.clear();
    }
    m_before = std::move(before);
    m_options = options;
    m_options.stop = {};
    updateView();
}

void NoteMeasurePanel::setAnnotation(const QString& id)
{
    if (id == m_id)
        return;
    m_id = id;
    m_job.drop();
    updateView();
}

void NoteMeasurePanel::measureAgainst(const QString& afterPath)
{
    const Annotation* note = m_controller->find(m_id);
    if (!note || !m_before) {
        emit measureFailed(tr("No note to measure"));
        return;
    }
    using Outcome = std::variant<NoteMeasurement, QString>;
    const QString id = m_id;
    const std::string after = afterPath.toStdString();
    m_result->setText(tr("Measuring against %1...").arg(QFileInfo(afterPath).fileName()));
    m_job.run(
        this,
        [before = m_before, note = *note, options = m_options, after](std::stop_token stop) -> Outcome {
            auto loaded = loadTraceFile(after, stop);
            if (stop.stop_requested())
                return QStringLiteral("canceled");
            if (!loaded)
                return QString::fromStdString(loaded.error().toString());
            return measureNoteAgainst(*before, loaded.value(), note, noteComparisonOptions(*before, options));
        },
        [this, id, afterPath](const Outcome& outcome) {
            if (const auto* problem = std::get_if<QString>(&outcome)) {
                m_result->setText(tr("Could not measure: %1").arg(*problem));
                emit measureFailed(*problem);
                return;
            }
            const Annotation* current = m_controller->find(id);
            if (!current)
                return;
            m_measurement = std::get<NoteMeasurement>(outcome);
            m_measuredId = id;
            Annotation next = *current;
            applyNoteMeasurement(next, *m_measurement, relativeToTrace(afterPath, noteTracePath(id)));
            m_controller->edit(next, tr("Measure against %1").arg(QFileInfo(afterPath).fileName()));
            updateView();
            emit measured();
        });
}

QString NoteMeasurePanel::dialogStart() const
{
    if (!m_comparedTrace.isEmpty())
        return QFileInfo(m_comparedTrace).absoluteFilePath();
    return QFileInfo(noteTracePath(m_id)).absolutePath();
}

QString NoteMeasurePanel::noteTracePath(const QString& id) const
{
    // With the ranks of a job open, each note is kept with the file of its lanes: relative to that file's folder.
    if (const NotesByFile* notes = m_controller->notes()) {
        if (const auto file = notes->fileOf(id.toStdString()))
            return QString::fromStdString(notes->tracePath(*file));
    }
    return m_controller->tracePath();
}

void NoteMeasurePanel::acceptProposedStatus()
{
    const Annotation* current = m_controller->find(m_id);
    if (!current || !m_measurement || m_measuredId != m_id)
        return;
    Annotation next = *current;
    next.status = m_measurement->proposedStatus;
    m_controller->edit(next, tr("Set status to %1").arg(fromView(annotationStatusName(next.status))));
    updateView();
}

void NoteMeasurePanel::updateView()
{
    const Annotation* note = m_controller->find(m_id);
    m_measure->setEnabled(note != nullptr && m_before != nullptr);
    const bool measured = note && m_measurement && m_measuredId == m_id;
    m_accept->setEnabled(measured && note->status != m_measurement->proposedStatus);
    if (!note) {
        m_result->clear();
        return;
    }
    if (measured) {
        const QString proposed = fromView(annotationStatusName(m_measurement->proposedStatus));
        // The file measured against first: the panel's row is "After trace".
        QString text = tr("Measured against %1.<br><b>Proposed status: %2</b> (%3)")
                           .arg(QString::fromStdString(note->afterTrace).toHtmlEscaped(), proposed,
                               QString::fromStdString(m_measurement->statusReason).toHtmlEscaped());
        text += note->status == m_measurement->proposedStatus
            ? tr("; the note's status is %1.").arg(proposed)
            : tr("; the note's status stays %1 until you accept it.").arg(fromView(annotationStatusName(note->status)));
        if (m_measurement->prediction) {
            const PredictionCheck& c = *m_measurement->prediction;
            // A prediction the measurement refutes is a finding of its own: said first and in bold.
            const bool wrong = c.insideInterval && !*c.insideInterval;
            text += tr("<br>%1%2%3")
                        .arg(wrong ? QStringLiteral("<b>") : QString(), QString::fromStdString(c.text).toHtmlEscaped(),
                            wrong ? QStringLiteral("</b>") : QString());
        }
        m_result->setText(text);
        return;
    }
    const QString prediction = note->prediction
        ? tr("<br>Prediction: %1").arg(QString::fromStdString(describePrediction(*note->prediction)).toHtmlEscaped())
        : QString();
    if (!note->afterTrace.empty())
        m_result->setText(tr("After trace: %1 (Measure against... to measure again)")
                              .arg(QString::fromStdString(note->afterTrace).toHtmlEscaped())
            + prediction);
    else
        m_result->setText(tr("No after trace yet: Measure against... the run with the change.") + prediction);
}

} // namespace gapscope::app
