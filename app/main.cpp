// SPDX-License-Identifier: MIT
#include "app/cli/commands.h"

#include <iostream>
#include <string>
#include <vector>

namespace {

void printUsage(std::ostream& out)
{
    out << "GapScope " GAPSCOPE_VERSION " - GPU timeline viewer and idle-gap analysis\n\n"
           "Usage:\n"
           "  gapscope report [--json] [--window gpu|trace|steps|T0:T1] [--warmup N]\n"
           "                  [--activity all|kernels] [--launch-threshold-us N] [--top N] TRACE...\n"
           "  gapscope convert IN OUT\n"
           "  gapscope --help | --version\n";
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
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
    if (command == "report")
        return gapscope::cli::runReport(args, std::cout, std::cerr);
    if (command == "convert")
        return gapscope::cli::runConvert(args, std::cout, std::cerr);
    std::cerr << "gapscope: unknown command '" << command << "'\n\n";
    printUsage(std::cerr);
    return 2;
}
