// SPDX-License-Identifier: MIT
#pragma once

namespace gapscope {

/// One option of the viewer's command line, declared here only: runViewer() builds its parser from
/// kViewerOptions, and the command line (cli/command_line.cpp) reads the same list to tell a viewer command line
/// from a subcommand. Qt-free, so that the command line can read it without linking the viewer.
struct ViewerOption {
    const char* name; // without the leading "--"
    const char* valueName; // nullptr: a flag
    const char* help;
};

inline constexpr ViewerOption kViewerOptions[] = {
    { "demo", nullptr, "Open the bundled demo trace." },
    { "screenshot", "FILE", "Save a picture of the window once loaded, then quit." },
    { "select-longest-gap", nullptr, "Select the longest gap once loaded." },
    { "explain-longest-gap", nullptr,
        "Write a note about the longest gap once loaded (saved next to the trace, or for the demo in the user's notes "
        "folder)." },
    { "size", "WxH", "Window size." },
    { "compare", "NEW", "Compare the trace(s) with this run (NEW), shown under them; repeat for the ranks of a job." },
};

/// Runs the viewer: `gapscope [--demo] [--screenshot FILE] [--select-longest-gap] [--explain-longest-gap]
/// [--size WxH] [--compare NEW]... [TRACE...]`. Creates the QApplication, so call it only when no headless subcommand
/// was asked for (cli/command_line.h decides). Returns the process exit code.
int runViewer(int argc, char** argv);

} // namespace gapscope
