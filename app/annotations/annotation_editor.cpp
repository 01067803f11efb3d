// SPDX-License-Identifier: MIT
#include "app/annotations/annotation_editor.h"
#include "app/models/string_view_text.h"

#include "app/annotations/annotation_controller.h"
#include "app/annotations/note_measure_panel.h"
#include "app/models/event_details.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

namespace gapscope::app {

namespace {

using models::fromView;

constexpr AnnotationStatus kStatuses[] = { AnnotationStatus::Open, AnnotationStatus::Supported,
    AnnotationStatus::Refuted, AnnotationStatus::Inconclusive };

// Okabe-Ito: told apart by people with any common colour-vision deficiency.
const char* const kColours[]
    = { "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#999999" };

QIcon swatch(const QColor& colour)
{
    QPixmap pixmap(14, 14);
    pixmap.fill(colour);
    return QIcon(pixmap);
}

std::string& fieldOf(Annotation& a, AnnotationEditor::Field field)
{
    switch (field) {
    case AnnotationEditor::TitleField:
        return a.title;
    case AnnotationEditor::ProblemField:
        return a.record.problem;
    case AnnotationEditor::BaselineField:
        return a.record.baseline;
    case AnnotationEditor::HypothesisField:
        return a.record.hypothesis;
    case AnnotationEditor::ChangeField:
        return a.record.change;
    case AnnotationEditor::CorrectnessCheckField:
        return a.record.correctnessCheck;
    case AnnotationEditor::PerformanceChangeField:
        return a.record.performanceChange;
    case AnnotationEditor::SideEffectsField:
    case AnnotationEditor::FieldCount:
        break;
    }
    return a.record.sideEffects;
}

QString placeholderOf(AnnotationEditor::Field field)
{
    switch (field) {
    case AnnotationEditor::ProblemField:
        return AnnotationEditor::tr("What is slow, seen where");
    case AnnotationEditor::BaselineField:
        return AnnotationEditor::tr("The figures before any change (step time, utilization, this range)");
    case AnnotationEditor::HypothesisField:
        return AnnotationEditor::tr("Why, stated so that an experiment can prove it wrong");
    case AnnotationEditor::ChangeField:
        return AnnotationEditor::tr("The experiment: one change to make");
    case AnnotationEditor::CorrectnessCheckField:
        return AnnotationEditor::tr("How to tell that the results did not change");
    case AnnotationEditor::PerformanceChangeField:
        return AnnotationEditor::tr("The figures after the change, measured the same way");
    case AnnotationEditor::SideEffectsField:
        return AnnotationEditor::tr("Memory, other steps, other ranks, code complexity");
    default:
        return {};
    }
}

QString figuresHtml(const Trace& trace, const AnnotationFigures& figures)
{
    if (figures.devices.empty())
        return AnnotationEditor::tr("<p>No GPU of this note has activity to measure in its range.</p>");
    QString html;
    for (const DeviceFigures& d : figures.devices) {
        const Process& process = trace.processes()[d.process.value];
        const int gpu = trace.devices()[d.device.value].id;
        const QString name = process.rank ? AnnotationEditor::tr("Rank %1 GPU %2").arg(*process.rank).arg(gpu)
                                          : AnnotationEditor::tr("GPU %1").arg(gpu);
        html += QStringLiteral("<p style='margin:4px 0'><b>%1</b></p><table cellspacing=0 cellpadding=1>").arg(name);
        const auto row = [&html](const QString& label, const QString& value) {
            html += QStringLiteral("<tr><td>%1</td><td align=right>&nbsp;%2</td></tr>").arg(label, value);
        };
        row(AnnotationEditor::tr("window"), models::durationText(d.spanNs));
        row(AnnotationEditor::tr("busy"),
            AnnotationEditor::tr("%1 (%2 %)")
                .arg(models::durationText(d.busyNs))
                .arg(100.0 * d.utilization, 0, 'f', 2));
        row(AnnotationEditor::tr("idle"), models::durationText(d.idleNs));
        for (int c = 0; c < kGapCauseCount; ++c) {
            if (d.idleByCause[static_cast<std::size_t>(c)] > 0)
                row(AnnotationEditor::tr("&nbsp;&nbsp;idle, %1").arg(fromView(gapCauseName(static_cast<GapCause>(c)))),
                    models::durationText(d.idleByCause[static_cast<std::size_t>(c)]));
        }
        row(AnnotationEditor::tr("gaps"), QString::number(d.gapCount));
        row(AnnotationEditor::tr("exposed compute"), models::durationText(d.exposed.compute));
        row(AnnotationEditor::tr("exposed communication"), models::durationText(d.exposed.communication));
        row(AnnotationEditor::tr("exposed memcpy"), models::durationText(d.exposed.memcpy));
        html += QStringLiteral("</table>");
    }
    return html;
}

} // namespace

AnnotationEditor::AnnotationEditor(AnnotationController* controller, QWidget* parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_heading(new QLabel(this))
    , m_title(new QLineEdit(this))
    , m_status(new QComboBox(this))
    , m_colour(new QComboBox(this))
    , m_range(new QLabel(this))
    , m_figuresView(new QTextBrowser(this))
    , m_measurePanel(new NoteMeasurePanel(controller, this))
    , m_form(new QWidget(this))
    , m_commitTimer(new QTimer(this))
{
    m_commitTimer->setSingleShot(true);
    m_commitTimer->setInterval(kCommitDelayMs);
    connect(m_commitTimer, &QTimer::timeout, this, &AnnotationEditor::commitPending);

    for (AnnotationStatus status : kStatuses)
        m_status->addItem(swatch(QColor(fromView(annotationStatusColour(status)))),
            fromView(annotationStatusName(status)), static_cast<int>(status));
    m_status->setToolTip(tr("Open until an experiment supports or refutes the hypothesis"));
    for (const char* colour : kColours)
        m_colour->addItem(swatch(QColor(QLatin1String(colour))), QLatin1String(colour), QLatin1String(colour));
    m_colour->setToolTip(tr("The note's own colour: its swatch before the title in the Annotations list and in "
                            "exported reports. The bracket on the timeline takes the colour of the status."));
    m_title->setPlaceholderText(tr("One line that says what this range is about"));
    m_title->installEventFilter(this);
    m_range->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_figuresView->setMinimumHeight(120);
    m_figuresView->setFrameShape(QFrame::NoFrame);

    auto* statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    auto* colourLabel = new QLabel(tr("List colour"), this);
    colourLabel->setToolTip(m_colour->toolTip());
    statusRow->addWidget(colourLabel);
    statusRow->addWidget(m_colour, 1);
    auto* form = new QFormLayout(m_form);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->addRow(tr("Title"), m_title);
    form->addRow(tr("Status"), statusRow);
    form->addRow(tr("Range"), m_range);
    // Next to the status it proposes: the measurement against the run with the change.
    form->addRow(tr("After trace"), m_measurePanel);
    for (int f = ProblemField; f < FieldCount; ++f) {
        auto* edit = new QPlainTextEdit(m_form);
        edit->setTabChangesFocus(true);
        edit->setPlaceholderText(placeholderOf(static_cast<Field>(f)));
        edit->setMinimumHeight(52);
        edit->installEventFilter(this);
        m_fields[static_cast<std::size_t>(f)] = edit;
        form->addRow(fieldLabel(static_cast<Field>(f)), edit);
        connect(edit, &QPlainTextEdit::textChanged, this, [this, f] { fieldEdited(static_cast<Field>(f)); });
    }
    form->addRow(new QLabel(tr("<b>Measured over the range</b>"), m_form));
    form->addRow(m_figuresView);

    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_heading);
    layout->addWidget(scroll);

    connect(m_title, &QLineEdit::textEdited, this, [this] { fieldEdited(TitleField); });
    connect(m_title, &QLineEdit::editingFinished, this, [this] { commitField(TitleField); });
    connect(m_status, &QComboBox::activated, this, [this](int index) {
        const Annotation* current = m_controller->find(m_id);
        if (!current)
            return;
        Annotation next = *current;
        next.status = static_cast<AnnotationStatus>(m_status->itemData(index).toInt());
        m_controller->edit(next, tr("Set status to %1").arg(m_status->itemText(index)));
    });
    connect(m_colour, &QComboBox::activated, this, [this](int index) {
        const Annotation* current = m_controller->find(m_id);
        if (!current)
            return;
        Annotation next = *current;
        next.colour = m_colour->itemData(index).toString().toStdString();
        m_controller->edit(next, tr("Set colour"));
    });
    connect(m_controller, &AnnotationController::selectionChanged, this, &AnnotationEditor::showAnnotation);
    connect(m_controller, &AnnotationController::annotationsChanged, this, &AnnotationEditor::reload);
    connect(m_controller, &AnnotationController::annotationsReset, this, [this] { showAnnotation({}); });
    showAnnotation({});
}

AnnotationEditor::~AnnotationEditor() = default;

QString AnnotationEditor::fieldLabel(Field field)
{
    switch (field) {
    case TitleField:
        return tr("Title");
    case ProblemField:
        return tr("Problem");
    case BaselineField:
        return tr("Baseline");
    case HypothesisField:
        return tr("Hypothesis");
    case ChangeField:
        return tr("Change");
    case CorrectnessCheckField:
        return tr("Correctness check");
    case PerformanceChangeField:
        return tr("Performance change");
    case SideEffectsField:
        return tr("Side effects");
    case FieldCount:
        break;
    }
    return {};
}

void AnnotationEditor::setTrace(std::shared_ptr<const Trace> trace, const AnalysisOptions& options, TimeNs origin)
{
    m_trace = std::move(trace);
    m_options = options;
    m_measurePanel->setTrace(m_trace, options);
    m_origin = origin;
    m_measuredId.clear(); // the options may differ: measure again
    reload();
}

void AnnotationEditor::showAnnotation(const QString& id)
{
    if (id == m_id)
        return;
    commitPending(); // edits of the note shown before belong to it
    m_id = id;
    m_measurePanel->setAnnotation(id);
    m_dirty.clear();
    reload();
}

void AnnotationEditor::reload()
{
    const Annotation* a = m_controller->find(m_id);
    m_form->setEnabled(a != nullptr);
    if (!a) {
        m_id.clear();
        m_heading->setText(tr("<i>No note selected. Explain a gap (Gaps dock) or annotate a selected range "
                              "(Edit \u203a Annotate Selection) to make one.</i>"));
        m_heading->setWordWrap(true);
        m_loading = true;
        m_title->clear();
        for (int f = ProblemField; f < FieldCount; ++f)
            m_fields[static_cast<std::size_t>(f)]->clear();
        m_loading = false;
        m_range->clear();
        m_figuresView->clear();
        m_figures.reset();
        m_measuredId.clear();
        return;
    }
    m_heading->setText(tr("<b>Note</b> \u2014 changes are saved at once; Edit \u203a Undo takes them back."));
    m_loading = true;
    // Only fields whose text differs are set, so that a field being typed in keeps its cursor.
    Annotation copy = *a;
    if (!m_dirty.count(TitleField) && m_title->text() != QString::fromStdString(copy.title)) {
        m_title->setText(QString::fromStdString(copy.title));
        m_title->setCursorPosition(0); // a long title shows its beginning
    }
    for (int f = ProblemField; f < FieldCount; ++f) {
        const auto field = static_cast<Field>(f);
        const QString text = QString::fromStdString(fieldOf(copy, field));
        QPlainTextEdit* edit = m_fields[static_cast<std::size_t>(f)];
        if (!m_dirty.count(field) && edit->toPlainText() != text)
            edit->setPlainText(text);
    }
    m_status->setCurrentIndex(std::max(0, m_status->findData(static_cast<int>(a->status))));
    setColourChoice(QString::fromStdString(a->colour));
    m_loading = false;
    m_range->setText(tr("%1 from %2 to %3")
                         .arg(models::durationText(a->duration()), models::relativeTime(a->start, m_origin),
                             models::relativeTime(a->end, m_origin)));
    if (m_measuredId != m_id || m_measuredRange != std::make_pair(a->start, a->end))
        measure();
}

void AnnotationEditor::setColourChoice(const QString& colour)
{
    int index = m_colour->findData(colour.toLower());
    if (index < 0 && QColor::isValidColorName(colour)) {
        m_colour->addItem(swatch(QColor(colour)), colour.toLower(), colour.toLower());
        index = m_colour->count() - 1;
    }
    m_colour->setCurrentIndex(std::max(0, index));
}

void AnnotationEditor::fieldEdited(Field field)
{
    if (m_loading || m_id.isEmpty())
        return;
    m_dirty.insert(field);
    m_commitTimer->start();
}

QString AnnotationEditor::widgetText(Field field) const
{
    return field == TitleField ? m_title->text() : m_fields[static_cast<std::size_t>(field)]->toPlainText();
}

void AnnotationEditor::commitField(Field field)
{
    if (!m_dirty.erase(field))
        return;
    const Annotation* current = m_controller->find(m_id);
    if (!current)
        return;
    Annotation next = *current;
    fieldOf(next, field) = widgetText(field).toStdString();
    m_controller->edit(next, tr("Edit %1").arg(fieldLabel(field).toLower()));
}

void AnnotationEditor::commitPending()
{
    m_commitTimer->stop();
    const std::set<Field> dirty = m_dirty;
    for (Field field : dirty)
        commitField(field);
}

void AnnotationEditor::focusTitle()
{
    m_title->setFocus();
    m_title->selectAll();
}

bool AnnotationEditor::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::FocusOut) {
        if (watched == m_title) {
            commitField(TitleField);
        } else {
            for (int f = ProblemField; f < FieldCount; ++f) {
                if (watched == m_fields[static_cast<std::size_t>(f)])
                    commitField(static_cast<Field>(f));
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

void AnnotationEditor::measure()
{
    const Annotation* a = m_controller->find(m_id);
    m_figures.reset();
    if (!a || !m_trace) {
        m_figuresView->clear();
        return;
    }
    m_measuredId = m_id;
    m_measuredRange = { a->start, a->end };
    m_figuresView->setHtml(tr("<p>Measuring\u2026</p>"));
    // The trace is shared and immutable; the note is copied: the job reads nothing the GUI changes. A newer
    // measurement (another note or range) stops this one and drops its figures.
    m_measuring.run(
        this,
        [trace = m_trace, note = *a, options = m_options](std::stop_token stop) {
            AnalysisOptions stoppable = options;
            stoppable.stop = std::move(stop);
            return measureAnnotation(*trace, note, stoppable);
        },
        [this](const AnnotationFigures& figures) {
            m_figures = figures;
            showFigures();
        });
}

void AnnotationEditor::showFigures()
{
    if (!m_figures || !m_trace)
        return;
    m_figuresView->setHtml(figuresHtml(*m_trace, *m_figures));
    emit figuresShown();
}

} // namespace gapscope::app
