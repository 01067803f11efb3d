// SPDX-License-Identifier: MIT
#include "cli/command_line.h"

#include "cli/commands.h"
// The viewer's option list only (a Qt-free header): which first arguments ask for the viewer.
#include "app/viewer.h"
#include "core/io/native/native_format.h"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gapscope::cli {

namespace {

using Command = int (*)(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

struct CommandEntry {
    std::string_view name;
    Command run;
    /// Its help, made from the declarations its parser reads with.
    CommandHelp (*help)();
};

// Each subcommand, the function that runs it and its help (commands.h), in the order `gapscope --help` lists them.
constexpr CommandEntry kCommands[] = {
    { "report", runReport, reportHelp },
    { "diff", runDiff, diffHelp },
    { "summarize", runSummarize, summarizeHelp },
    { "job", runJob, jobHelp },
    { "critical-path", runCriticalPath, criticalPathHelp },
    { "whatif", runWhatIf, whatIfHelp },
    { "convert", runConvert, convertHelp },
    { "record", runRecord, recordHelp },
    { "export", runExport, exportHelp },
};

// Each command's summary and forms, as its own --help gives them.
void printUsage(std::ostream& out)
{
    out << "GapScope " GAPSCOPE_VERSION " - GPU timeline viewer and idle-gap analysis\n\n"
           "Usage:\n"
           "  gapscope [--demo] [TRACE...]   open the viewer (when built with Qt 6)\n"
           "  gapscope RANK.summary.json...  open rank summaries as a job (Job overview, Ranks dock; no lanes)\n"
           "  gapscope BASE... --compare NEW  open BASE with NEW under it, aligned on a step, and their diff\n"
           "  gapscope -- PROGRAM [ARGS...]  record PROGRAM, then open the recording in the viewer\n"
           "  gapscope --help | --version\n"
           "  gapscope COMMAND --help        one command's options and what each does\n";
    out << "\nViewer options:\n";
    for (const ViewerOption& option : kViewerOptions) {
        std::string name
            = std::string("--") + option.name + (option.valueName ? std::string(" ") + option.valueName : "");
        name.resize(std::max<std::size_t>(name.size() + 1, 26), ' ');
        out << "  " << name << option.help << "\n";
    }
    for (const CommandEntry& command : kCommands) {
        const CommandHelp help = command.help();
        out << "\n  " << help.name << ": " << help.summary << "\n";
        for (std::size_t begin = 0; begin < help.usage.size();) {
            const std::size_t end = help.usage.find('\n', begin);
            out << "    " << help.usage.substr(begin, end - begin + 1);
            begin = end + 1;
        }
    }
}

// `gapscope -- PROGRAM [ARGS...]`: records the program (as `gapscope record` does), then opens the
// recording in the viewer.
int recordThenView(const std::vector<std::string>& args, char* program, const ViewerEntry& viewer)
{
    const std::time_t now = std::time(nullptr);
    std::tm local {};
    localtime_r(&now, &local);
    char stamp[32];
    std::strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &local);
    std::string output = std::string("gapscope-") + stamp + native::kFileExtension;
    std::vector<std::string> recordArgs { "-o", output };
    recordArgs.insert(recordArgs.end(), args.begin(), args.end());
    const int status = runRecord(recordArgs, std::cout, std::cerr);
    std::error_code error;
    if (!std::filesystem::is_regular_file(output, error))
        return status;
    char* viewerArgv[] = { program, output.data(), nullptr };
    return viewer.run(2, viewerArgv);
}

} // namespace

bool isViewerCommandLine(const std::vector<std::string>& args)
{
    if (args.empty())
        return true;
    const std::string& first = args[0];
    for (const ViewerOption& declared : kViewerOptions) {
        const std::string option = std::string("--") + declared.name;
        if (first == option || first.rfind(option + "=", 0) == 0)
            return true;
    }
    std::error_code error;
    if (std::filesystem::is_regular_file(first, error))
        return true;
    // A folder of repeated runs (or of a job's ranks) opens in the viewer too, unless its name is a subcommand's.
    for (const CommandEntry& entry : kCommands) {
        if (first == entry.name)
            return false;
    }
    return std::filesystem::is_directory(first, error);
}

int runCommandLine(int argc, char** argv, const ViewerEntry* viewer)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (viewer) {
        if (!args.empty() && args[0] == "--")
            return recordThenView(args, argv[0], *viewer);
        // No subcommand: the viewer, `gapscope [TRACE...]`. Subcommands below never create a QApplication.
        if (isViewerCommandLine(args))
            return viewer->run(argc, argv);
        // `gapscope export --png`: drawn by the viewer's renderer, headless.
        setPngExporter(viewer->exportPicture);
    }
    if (!args.empty() && args[0] == "--has-gui")
        return viewer ? 0 : 1;
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
    for (const CommandEntry& entry : kCommands) {
        if (command != entry.name)
            continue;
        if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
            std::cout << entry.help().text;
            return 0;
        }
        return entry.run(args, std::cout, std::cerr);
    }
    std::cerr << "gapscope: unknown command '" << command << "'\n\n";
    printUsage(std::cerr);
    return 2;
}

} // namespace gapscope::cli
