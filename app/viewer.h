// SPDX-License-Identifier: MIT
#pragma once

namespace gapscope {

/// Runs the viewer: `gapscope [--demo] [--screenshot FILE] [--select-longest-gap] [--explain-longest-gap]
/// [--size WxH] [--compare NEW]... [TRACE...]`. Creates the QApplication, so call it only when no headless subcommand
/// was asked for (cli/command_line.h decides). Returns the process exit code.
int runViewer(int argc, char** argv);

} // namespace gapscope
