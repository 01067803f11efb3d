// SPDX-License-Identifier: MIT
#pragma once

// Undo commands for the notes: each applies its change through AnnotationController (which saves
// at once) and puts back exactly what was there before on undo (AnnotationStore::restore keeps the
// times and the place in the list).

#include "core/annotations/annotation.h"

#include <QUndoCommand>

#include <optional>

namespace gapscope::app {

class AnnotationController;

class AddAnnotationCommand : public QUndoCommand {
public:
    AddAnnotationCommand(AnnotationController* controller, Annotation annotation, const QString& text);
    void redo() override;
    void undo() override;
    /// The id the store gave the note (set by the first redo()).
    const std::string& noteId() const { return m_annotation.id; }

private:
    AnnotationController* m_controller;
    Annotation m_annotation;
    bool m_added = false;
};

class EditAnnotationCommand : public QUndoCommand {
public:
    EditAnnotationCommand(AnnotationController* controller, Annotation before, Annotation after, const QString& text);
    void redo() override;
    void undo() override;

private:
    AnnotationController* m_controller;
    Annotation m_before;
    Annotation m_after;
    bool m_applied = false;
};

class RemoveAnnotationCommand : public QUndoCommand {
public:
    RemoveAnnotationCommand(AnnotationController* controller, Annotation annotation, std::size_t position);
    void redo() override;
    void undo() override;

private:
    AnnotationController* m_controller;
    Annotation m_annotation;
    std::size_t m_position;
};

} // namespace gapscope::app
