// SPDX-License-Identifier: MIT
#include "app/cli/commands.h"
#include "app/cli/report_json.h"
#include "app/cli/report_text.h"
#include "core/io/trace_file.h"

namespace gapscope::cli {

int runReport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    std::string error;
    const auto options = parseReportOptions(args, error);
    if (!options) {
        err << "gapscope report: " << error << "\n"
            << "usage: gapscope report [--json] [--window gpu|trace|steps|T0:T1] [--warmup N]\n"
               "                       [--activity all|kernels] [--launch-threshold-us N] [--top N]\n"
               "                       [--step-pattern REGEX] TRACE...\n";
        return 2;
    }
    auto loaded = loadTraceFiles(options->traces);
    if (!loaded) {
        err << "gapscope report: " << loaded.error().toString() << "\n";
        return 1;
    }
    const Trace& trace = loaded.value();
    for (const ImportWarning& w : trace.warnings)
        err << "warning: " << w.toString() << "\n";
    const AnalysisResult result = analyze(trace, options->analysis);
    if (options->json)
        writeReportJson(out, trace, result, *options);
    else
        writeTextReport(trace, result, *options, out);
    return 0;
}

} // namespace gapscope::cli
