// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace gapscope {

/// Where the notes of a trace are kept (AnnotationStore::openForTrace).
enum class NotesHome {
    /// `<trace>.gapscope.json`, next to the trace: the rule, so that notes travel with the trace.
    NextToTrace,
    /// The trace lies in a folder of the program (the bundled demo): the user folder, so that the program's
    /// folder is never written to.
    ProgramFolder,
    /// The user cannot write to the trace's folder: the user folder.
    ReadOnlyFolder,
};

/// The folders that decide where notes go when they cannot, or must not, be kept next to the trace.
struct NotesFolders {
    /// The user's notes folder; empty: none (notes always go next to the trace).
    std::string user;
    /// Folders that belong to the program (where the bundled demo trace lies).
    std::vector<std::string> program;

    /// `$XDG_DATA_HOME/gapscope/notes` (an absolute XDG_DATA_HOME only, as the XDG base directory rules say),
    /// else `$HOME/.local/share/gapscope/notes`; no program folders. `user` is empty when neither is set.
    static NotesFolders fromEnvironment();
    /// fromEnvironment() with the program's own folders (bundledDemoFolders()): where the viewer, `export`,
    /// `whatif --note` and `diff --note` all look for a trace's notes, so that they agree on the demo's.
    static NotesFolders ofThisProgram();
};

/// The sidecar a trace's notes are read from and saved to, and why there.
struct SidecarPlace {
    std::string path;
    NotesHome home = NotesHome::NextToTrace;
};

/// Next to the trace unless its folder is one of `folders.program` or the user cannot write to it (and
/// `folders.user` is set). In the user folder a program's trace keeps its file name (the demo's notes are the
/// same wherever the program is installed); a trace of a read-only folder gets the folder's hash after its name,
/// so that two such traces of the same name keep their notes apart.
SidecarPlace sidecarPlaceFor(const std::string& tracePath, const NotesFolders& folders);

} // namespace gapscope
