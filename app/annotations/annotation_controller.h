// SPDX-License-Identifier: MIT
#pragma once

// The notes of the trace on screen: its AnnotationStore, the undo history of the changes made to it,
// and the saving after every change. Widgets (dock, editor, timeline) read the store and ask for
// changes here; every change is an undo command and is written to disk at once. Problems with the
// sidecar are reported by signal with a message that names the file; nothing here opens a dialog.

#include "core/annotations/annotation_store.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

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
    /// No trace: no notes (the undo history is cleared).
    void close();
    bool isOpen() const { return m_store.has_value(); }
    QString tracePath() const { return m_tracePath; }

    /// The store of the trace on screen; null when none is open.
    const AnnotationStore* store() const { return m_store ? &*m_store : nullptr; }
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

    /// Writes the notes to `path`; later saves go there too. On failure saveFailed() is emitted.
    bool saveAs(const QString& path);
    /// Writes the notes where they go now (called after every change). On failure saveFailed().
    bool save();
    /// Whether some change has not been written yet (a save failed).
    bool hasUnsavedChanges() const { return m_store && m_store->dirty(); }
    /// When changes could not be written (a failed save): writes the notes to a recovery file in the
    /// user's data folder so that opening another trace or closing the window loses nothing, and tells
    /// the user where with notesRelocated(). Returns that path; "" when nothing was pending or it failed.
    QString rescueUnsaved();
    /// Where the notes are written now ("" when nowhere: Save notes as... is needed).
    QString savePath() const;
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

    std::optional<AnnotationStore> m_store;
    QString m_tracePath;
    QString m_selected;
    QString m_lastProblem;
    bool m_saveFailing = false;
    QUndoStack* m_undo;
};

} // namespace gapscope::app
