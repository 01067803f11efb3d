// SPDX-License-Identifier: MIT
#include "cli/command_usage.h"
#include "cli/commands.h"
#include "core/io/trace_file.h"

namespace gapscope::cli {

int runConvert(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    if (args.size() != 2 || args[0].starts_with("-")) {
        err << usageText("convert");
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
