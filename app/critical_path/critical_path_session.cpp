// SPDX-License-Identifier: MIT
#include "app/critical_path/critical_path_session.h"

#include "app/annotations/annotation_controller.h"
#include "app/annotations/annotation_session.h"
#include "app/critical_path/critical_path_overlay.h"
#include "app/mainwindow/analysis_docks.h"
#include "app/mainwindow/main_window.h"
#include "app/timeline/geometry/hit_test.h"
#include "app/timeline/timeline_painter.h"
#include "app/timeline/timeline_view.h"
#include "core/analysis/gap_evidence.h"
#include "core/analysis/what_if.h"
#include "core/annotations/predicted_change.h"
#include "core/annotations/step_predictor.h"
#include "core/model/time_format.h"

#include <QDockWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

#include <chrono>
#include <variant>

namespace gapscope::app {

namespace {

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString duration(TimeNs ns)
{
    return QString::fromStdString(formatDuration(ns));
}

QString share(TimeNs part, TimeNs whole)
{
    return QStringLiteral("%1 %").arg(
        whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0, 0, 'f', 1);
}

/// The pattern that matches exactly this name (ECMAScript regex, what_if.h).
std::string exactPattern(std::string_view name)
{
    std::string pattern = "^";
    for (const char c : name) {
        if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos)
            pattern += '\\';
        pattern += c;
    }
    return pattern + "$";
}

/// The dock's text: the window, the breakdown by category, the longest names on the path.
QString pathHtml(const Trace& trace, const PathOutline& outline)
{
    const CriticalPath& path = outline.path;
    const PathWindow& w = path.window;
    const TimeNs origin = trace.timeSpan() ? trace.timeSpan()->first : 0;
    QString html
        = QObject::tr("<b>Critical path of %1</b>, %2 to %3 from the trace start (%4, window <i>%5</i>):")
              .arg(w.name.empty() ? QObject::tr("the GPU window") : QString::fromStdString(w.name).toHtmlEscaped(),
                  QString::fromStdString(formatRelativeTime(w.start, origin)),
                  QString::fromStdString(formatRelativeTime(w.end, origin)), duration(path.lengthNs),
                  qs(windowKindName(w.kind)));
    // The breakdown and the longest names side by side, so that both fit a dock of a few lines.
    html += QStringLiteral("<table cellspacing='0' cellpadding='0'><tr><td valign='top'>");
    html += QStringLiteral("<table cellspacing='0' cellpadding='2'>");
    for (int c = 0; c < kPathCategoryCount; ++c) {
        const TimeNs ns = path.byCategory[static_cast<std::size_t>(c)];
        html += QStringLiteral("<tr><td>%1</td><td align='right'>%2</td><td align='right'>%3</td></tr>")
                    .arg(qs(pathCategoryName(static_cast<PathCategory>(c))), duration(ns), share(ns, path.lengthNs));
    }
    html += QStringLiteral("</table></td><td width='24'></td><td valign='top'><b>%1</b>"
                           "<table cellspacing='0' cellpadding='2'>")
                .arg(QObject::tr("Longest on the path:"));
    const std::size_t shown = std::min<std::size_t>(path.top.size(), 10);
    for (std::size_t i = 0; i < shown; ++i) {
        const NameOnPath& n = path.top[i];
        QString name = qs(pathSegmentName(trace, n.name));
        if (name.size() > 70)
            name = name.left(69) + QStringLiteral("\u2026");
        html += QStringLiteral("<tr><td>%1</td><td>%2</td><td align='right'>%3</td><td align='right'>%4</td></tr>")
                    .arg(name.toHtmlEscaped(), qs(pathCategoryName(n.category)), duration(n.onPathNs),
                        share(n.onPathNs, path.lengthNs));
    }
    html += QStringLiteral("</table></td></tr></table>");
    html += QObject::tr("%1 stretches outlined on their lanes, %2 hand-overs between lanes drawn.")
                .arg(outline.segments.size())
                .arg(outline.handOvers.size());
    return html;
}

} // namespace

CriticalPathSession::CriticalPathSession(
    MainWindow* window, timeline::TimelineView* view, AnnotationSession* annotations)
    : QObject(window)
    , m_window(window)
    , m_view(view)
    , m_annotations(annotations)
    , m_dock(new QDockWidget(tr("Critical Path"), window))
    , m_summary(new QTextBrowser)
    , m_whatIf(new QLabel)
    , m_record(new QPushButton(tr("Write Prediction into Note")))
    , m_percent(new QSpinBox)
    , m_overlay(new CriticalPathOverlay(view))
{
    m_dock->setObjectName(QStringLiteral("criticalPathDock"));
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    m_summary->setFrameShape(QFrame::NoFrame);
    m_summary->setText(tr("Not computed yet."));
    m_whatIf->setWordWrap(true);
    m_whatIf->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_whatIf->setText(tr("Right-click a kernel, an op or a gap: What if this took less?"));
    m_percent->setRange(0, 100);
    m_percent->setValue(50);
    m_percent->setSuffix(tr(" % less"));
    m_percent->setEnabled(false);
    m_percent->setToolTip(tr("How much less time the op of the last what-if takes (100: removed)"));
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_percent);
    controls->addWidget(m_record);
    controls->addStretch(1);
    layout->addWidget(m_summary, 1);
    layout->addWidget(m_whatIf);
    layout->addLayout(controls);
    m_dock->setWidget(content);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    QDockWidget* gaps = window->analysisDocks()->gapsDockWidget();
    window->tabifyDockWidget(gaps, m_dock);
    m_dock->hide();
    gaps->raise(); // the tab the window opens with, as before the dock was added
    updateRecordButton();

    connect(m_dock->toggleViewAction(), &QAction::toggled, this, [this](bool on) {
        if (on && !m_computed)
            compute();
        if (on) // a tab behind the others would not be seen; raised once the dock area has laid it out
            QTimer::singleShot(0, m_dock, &QDockWidget::raise);
        m_overlay->setVisible(on && m_overlay->outline());
    });
    connect(window, &MainWindow::traceShown, this, &CriticalPathSession::onTraceShown);
    connect(m_annotations, &AnnotationSession::timelineMenuAboutToShow, this, &CriticalPathSession::addMenuEntries);
    connect(m_annotations->controller(), &AnnotationController::selectionChanged, this,
        &CriticalPathSession::updateRecordButton);
    connect(m_record, &QPushButton::clicked, this, &CriticalPathSession::recordPrediction);
    connect(m_percent, &QSpinBox::valueChanged, this, [this] {
        if (m_targetName)
            predictTarget();
    });
}

void CriticalPathSession::onTraceShown()
{
    m_pathJob.drop();
    m_whatIfJob.drop();
    m_trace = m_window->trace();
    m_computed = false;
    m_prediction.reset();
    m_targetName.reset();
    m_predictor.reset();
    m_percent->setEnabled(false);
    m_overlay->setOutline(nullptr);
    m_summary->setText(tr("Not computed yet."));
    updateRecordButton();
    if (!m_dock->isHidden())
        compute();
}

void CriticalPathSession::compute()
{
    if (!m_trace)
        return;
    m_computed = true;
    m_summary->setText(tr("Computing the critical path\u2026"));
    using Outcome = std::variant<std::shared_ptr<const PathOutline>, QString>;
    m_pathJob.run(
        this,
        [trace = m_trace](const std::stop_token&) -> Outcome {
            const auto window = medianStepOrGpuWindow(*trace, "", std::nullopt);
            if (!window)
                return tr("The trace has no steps and no GPU activity: no window to take the path of.");
            return std::make_shared<const PathOutline>(criticalPathOutline(*trace, *window));
        },
        [this](const Outcome& outcome) {
            if (const auto* problem = std::get_if<QString>(&outcome)) {
                m_summary->setText(*problem);
                return;
            }
            showPath(std::get<std::shared_ptr<const PathOutline>>(outcome));
        });
}

void CriticalPathSession::showPath(std::shared_ptr<const PathOutline> outline)
{
    m_summary->setText(pathHtml(*m_trace, *outline));
    m_overlay->setOutline(std::move(outline));
    m_overlay->setVisible(!m_dock->isHidden());
    emit pathShown();
}

void CriticalPathSession::addMenuEntries(QMenu* menu, const QPoint& pos)
{
    const timeline::TimelineScene scene = m_view->scene();
    if (!scene.trace || !scene.index || !m_trace)
        return;
    using timeline::TimelinePainter;
    const auto event = timeline::hitTest(*scene.trace, *scene.index, *scene.layout, scene.axis,
        TimelinePainter::screenXToAxis(scene, pos.x()), TimelinePainter::screenYToContent(scene, pos.y()));
    // The shares offered at a click; the dock's box takes any other.
    const auto addShares = [this](QMenu* shares, const auto& ask) {
        for (const int percent : { 25, 50, 75 })
            shares->addAction(tr("%1 % less").arg(percent), this, [ask, percent] { ask(percent); });
        shares->addAction(tr("Removed (no time at all)"), this, [ask] { ask(100); });
    };
    if (event) {
        menu->addSeparator();
        const EventRef ref = *event;
        addShares(
            menu->addMenu(tr("What if this took less?")), [this, ref](int percent) { whatIfShorter(ref, percent); });
        return;
    }
    if (const auto gap = m_view->gapAtPoint(pos); gap && gapCause(*gap)) {
        menu->addSeparator();
        const std::size_t index = *gap;
        const QString name = qs(m_trace->strings().view(m_trace->event(*gapCause(index)).name));
        addShares(menu->addMenu(tr("What if this gap's cause (%1) took less?").arg(name.left(60))),
            [this, index](int percent) { whatIfGap(index, percent); });
    }
}

std::optional<EventRef> CriticalPathSession::gapCause(std::size_t gap) const
{
    const std::shared_ptr<const AnalysisResult> analysis = m_window->analysis();
    if (!analysis || !m_trace || gap >= analysis->gaps.size())
        return std::nullopt;
    GapEvidenceFinder finder(*m_trace, analysis->options.launchThresholdNs);
    const GapEvidence evidence = finder.evidence(analysis->gaps[gap]);
    return evidence.hostRange ? evidence.hostRange : evidence.syncCall;
}

bool CriticalPathSession::whatIfGap(std::size_t gap, int percentLess)
{
    const auto cause = gapCause(gap);
    if (cause)
        whatIfShorter(*cause, percentLess);
    return cause.has_value();
}

void CriticalPathSession::whatIfShorter(EventRef event, int percentLess)
{
    if (!m_trace)
        return;
    m_targetName = std::string(m_trace->strings().view(m_trace->event(event).name));
    {
        const QSignalBlocker quiet(m_percent);
        m_percent->setValue(percentLess);
    }
    m_percent->setEnabled(true);
    predictTarget();
}

void CriticalPathSession::predictTarget()
{
    WhatIfChanges changes;
    changes.scales.push_back({ exactPattern(*m_targetName), 1.0 - m_percent->value() / 100.0 });
    m_whatIf->setText(tr("Predicting\u2026"));
    struct Predicted {
        PredictedChange prediction;
        std::shared_ptr<const StepPredictor> predictor;
    };
    using Outcome = std::variant<Predicted, QString>;
    m_whatIfJob.run(
        this,
        [trace = m_trace, predictor = m_predictor, changes](const std::stop_token&) -> Outcome {
            // One thread: the GUI thread and the paint of the timeline keep the others.
            auto graphs = predictor ? predictor : std::make_shared<const StepPredictor>(*trace, 1);
            auto prediction = graphs->predict(*trace, changes, formatIsoUtc(std::chrono::system_clock::now()), 1);
            if (!prediction)
                return QString::fromStdString(prediction.error().message);
            return Predicted { std::move(*prediction), std::move(graphs) };
        },
        [this](const Outcome& outcome) {
            if (const auto* problem = std::get_if<QString>(&outcome)) {
                m_whatIf->setText(tr("Could not predict: %1").arg(*problem));
                return;
            }
            const Predicted& predicted = std::get<Predicted>(outcome);
            m_predictor = predicted.predictor;
            m_prediction = predicted.prediction;
            m_whatIf->setText(tr("<b>Predicted:</b> %1")
                                  .arg(QString::fromStdString(describePrediction(*m_prediction)).toHtmlEscaped()));
            updateRecordButton();
            emit whatIfShown();
        });
}

bool CriticalPathSession::recordPrediction()
{
    AnnotationController* controller = m_annotations->controller();
    const Annotation* note = controller->find(controller->selectedId());
    if (!m_prediction || !note)
        return false;
    Annotation next = *note;
    next.prediction = m_prediction;
    return controller->edit(next, tr("Record Prediction"));
}

void CriticalPathSession::updateRecordButton()
{
    const AnnotationController* controller = m_annotations->controller();
    const bool note = controller->find(controller->selectedId()) != nullptr;
    m_record->setEnabled(m_prediction.has_value() && note);
    m_record->setToolTip(note ? tr("Record the prediction in the selected note: gapscope diff --note and Measure "
                                   "against\u2026 check it against the run with the change")
                              : tr("Select a note first (Annotations dock)"));
}

} // namespace gapscope::app
