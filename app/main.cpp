// SPDX-License-Identifier: MIT
#include "app/cli/command_usage.h"
#include "app/cli/commands.h"
#ifdef GAPSCOPE_HAVE_GUI
#include "app/cli/export_options.h"
#include "app/export/cli_picture_exporter.h"
#include "app/viewer.h"
#include "core/io/native/native_format.h"

#include <ctime>
#include <filesystem>
#endif

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

namespace {

// Composed from each command's own usage (app/cli/command_usage.cpp), so that the two never drift.
void printUsage(std::ostream& out)
{
    out << "GapScope " GAPSCOPE_VERSION " - GPU timeline viewer and idle-gap analysis\n\n"
           "Usage:\n"
           "  gapscope [--demo] [TRACE...]   open the viewer (when built with Qt 6)\n"
           "  gapscope RANK.summary.json...  open rank summaries as a job (Job overview, Ranks dock; no lanes)\n"
           "  gapscope BASE... --compare NEW  open BASE with NEW under it, aligned on a step, and their diff\n"
           "  gapscope -- PROGRAM [ARGS...]  record PROGRAM, then open the recording in the viewer\n"
           "  gapscope --help | --version\n"
           "  gapscope COMMAND --help        the usage of one command\n";
    for (const gapscope::cli::CommandUsage& command : gapscope::cli::commandUsages()) {
        out << "\n  " << command.name << ": " << command.summary << "\n";
        for (std::size_t begin = 0; begin < command.forms.size();) {
            const std::size_t end = command.forms.find('\n', begin);
            out << "    " << command.forms.substr(begin, end - begin + 1);
            begin = end + 1;
        }
    }
}

#ifdef GAPSCOPE_HAVE_GUI
// `gapscope -- PROGRAM [ARGS...]`: records the program (as `gapscope record` does), then opens the
// recording in the viewer.
int recordThenView(const std::vector<std::string>& args, char* program)
{
    const std::time_t now = std::time(nullptr);
    std::tm local {};
    localtime_r(&now, &local);
    char stamp[32];
    std::strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &local);
    std::string output = std::string("gapscope-") + stamp + gapscope::native::kFileExtension;
    std::vector<std::string> recordArgs { "-o", output };
    recordArgs.insert(recordArgs.end(), args.begin(), args.end());
    const int status = gapscope::cli::runRecord(recordArgs, std::cout, std::cerr);
    std::error_code error;
    if (!std::filesystem::is_regular_file(output, error))
        return status;
    char* viewerArgv[] = { program, output.data(), nullptr };
    return gapscope::runViewer(2, viewerArgv);
}
#endif

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
#ifdef GAPSCOPE_HAVE_GUI
    if (!args.empty() && args[0] == "--")
        return recordThenView(args, argv[0]);
    // No subcommand: the viewer, `gapscope [TRACE...]`. Subcommands below never create a QApplication.
    if (gapscope::isViewerCommandLine(args))
        return gapscope::runViewer(argc, argv);
    const bool hasGui = true;
    // `gapscope export --png`: drawn by the viewer's renderer, headless.
    gapscope::cli::setPngExporter(gapscope::picture::exportPictureForCli);
#else
    const bool hasGui = false;
#endif
    if (!args.empty() && args[0] == "--has-gui")
        return hasGui ? 0 : 1;
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        printUsage(std::cout);
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version") {
        std::cout << "gapscope " GAPSCOPE_VERSION "\n";
        return 0;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    const auto& commands = gapscope::cli::commandUsages();
    const bool known = std::any_of(commands.begin(), commands.end(), [&](const auto& c) { return c.name == command; });
    if (known && args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
        std::cout << gapscope::cli::usageText(command);
        return 0;
    }
    if (command == "report")
        return gapscope::cli::runReport(args, std::cout, std::cerr);
    if (command == "diff")
        return gapscope::cli::runDiff(args, std::cout, std::cerr);
    if (command == "summarize")
        return gapscope::cli::runSummarize(args, std::cout, std::cerr);
    if (command == "job")
        return gapscope::cli::runJob(args, std::cout, std::cerr);
    if (command == "convert")
        return gapscope::cli::runConvert(args, std::cout, std::cerr);
    if (command == "export")
        return gapscope::cli::runExport(args, std::cout, std::cerr);
    if (command == "record")
        return gapscope::cli::runRecord(args, std::cout, std::cerr);
    std::cerr << "gapscope: unknown command '" << command << "'\n\n";
    printUsage(std::cerr);
    return 2;
}
