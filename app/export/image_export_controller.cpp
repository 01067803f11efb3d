// SPDX-License-Identifier: MIT
// File › Export Image… of the main window: the dialog, the last choice made in it, and writing the picture
// (app/export/).
#include "app/annotations/annotation_controller.h"
#include "app/annotations/annotation_session.h"
#include "app/annotations/annotations_dock.h"
#include "app/compare/diff_dock.h"
#include "app/export/picture_export_job.h"
#include "app/job/job_session.h"
#include "app/mainwindow/gaps_dock.h"
#include "app/mainwindow/kernels_dock.h"
#include "app/mainwindow/main_window.h"
#include "app/mainwindow/search_bar.h"
#include "app/mainwindow/window_selector.h"
#include "app/models/event_details.h"
#include "app/record/record_dialog.h"
#include "app/timeline/timeline_view.h"
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>

namespace gapscope::app {

void MainWindow::exportImage()
{
    if (!m_loaded.trace) {
        statusBar()->showMessage(tr("Open a trace first: there is nothing to export."), 5000);
        return;
    }
    // Next to the trace, named after it: "run.pt.trace.json.gz.png".
    const QString suggested = m_loaded.files.empty()
        ? QDir::home().filePath(QStringLiteral("gapscope.png"))
        : QString::fromStdString(m_loaded.files.front()) + QStringLiteral(".png");
    picture::ExportImageDialog dialog(m_view->canvas()->size(), m_state->selectedRange().has_value(), suggested, this);
    if (const auto last = lastExportChoice()) {
        picture::ExportImageChoice choice = *last;
        if (choice.range == picture::PictureRange::Selection && !m_state->selectedRange())
            choice.range = picture::PictureRange::View;
        dialog.setChoice(choice);
    }
    if (dialog.exec() == QDialog::Accepted)
        exportImageTo(dialog.choice());
}

std::optional<picture::ExportImageChoice> MainWindow::lastExportChoice() const
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

bool MainWindow::exportImageTo(const picture::ExportImageChoice& choice)
{
    // The next Export Image starts from this size, range and file.
    QSettings settings;
    settings.setValue(QStringLiteral("exportImage/size"), choice.size);
    settings.setValue(QStringLiteral("exportImage/path"), choice.path);
    settings.setValue(QStringLiteral("exportImage/range"), static_cast<int>(choice.range));

    auto source = std::make_shared<picture::ViewPictureSource>();
    source->loaded = m_loaded;
    source->analysis = m_analysis;
    source->annotations = m_annotations->controller()->annotations();
    source->visible = m_state->visibleRange();
    source->selection = m_state->selectedRange();
    for (const timeline::LayoutRow& row : m_view->layout().rows()) {
        if (row.kind == timeline::RowKind::ProcessHeader && row.collapsed)
            source->collapse.processes.insert(row.process.value);
        else if (row.kind == timeline::RowKind::DeviceHeader && row.collapsed && row.device)
            source->collapse.devices.insert(row.device->value);
    }
    source->gapThreshold = m_view->gapThreshold();
    source->origin = m_state->bounds().first;
    if (!m_loaded.files.empty()) {
        source->traceName = QFileInfo(QString::fromStdString(m_loaded.files.front())).fileName();
        if (m_loaded.files.size() > 1)
            source->traceName += tr(" and %n more file(s)", nullptr, static_cast<int>(m_loaded.files.size() - 1));
        if (const auto& compared = m_loaded.comparison; compared && !compared->newFiles.empty())
            source->traceName
                += tr(" vs %1").arg(QFileInfo(QString::fromStdString(compared->newFiles.front())).fileName());
    }
    auto* job = picture::PictureExportJob::start(source, choice, this);
    if (!job) {
        statusBar()->showMessage(tr("Nothing to export: select a range first, or choose the view."), 8000);
        return false;
    }
    QApplication::setOverrideCursor(Qt::BusyCursor);
    statusBar()->showMessage(tr("Exporting the picture to %1...").arg(choice.path));
    connect(job, &picture::PictureExportJob::finished, this, [this](const QString& path, const QString& error) {
        QApplication::restoreOverrideCursor();
        if (error.isEmpty())
            statusBar()->showMessage(tr("Exported the picture to %1").arg(path), 15000);
        else
            statusBar()->showMessage(tr("Could not export the picture: %1").arg(error), 15000);
        emit imageExported(path, error);
    });
    return true;
}

} // namespace gapscope::app
