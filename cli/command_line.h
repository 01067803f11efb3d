// SPDX-License-Identifier: MIT
#pragma once

// The whole command line of `gapscope`: the subcommands, or the viewer when the executable was built with one.
// The viewer needs Qt, which gapscope_cli does not link, so the executable hands it in here: the one place the
// command line reaches the viewer.

#include "cli/export_options.h"

#include <functional>
#include <string>
#include <vector>

namespace gapscope::cli {

/// What the executable built with the viewer hands to runCommandLine().
struct ViewerEntry {
    /// Runs the viewer on the program's own command line (it creates the QApplication); returns the exit code.
    std::function<int(int argc, char** argv)> run;
    /// Draws `gapscope export --png` with the viewer's renderer.
    PngExporter exportPicture;
};

/// Whether a command line (without the program name) asks for the viewer rather than a headless
/// subcommand: no arguments, the viewer's own options (--demo, --screenshot, ...), or a first
/// argument naming an existing file or folder (a folder of repeated runs) that is not a subcommand's name.
bool isViewerCommandLine(const std::vector<std::string>& args);

/// Runs `gapscope ARGS...`: a subcommand, --help, --version, --has-gui, or (when `viewer` is not null) the viewer
/// and `gapscope -- PROGRAM [ARGS...]` (record, then view). Returns the process exit code.
int runCommandLine(int argc, char** argv, const ViewerEntry* viewer);

} // namespace gapscope::cli
