// SPDX-License-Identifier: MIT
#include "app/annotations/annotation_commands.h"

#include "app/annotations/annotation_controller.h"

namespace gapscope::app {

AddAnnotationCommand::AddAnnotationCommand(AnnotationController* controller, Annotation annotation, const QString& text)
    : QUndoCommand(text)
    , m_controller(controller)
    , m_annotation(std::move(annotation))
{ }

void AddAnnotationCommand::redo()
{
    if (!m_added) {
        // The store assigns the id and the times; keep the note as stored so that redo after undo
        // brings back the same note, not a new one.
        const std::string id = m_controller->applyAdd(m_annotation);
        if (const Annotation* stored = m_controller->notes()->find(id))
            m_annotation = *stored;
        m_added = true;
        return;
    }
    m_controller->applyRestore(m_annotation, std::nullopt);
}

void AddAnnotationCommand::undo()
{
    m_controller->applyRemove(m_annotation.id);
}

EditAnnotationCommand::EditAnnotationCommand(
    AnnotationController* controller, Annotation before, Annotation after, const QString& text)
    : QUndoCommand(text)
    , m_controller(controller)
    , m_before(std::move(before))
    , m_after(std::move(after))
{ }

void EditAnnotationCommand::redo()
{
    if (!m_applied) {
        // update() stamps the modified time; remember the result so that redo restores it unchanged.
        m_controller->applyUpdate(m_after);
        if (const Annotation* stored = m_controller->notes()->find(m_after.id))
            m_after = *stored;
        m_applied = true;
        return;
    }
    m_controller->applyRestore(m_after, std::nullopt);
}

void EditAnnotationCommand::undo()
{
    m_controller->applyRestore(m_before, std::nullopt);
}

RemoveAnnotationCommand::RemoveAnnotationCommand(
    AnnotationController* controller, Annotation annotation, std::size_t position)
    : QUndoCommand(QObject::tr("Delete note \u201c%1\u201d").arg(QString::fromStdString(annotation.title)))
    , m_controller(controller)
    , m_annotation(std::move(annotation))
    , m_position(position)
{ }

void RemoveAnnotationCommand::redo()
{
    m_controller->applyRemove(m_annotation.id);
}

void RemoveAnnotationCommand::undo()
{
    m_controller->applyRestore(m_annotation, m_position);
}

} // namespace gapscope::app
