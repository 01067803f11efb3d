// SPDX-License-Identifier: MIT
#pragma once

#include "core/annotations/annotation.h"
#include "core/annotations/annotation_json.h"
#include "core/annotations/notes_folders.h"
#include "core/io/common/io_error.h"

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

/// The annotations of one trace and the sidecar file that keeps them. Promises that a note is never
/// lost because of a file problem:
/// - save() replaces the file atomically and keeps the previous version at `<file>.bak`; when it fails
///   the file on disk is unchanged and the notes stay here (dirty() stays true) until save() or
///   saveAs() succeeds.
/// - A sidecar that cannot be read (broken JSON, not ours, written by a newer GapScope, unreadable) is
///   never written to: loadError() says why, and the notes go to `<trace>.gapscope-N.json` instead
///   (savePath(), savesElsewhere()), which is read back on the next open while the sidecar stays broken.
/// - The notes of a trace in a folder of the program (the bundled demo) or in a folder the user cannot write go to
///   the user's notes folder (sidecarPlaceFor, home()); notes an earlier version saved next to such a trace are
///   read from there and saved to the user folder from then on.
/// Editing does not save: the caller (the viewer, on every change) calls save(). Not thread-safe.
class AnnotationStore {
public:
    using Clock = std::function<std::chrono::system_clock::time_point()>;

    /// `<trace>.gapscope.json`.
    static std::string sidecarPathFor(const std::string& tracePath);
    /// `<trace>.gapscope-N.json` (N >= 1): where notes go while the sidecar cannot be read.
    static std::string alternatePathFor(const std::string& tracePath, int n);
    /// Reads one sidecar file. Errors name the file and the byte offset of the problem.
    static IoResult<AnnotationDocument> readFile(const std::string& path);

    /// An empty store that saves to `path` (nothing is read).
    explicit AnnotationStore(std::string path = {});
    /// The notes of a trace: its sidecar (sidecarPlaceFor(tracePath, folders)) when there is one. Never fails; see
    /// loadError().
    static AnnotationStore openForTrace(
        const std::string& tracePath, const NotesFolders& folders = NotesFolders::ofThisProgram());

    const std::vector<Annotation>& annotations() const { return m_document.annotations; }
    /// The annotation with this id, or null. The pointer is valid until the next change.
    const Annotation* find(std::string_view id) const;

    /// Adds a note and returns its id. Assigns a fresh id when it has none or one already taken, and
    /// created/modified when empty; puts the range in order (start <= end).
    std::string add(Annotation annotation);
    /// Replaces the note with the same id and sets its modified time. False when there is no such id.
    bool update(Annotation annotation);
    /// Removes a note. False when there is no such id.
    bool remove(std::string_view id);
    /// Puts back a note exactly as given (for undo: times untouched): replaces the one with its id, or
    /// inserts it at `position` (clamped; end when nullopt).
    void restore(Annotation annotation, std::optional<std::size_t> position = std::nullopt);
    /// Index of the note with this id in annotations(), for restore() after remove().
    std::optional<std::size_t> indexOf(std::string_view id) const;

    /// Writes every note to savePath() (atomically, the previous file kept at savePath() + ".bak").
    IoResult<void> save();
    /// Writes to `path` instead; on success later saves go there too.
    IoResult<void> saveAs(const std::string& path);

    /// Where save() writes.
    const std::string& savePath() const { return m_savePath; }
    /// The sidecar of the trace, next to it or in the user's notes folder (see home()); empty for a store not
    /// opened from a trace.
    const std::string& sidecarPath() const { return m_sidecarPath; }
    /// Why the sidecar is where it is.
    NotesHome home() const { return m_home; }
    /// True when the notes are not going to the sidecar (an alternate, or Save As): tell the user savePath().
    bool savesElsewhere() const { return !m_sidecarPath.empty() && m_savePath != m_sidecarPath; }
    /// Why the sidecar next to the trace was not read (it is left untouched), if it was not.
    const std::optional<IoError>& loadError() const { return m_loadError; }
    /// The file the notes were read from (empty when none was).
    const std::string& loadedFrom() const { return m_loadedFrom; }
    /// The last failed save's error, cleared by a successful one.
    const std::optional<IoError>& lastSaveError() const { return m_lastSaveError; }
    /// True when there are changes that no save has written yet.
    bool dirty() const { return m_dirty; }

    /// The clock for created/modified times (tests set a fixed one).
    void setClock(Clock clock) { m_clock = std::move(clock); }

private:
    std::string now() const;
    std::vector<Annotation>::iterator findMutable(std::string_view id);

    AnnotationDocument m_document;
    std::string m_sidecarPath;
    NotesHome m_home = NotesHome::NextToTrace;
    std::string m_savePath;
    std::string m_loadedFrom;
    std::optional<IoError> m_loadError;
    std::optional<IoError> m_lastSaveError;
    bool m_dirty = false;
    Clock m_clock;
};

} // namespace gapscope
