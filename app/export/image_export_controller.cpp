// SPDX-License-Identifier: MIT
#include "app/export/image_export_controller.h"

#include "app/annotations/annotation_controller.h"
#include "app/annotations/annotation_session.h"
#include "app/compare/diff_dock.h"
#include "app/export/picture_export_job.h"
#include "app/timeline/timeline_view.h"
#include "core/analysis/compared_traces.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QMainWindow>
#include <QSettings>
#include <QStatusBar>

namespace gapscope::app {

ImageExportController::ImageExportController(
    QMainWindow* window, timeline::TimelineView* view, const AnnotationSession* annotations, const DiffDock* diffDock)
    : QObject(window)
    , m_window(window)
    , m_view(view)
    , m_annotations(annotations)
    , m_diffDock(diffDock)
{ }

void ImageExportController::setTrace(const timeline::LoadedTrace& loaded)
{
    m_loaded = loaded;
}

void ImageExportController::setAnalysis(const timeline::AnalysisSnapshot& analysis)
{
    m_analysis = analysis;
}

void ImageExportController::exportImage()
{
    if (!m_loaded.trace) {
        m_window->statusBar()->showMessage(tr("Open a trace first: there is nothing to export."), 5000);
        return;
    }
    // Next to the trace, named after it: "run.pt.trace.json.gz.png".
    const QString suggested = m_loaded.files.empty()
        ? QDir::home().filePath(QStringLiteral("gapscope.png"))
        : QString::fromStdString(m_loaded.files.front()) + QStringLiteral(".png");
    const timeline::TimelineState* state = m_view->state();
    picture::ExportImageDialog dialog(
        m_view->canvas()->size(), state->selectedRange().has_value(), suggested, m_window);
    if (const auto last = lastChoice()) {
        picture::ExportImageChoice choice = *last;
        if (choice.range == picture::PictureRange::Selection && !state->selectedRange())
            choice.range = picture::PictureRange::View;
        dialog.setChoice(choice);
    }
    if (dialog.exec() == QDialog::Accepted)
        exportTo(dialog.choice());
}

std::optional<picture::ExportImageChoice> ImageExportController::lastChoice() const
{
    const QSettings settings;
    const QSize size = settings.value(QStringLiteral("exportImage/size")).toSize();
    const QString path = settings.value(QStringLiteral("exportImage/path")).toString();
    if (!size.isValid() || path.isEmpty())
        return std::nullopt;
    picture::ExportImageChoice choice;
    choice.size = size;
    choice.path = path;
    choice.range = static_cast<picture::PictureRange>(settings.value(QStringLiteral("exportImage/range")).toInt());
    return choice;
}

bool ImageExportController::exportTo(const picture::ExportImageChoice& choice)
{
    // The next Export Image starts from this size, range and file.
    QSettings settings;
    settings.setValue(QStringLiteral("exportImage/size"), choice.size);
    settings.setValue(QStringLiteral("exportImage/path"), choice.path);
    settings.setValue(QStringLiteral("exportImage/range"), static_cast<int>(choice.range));

    const timeline::TimelineState* state = m_view->state();
    auto source = std::make_shared<picture::ViewPictureSource>();
    source->loaded = m_loaded;
    source->analysis = m_analysis;
    source->annotations = m_annotations->controller()->annotations();
    source->visible = state->visibleRange();
    source->selection = state->selectedRange();
    for (const timeline::LayoutRow& row : m_view->layout().rows()) {
        if (row.kind == timeline::RowKind::ProcessHeader && row.collapsed)
            source->collapse.processes.insert(row.process.value);
        else if (row.kind == timeline::RowKind::DeviceHeader && row.collapsed && row.device)
            source->collapse.devices.insert(row.device->value);
    }
    source->gapThreshold = m_view->gapThreshold();
    source->origin = state->origin();
    if (!m_loaded.files.empty()) {
        source->traceName = QFileInfo(QString::fromStdString(m_loaded.files.front())).fileName();
        if (m_loaded.files.size() > 1)
            source->traceName += tr(" and %n more file(s)", nullptr, static_cast<int>(m_loaded.files.size() - 1));
        if (const auto& compared = m_loaded.comparison; compared && !compared->newFiles.empty())
            source->traceName
                += tr(" vs %1").arg(QFileInfo(QString::fromStdString(compared->newFiles.front())).fileName());
    }
    if (m_loaded.comparison && m_diffDock->diff())
        source->comparisonLines = m_diffDock->summaryLines();
    auto* job = picture::PictureExportJob::start(source, choice, this);
    if (!job) {
        m_window->statusBar()->showMessage(tr("Nothing to export: select a range first, or choose the view."), 8000);
        return false;
    }
    QApplication::setOverrideCursor(Qt::BusyCursor);
    m_window->statusBar()->showMessage(tr("Exporting the picture to %1...").arg(choice.path));
    connect(job, &picture::PictureExportJob::finished, this, [this](const QString& path, const QString& error) {
        QApplication::restoreOverrideCursor();
        if (error.isEmpty())
            m_window->statusBar()->showMessage(tr("Exported the picture to %1").arg(path), 15000);
        else
            m_window->statusBar()->showMessage(tr("Could not export the picture: %1").arg(error), 15000);
        emit exported(path, error);
    });
    return true;
}

} // namespace gapscope::app
