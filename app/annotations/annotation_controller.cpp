// SPDX-License-Identifier: MIT
#include "app/annotations/annotation_controller.h"

#include "app/annotations/annotation_commands.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QUndoStack>

namespace gapscope::app {

namespace {

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

AnnotationController::AnnotationController(QObject* parent)
    : QObject(parent)
    , m_undo(new QUndoStack(this))
{ }

AnnotationController::~AnnotationController() = default;

void AnnotationController::openForTrace(const QString& tracePath)
{
    rescueUnsaved();
    m_undo->clear();
    m_store = AnnotationStore::openForTrace(tracePath.toStdString());
    m_tracePath = tracePath;
    m_selected.clear();
    m_lastProblem.clear();
    m_saveFailing = false;
    emit annotationsReset();
    emit selectionChanged(m_selected);
    if (const auto& error = m_store->loadError()) {
        QString message = tr("The notes file %1 could not be read (%2). It is left untouched.")
                              .arg(qs(m_store->sidecarPath()), qs(error->toString()));
        if (m_store->savePath().empty())
            message += tr(" No free file name was found next to it: use File \u203a Save Notes As\u2026 to keep "
                          "new notes.");
        else if (m_store->loadedFrom().empty())
            message += tr(" New notes go to %1.").arg(qs(m_store->savePath()));
        else
            message += tr(" The notes of an earlier session were read from %1 and go on being saved there.")
                           .arg(qs(m_store->savePath()));
        m_lastProblem = message;
        emit notesRelocated(message);
    } else if (m_store->savesElsewhere()) {
        m_lastProblem = tr("The notes of this trace are saved to %1.").arg(qs(m_store->savePath()));
        emit notesRelocated(m_lastProblem);
    }
}

void AnnotationController::close()
{
    rescueUnsaved();
    m_undo->clear();
    m_store.reset();
    m_tracePath.clear();
    m_selected.clear();
    m_lastProblem.clear();
    m_saveFailing = false;
    emit annotationsReset();
    emit selectionChanged(m_selected);
}

const std::vector<Annotation>& AnnotationController::annotations() const
{
    static const std::vector<Annotation> none;
    return m_store ? m_store->annotations() : none;
}

const Annotation* AnnotationController::find(const QString& id) const
{
    return m_store ? m_store->find(id.toStdString()) : nullptr;
}

QString AnnotationController::savePath() const
{
    return m_store ? qs(m_store->savePath()) : QString();
}

QString AnnotationController::create(Annotation annotation, const QString& commandText)
{
    if (!m_store)
        return {};
    auto* command = new AddAnnotationCommand(this, std::move(annotation), commandText);
    m_undo->push(command); // runs redo(), which assigns the id
    return qs(command->noteId());
}

bool AnnotationController::edit(const Annotation& annotation, const QString& commandText)
{
    const Annotation* current = m_store ? m_store->find(annotation.id) : nullptr;
    if (!current)
        return false;
    Annotation compared = annotation;
    compared.modified = current->modified;
    if (compared == *current)
        return false;
    m_undo->push(new EditAnnotationCommand(this, *current, annotation, commandText));
    return true;
}

bool AnnotationController::remove(const QString& id)
{
    const auto position = m_store ? m_store->indexOf(id.toStdString()) : std::nullopt;
    if (!position)
        return false;
    m_undo->push(new RemoveAnnotationCommand(this, m_store->annotations()[*position], *position));
    return true;
}

bool AnnotationController::save()
{
    if (!m_store)
        return false;
    const auto written = m_store->save();
    if (!written) {
        m_lastProblem = tr("The notes could not be saved: %1. They are kept in memory; use File \u203a Save Notes "
                           "As\u2026 to write them to another file.")
                            .arg(qs(written.error().toString()));
        m_saveFailing = true;
        emit saveFailed(m_lastProblem);
        return false;
    }
    if (m_saveFailing)
        m_lastProblem.clear();
    m_saveFailing = false;
    emit saved(qs(m_store->savePath()));
    return true;
}

QString AnnotationController::rescueUnsaved()
{
    if (!m_store || !m_store->dirty() || save())
        return {};
    const QString folder
        = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/recovered-notes");
    QDir().mkpath(folder);
    const QString name = QFileInfo(m_tracePath).fileName() + QLatin1Char('-')
        + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss"))
        + QStringLiteral(".gapscope.json");
    const QString path = QDir(folder).filePath(name);
    if (!saveAs(path))
        return {};
    emit notesRelocated(
        tr("The notes of %1 could not be saved next to the trace; they were written to %2.").arg(m_tracePath, path));
    return path;
}

bool AnnotationController::saveAs(const QString& path)
{
    if (!m_store)
        return false;
    const auto written = m_store->saveAs(path.toStdString());
    if (!written) {
        m_lastProblem
            = tr("The notes could not be saved: %1. They are kept in memory.").arg(qs(written.error().toString()));
        m_saveFailing = true;
        emit saveFailed(m_lastProblem);
        return false;
    }
    m_lastProblem.clear();
    m_saveFailing = false;
    emit saved(qs(m_store->savePath()));
    return true;
}

void AnnotationController::select(const QString& id)
{
    const QString next = find(id) ? id : QString();
    if (next == m_selected)
        return;
    m_selected = next;
    emit selectionChanged(m_selected);
}

std::string AnnotationController::applyAdd(const Annotation& annotation)
{
    std::string id = m_store->add(annotation);
    changed();
    return id;
}

void AnnotationController::applyUpdate(const Annotation& annotation)
{
    m_store->update(annotation);
    changed();
}

void AnnotationController::applyRestore(const Annotation& annotation, std::optional<std::size_t> position)
{
    m_store->restore(annotation, position);
    changed();
}

void AnnotationController::applyRemove(const std::string& id)
{
    m_store->remove(id);
    if (m_selected == qs(id)) {
        m_selected.clear();
        emit selectionChanged(m_selected);
    }
    changed();
}

void AnnotationController::changed()
{
    // Every change is written at once: a crash or a closed window never loses more than nothing.
    save();
    emit annotationsChanged();
}

} // namespace gapscope::app
