// SPDX-License-Identifier: MIT
#include "cli/commands.h"
#include "core/io/trace_file.h"

namespace gapscope::cli {

namespace {

ArgumentSpec convertArguments(std::vector<std::string>& files)
{
    ArgumentSpec spec("convert", "any trace GapScope reads to Chrome trace-event JSON");
    spec.positional("IN OUT",
        "IN: a trace GapScope reads (.json, .json.gz, .gapscope, an Nsight Systems .sqlite export or .nsys-rep "
        "report)\nOUT: .json or .json.gz (Chrome trace-event JSON in the Kineto dialect)",
        [&](const std::string& file) { files.push_back(file); });
    return spec;
}

} // namespace

CommandHelp convertHelp()
{
    std::vector<std::string> files;
    return convertArguments(files).help();
}

int runConvert(const std::vector<std::string>& all, std::ostream& out, std::ostream& err)
{
    std::vector<std::string> args;
    ArgumentCheck problem = convertArguments(args).parse(all);
    if (!problem && args.size() != 2)
        problem = UsageError { "give IN and OUT" };
    if (problem) {
        err << "gapscope convert: " << problem->message << "\n" << usageHint(convertHelp());
        return 2;
    }
    auto loaded = loadTraceFile(args[0]);
    if (!loaded) {
        err << "gapscope convert: " << loaded.error().toString() << "\n";
        return 1;
    }
    const Trace& trace = loaded.value();
    for (const ImportWarning& w : trace.warnings())
        err << "warning: " << w.toString() << "\n";
    auto saved = saveTraceFile(trace, args[1]);
    if (!saved) {
        err << "gapscope convert: " << saved.error().toString() << "\n";
        return 1;
    }
    out << "wrote " << args[1] << ": " << trace.processes().size() << " process(es), " << trace.eventCount()
        << " events\n";
    return 0;
}

} // namespace gapscope::cli
