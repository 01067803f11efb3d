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
    openForTraces({ tracePath.toStdString() }, nullptr);
}

void AnnotationController::openForTraces(const std::vector<std::string>& tracePaths, const Trace* trace)
{
    rescueUnsaved();
    m_undo->clear();
    m_notes = NotesByFile::openForTraces(tracePaths, trace, NotesFolders::ofThisProgram());
    m_tracePath = tracePaths.empty() ? QString() : qs(tracePaths.front());
    m_selected.clear();
    m_lastProblem.clear();
    m_saveFailing = false;
    emit annotationsReset();
    emit selectionChanged(m_selected);
    reportLoadProblems();
}

void AnnotationController::reportLoadProblems()
{
    QStringList messages;
    for (std::size_t file = 0; file < m_notes->fileCount(); ++file) {
        const AnnotationStore& store = m_notes->store(file);
        if (const auto& error = store.loadError()) {
            QString message = tr("The notes file %1 could not be read (%2). It is left untouched.")
                                  .arg(qs(store.sidecarPath()), qs(error->toString()));
            if (store.savePath().empty())
                message += tr(" No free file name was found next to it: use File \u203a Save Notes As\u2026 to "
                              "keep new notes.");
            else if (store.loadedFrom().empty())
                message += tr(" New notes go to %1.").arg(qs(store.savePath()));
            else
                message += tr(" The notes of an earlier session were read from %1 and go on being saved there.")
                               .arg(qs(store.savePath()));
            messages << message;
        } else if (store.savesElsewhere()) {
            messages << tr("The notes of %1 are saved to %2.")
                            .arg(m_notes->fileCount() > 1 ? QFileInfo(qs(m_notes->tracePath(file))).fileName()
                                                          : tr("this trace"),
                                qs(store.savePath()));
        }
    }
    if (messages.isEmpty())
        return;
    m_lastProblem = messages.join(QLatin1Char('\n'));
    emit notesRelocated(m_lastProblem);
}

void AnnotationController::close()
{
    rescueUnsaved();
    m_undo->clear();
    m_notes.reset();
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
    return m_notes ? m_notes->annotations() : none;
}

const Annotation* AnnotationController::find(const QString& id) const
{
    return m_notes ? m_notes->find(id.toStdString()) : nullptr;
}

std::size_t AnnotationController::saveAsFile() const
{
    for (std::size_t file = 0; file < m_notes->fileCount(); ++file) {
        if (m_notes->store(file).lastSaveError() || m_notes->store(file).savePath().empty())
            return file;
    }
    return 0;
}

QString AnnotationController::savePath() const
{
    return m_notes && m_notes->fileCount() > 0 ? qs(m_notes->store(saveAsFile()).savePath()) : QString();
}

NotesHome AnnotationController::savePathHome() const
{
    if (!m_notes || m_notes->fileCount() == 0)
        return NotesHome::NextToTrace;
    const AnnotationStore& store = m_notes->store(saveAsFile());
    return store.savePath() == store.sidecarPath() ? store.home() : NotesHome::NextToTrace;
}

QStringList AnnotationController::savePaths() const
{
    QStringList paths;
    for (std::size_t file = 0; m_notes && file < m_notes->fileCount(); ++file)
        paths << qs(m_notes->store(file).savePath());
    return paths;
}

QString AnnotationController::create(Annotation annotation, const QString& commandText)
{
    if (!m_notes || m_notes->fileCount() == 0)
        return {};
    auto* command = new AddAnnotationCommand(this, std::move(annotation), commandText);
    m_undo->push(command); // runs redo(), which assigns the id
    return qs(command->noteId());
}

bool AnnotationController::edit(const Annotation& annotation, const QString& commandText)
{
    const Annotation* current = m_notes ? m_notes->find(annotation.id) : nullptr;
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
    const auto position = m_notes ? m_notes->indexOf(id.toStdString()) : std::nullopt;
    if (!position)
        return false;
    m_undo->push(new RemoveAnnotationCommand(this, m_notes->annotations()[*position], *position));
    return true;
}

bool AnnotationController::save()
{
    if (!m_notes)
        return false;
    // Only the files with changes are written; each failure names its file.
    std::vector<std::string> written;
    for (std::size_t file = 0; file < m_notes->fileCount(); ++file) {
        if (m_notes->store(file).dirty())
            written.push_back(m_notes->store(file).savePath());
    }
    const auto failures = m_notes->save();
    if (!failures.empty()) {
        for (const NotesByFile::SaveFailure& failure : failures) {
            m_lastProblem = tr("The notes could not be saved: %1. They are kept in memory; use File \u203a Save "
                               "Notes As\u2026 to write them to another file.")
                                .arg(qs(failure.error.toString()));
            emit saveFailed(m_lastProblem);
        }
        m_saveFailing = true;
        return false;
    }
    if (m_saveFailing)
        m_lastProblem.clear();
    m_saveFailing = false;
    for (const std::string& path : written)
        emit saved(qs(path));
    return true;
}

QString AnnotationController::rescueUnsaved()
{
    if (!m_notes || !m_notes->dirty() || save())
        return {};
    const QString folder
        = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/recovered-notes");
    QDir().mkpath(folder);
    QString rescued;
    for (std::size_t file = 0; file < m_notes->fileCount(); ++file) {
        AnnotationStore& store = m_notes->store(file);
        if (!store.dirty())
            continue;
        const QString tracePath = qs(m_notes->tracePath(file));
        const QString name = QFileInfo(tracePath).fileName() + QLatin1Char('-')
            + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss"))
            + QStringLiteral(".gapscope.json");
        const QString path = QDir(folder).filePath(name);
        if (!store.saveAs(path.toStdString()))
            continue;
        rescued = path;
        emit notesRelocated(
            tr("The notes of %1 could not be saved next to the trace; they were written to %2.").arg(tracePath, path));
    }
    return rescued;
}

bool AnnotationController::saveAs(const QString& path)
{
    if (!m_notes || m_notes->fileCount() == 0)
        return false;
    AnnotationStore& store = m_notes->store(saveAsFile());
    const auto written = store.saveAs(path.toStdString());
    if (!written) {
        m_lastProblem
            = tr("The notes could not be saved: %1. They are kept in memory.").arg(qs(written.error().toString()));
        m_saveFailing = true;
        emit saveFailed(m_lastProblem);
        return false;
    }
    m_lastProblem.clear();
    m_saveFailing = m_notes->dirty();
    emit saved(qs(store.savePath()));
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
    std::string id = m_notes->add(annotation);
    changed();
    return id;
}

void AnnotationController::applyUpdate(const Annotation& annotation)
{
    m_notes->update(annotation);
    changed();
}

void AnnotationController::applyRestore(const Annotation& annotation, std::optional<std::size_t> position)
{
    m_notes->restore(annotation, position);
    changed();
}

void AnnotationController::applyRemove(const std::string& id)
{
    m_notes->remove(id);
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
