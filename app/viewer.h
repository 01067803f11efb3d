// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace gapscope {

/// Whether a command line (without the program name) asks for the viewer rather than a headless
/// subcommand: no arguments, the viewer's own options (--demo, --screenshot, ...), or a first
/// argument naming an existing file.
bool isViewerCommandLine(const std::vector<std::string>& args);

/// Runs the viewer: `gapscope [--demo] [--screenshot FILE] [--select-longest-gap] [--explain-longest-gap]
/// [--size WxH] [--compare NEW]... [TRACE...]`. Creates the QApplication, so call it only when no headless subcommand
/// was asked for. Returns the process exit code.
int runViewer(int argc, char** argv);

} // namespace gapscope
