// SPDX-License-Identifier: MIT
#pragma once

// The notes of the trace on screen: one AnnotationStore per trace file (NotesByFile: a note is kept with the
// file whose lanes it was made on), the undo history of the changes made to them, and the saving after every
// change. Widgets (dock, editor, timeline) read the store and ask for
// changes here; every change is an undo command and is written to disk at once. Problems with the
// sidecar are reported by signal with a message that names the file; nothing here opens a dialog.

#include "core/annotations/notes_by_file.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <string>
#include <vector>

class QUndoStack;

namespace gapscope::app {

class AnnotationController : public QObject {
    Q_OBJECT
public:
    explicit AnnotationController(QObject* parent = nullptr);
    ~AnnotationController() override;

    /// Opens the notes of the trace file `tracePath` (AnnotationStore::openForTrace) and clears the undo
    /// history. Reports an unreadable sidecar or notes going elsewhere with notesRelocated().
    void openForTrace(const QString& tracePath);
    /// Opens the notes of each of the files a trace was loaded from (NotesByFile::openForTraces; `trace`,
    /// which may be null, routes new notes to the file of their lanes). Reports each unreadable sidecar. The
    /// notes of the bundled demo go to the user's notes folder (NotesFolders::ofThisProgram(), read at each open).
    void openForTraces(const std::vector<std::string>& tracePaths, const Trace* trace);
    /// Why the notes of the file Save Notes As would write go where they go (NextToTrace when none is open).
    NotesHome savePathHome() const;
    /// No trace: no notes (the undo history is cleared).
    void close();
    bool isOpen() const { return m_notes.has_value(); }
    QString tracePath() const { return m_tracePath; }

    /// The notes of the trace on screen, by file; null when none is open.
    const NotesByFile* notes() const { return m_notes ? &*m_notes : nullptr; }
    /// The notes, empty when none is open.
    const std::vector<Annotation>& annotations() const;
    const Annotation* find(const QString& id) const;
    QUndoStack* undoStack() const { return m_undo; }

    /// Adds a note (undoable) and saves; returns its id (empty when no trace is open).
    QString create(Annotation annotation, const QString& commandText);
    /// Replaces the note with the same id (undoable) and saves. False when it does not exist or is
    /// unchanged (then no command is made).
    bool edit(const Annotation& annotation, const QString& commandText);
    /// Deletes a note (undoable) and saves. False when it does not exist.
    bool remove(const QString& id);

    /// Writes the notes of one file to `path`: the first file whose save failed, else the first file. Later
    /// saves of that file go there too. On failure saveFailed() is emitted.
    bool saveAs(const QString& path);
    /// Writes the notes of every file with changes where they go now (called after every change). For each
    /// file that fails, saveFailed() names it.
    bool save();
    /// Whether some change has not been written yet (a save failed).
    bool hasUnsavedChanges() const { return m_notes && m_notes->dirty(); }
    /// When changes could not be written (a failed save): writes each such file's notes to a recovery file
    /// in the user's data folder so that opening another trace or closing the window loses nothing, and tells
    /// the user where with notesRelocated(). Returns the last path; "" when nothing was pending or it failed.
    QString rescueUnsaved();
    /// Where the notes of the file Save Notes As would write are written now ("" when nowhere: Save notes
    /// as... is needed).
    QString savePath() const;
    /// Where the notes of each trace file are written ("" for a file whose notes go nowhere).
    QStringList savePaths() const;
    /// The last problem told to the user (a failed save, an unreadable sidecar); empty when none.
    QString lastProblem() const { return m_lastProblem; }

    /// The note shown in the dock and the editor ("" for none).
    QString selectedId() const { return m_selected; }
    void select(const QString& id);

    // For the undo commands: apply a change to the store, save, tell the widgets.
    std::string applyAdd(const Annotation& annotation);
    void applyUpdate(const Annotation& annotation);
    void applyRestore(const Annotation& annotation, std::optional<std::size_t> position);
    void applyRemove(const std::string& id);

signals:
    /// Another trace's notes (or none) are now in the store.
    void annotationsReset();
    /// A note was added, changed or removed (also by undo/redo).
    void annotationsChanged();
    void selectionChanged(const QString& id);
    /// A save succeeded; `path` is the file written.
    void saved(const QString& path);
    /// A save failed: `message` names the file and says that the notes are kept in memory.
    void saveFailed(const QString& message);
    /// The sidecar next to the trace could not be read, or the notes go to another file: `message` says
    /// why and where they go.
    void notesRelocated(const QString& message);

private:
    void changed();
    void reportLoadProblems();
    std::size_t saveAsFile() const;

    std::optional<NotesByFile> m_notes;
    QString m_tracePath;
    QString m_selected;
    QString m_lastProblem;
    bool m_saveFailing = false;
    QUndoStack* m_undo;
};

} // namespace gapscope::app
