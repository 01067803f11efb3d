// SPDX-License-Identifier: MIT
#pragma once

// The demo trace that comes with the program, and the folders it may lie in. Those folders belong to the program:
// nothing is ever written there (a note on the demo goes to the user's notes folder, NotesFolders).

#include <string>
#include <vector>

namespace gapscope {

/// The demo trace's file name.
inline constexpr const char* kBundledDemoFile = "resnet50_num_workers_0.pt.trace.json.gz";

/// Where the demo may lie, in the order it is looked for: installed (`<program's folder>/../share/gapscope/demo`),
/// then, for a program run from its build folder, the source tree's `resources/demo`. Folders that do not exist
/// are listed too: they are compared with a trace's folder, never written to.
std::vector<std::string> bundledDemoFolders();

/// The first of bundledDemoFolders() that holds the demo trace: its path, cleaned; "" when none does.
std::string bundledDemoTrace();

} // namespace gapscope
