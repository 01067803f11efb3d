// SPDX-License-Identifier: MIT
#pragma once

#include "core/annotations/annotation_store.h"
#include "core/model/trace.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

/// The notes of a trace loaded from several files (the ranks of one job, loadTraceFiles): one AnnotationStore
/// per file, saving to that file's sidecar, so that a note made on rank 1's lanes is kept with rank 1's file
/// and is there again when that file is opened alone or with the others in any order.
///
/// A note belongs to the file of the process its first lane names (LaneIdentity::pid), or failing lanes, of
/// its gap's process; a note with neither (a range over the whole job) belongs to the first file. A note read
/// from a file's sidecar stays with that file. Lanes are named by pid, which loadTraceFiles keeps as each file
/// has it (the merge renumbers process, device and lane indices, never pids), so a note lands on its file's
/// lanes whatever the order of the files. Precondition for that: the files do not share a pid (when two do,
/// their notes go to the first of them).
///
/// Each store keeps AnnotationStore's promises (atomic saves, `.bak`, a broken sidecar left untouched); save()
/// writes only the files with changes and names each that fails. Not thread-safe.
class NotesByFile {
public:
    /// A failed save: the file (index into the trace files) whose notes stay in memory, and why.
    struct SaveFailure {
        std::size_t file = 0;
        IoError error;
    };

    /// Opens the sidecar of each of `tracePaths` (AnnotationStore::openForTrace). `trace` (may be null) is the
    /// trace loaded from them: the pids of its processes, by Process::sourceFile, route new notes to files.
    static NotesByFile openForTraces(const std::vector<std::string>& tracePaths, const Trace* trace,
        const NotesFolders& folders = NotesFolders::ofThisProgram());

    std::size_t fileCount() const { return m_stores.size(); }
    const std::string& tracePath(std::size_t file) const { return m_paths[file]; }
    const AnnotationStore& store(std::size_t file) const { return m_stores[file]; }
    AnnotationStore& store(std::size_t file) { return m_stores[file]; }

    /// Every note, file by file in the order of the trace files, each file's in its sidecar's order.
    const std::vector<Annotation>& annotations() const { return m_all; }
    /// The note with this id, or null. The pointer is valid until the next change.
    const Annotation* find(std::string_view id) const;
    /// Index of the note in annotations().
    std::optional<std::size_t> indexOf(std::string_view id) const;
    /// The file the note with this id is kept with.
    std::optional<std::size_t> fileOf(std::string_view id) const;
    /// The file a new note goes to (see the class comment).
    std::size_t fileFor(const Annotation& note) const;
    /// The file a process was loaded from (by pid); nullopt when no file has it.
    std::optional<std::size_t> fileOfPid(std::int64_t pid) const;

    /// Adds a note to the store of fileFor(note); returns its id, unique among all files' notes.
    std::string add(Annotation annotation);
    /// Replaces the note with the same id in its file's store. False when there is no such id.
    bool update(Annotation annotation);
    /// Removes a note. False when there is no such id.
    bool remove(std::string_view id);
    /// Puts back a note exactly as given (undo): replaces the one with its id, or inserts it at `position` of
    /// annotations() (clamped; the end of its file's notes when nullopt), in the file it was removed from
    /// (fileFor() for a note never seen).
    void restore(Annotation annotation, std::optional<std::size_t> position = std::nullopt);

    /// Saves every file whose notes changed. Returns the files that failed (their notes stay in memory).
    std::vector<SaveFailure> save();
    /// True when some file has changes that no save has written yet.
    bool dirty() const;

    /// The clock for created/modified times (tests set a fixed one).
    void setClock(const AnnotationStore::Clock& clock);

private:
    void rebuild();

    std::vector<std::string> m_paths;
    std::vector<AnnotationStore> m_stores;
    std::map<std::int64_t, std::size_t> m_fileOfPid;
    /// Files of removed notes, so that undo puts a note back where it was.
    std::map<std::string, std::size_t, std::less<>> m_removedFrom;
    std::vector<Annotation> m_all;
    std::vector<std::size_t> m_fileOfNote; // parallel to m_all
};

} // namespace gapscope
