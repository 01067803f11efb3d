// SPDX-License-Identifier: MIT
// gapscope: the subcommands, and the viewer when it is built (GAPSCOPE_HAVE_GUI): the executable is the only
// part that links both, so it hands the viewer to the command line here.
#include "cli/command_line.h"
#ifdef GAPSCOPE_HAVE_GUI
#include "app/export/cli_picture_exporter.h"
#include "app/viewer.h"
#endif

int main(int argc, char** argv)
{
#ifdef GAPSCOPE_HAVE_GUI
    const gapscope::cli::ViewerEntry viewer { gapscope::runViewer, gapscope::picture::exportPictureForCli };
    return gapscope::cli::runCommandLine(argc, argv, &viewer);
#else
    return gapscope::cli::runCommandLine(argc, argv, nullptr);
#endif
}
