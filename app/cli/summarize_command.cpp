// SPDX-License-Identifier: MIT
// `gapscope summarize TRACE... -o OUT.summary.json`: one compact summary per rank (core/summary/).
#include "app/cli/command_usage.h"
#include "app/cli/commands.h"
#include "app/cli/report_options.h"
#include "core/summary/summary_json.h"

namespace gapscope::cli {

namespace { } // namespace

int runSummarize(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    AnalysisOptions analysis;
    std::optional<std::string> output;
    std::vector<std::string> traces;
    std::string error;
    for (std::size_t i = 0; i < args.size() && error.empty(); ++i) {
        const AnalysisOptionParse shared = parseAnalysisOption(args, i, analysis, error);
        if (shared != AnalysisOptionParse::NotAnalysisOption)
            continue;
        if (args[i] == "-o") {
            if (i + 1 < args.size())
                output = args[++i];
            else
                error = "-o needs a value";
        } else if (args[i].starts_with("--") && args[i] != "--") {
            error = "unknown option '" + args[i] + "'";
        } else if (args[i] != "--") {
            traces.push_back(args[i]);
        }
    }
    if (error.empty() && traces.empty())
        error = "no trace given";
    if (error.empty() && !output)
        error = "no output given (-o OUT.summary.json)";
    if (!error.empty()) {
        err << "gapscope summarize: " << error << "\n" << usageText("summarize");
        return 2;
    }
    std::vector<RankSummary> summaries;
    for (const std::string& trace : traces) {
        auto summarized = summarizeTraceFile(trace, analysis);
        if (!summarized) {
            err << "gapscope summarize: " << summarized.error().toString() << "\n";
            return 1;
        }
        for (RankSummary& s : summarized.value())
            summaries.push_back(std::move(s));
    }
    const auto written = writeSummaryFile(*output, summaries);
    if (!written) {
        err << "gapscope summarize: " << written.error().toString() << "\n";
        return 1;
    }
    for (const RankSummary& s : summaries) {
        out << *output << ": rank " << (s.rank ? std::to_string(*s.rank) : std::string("?")) << " (" << s.source
            << "): " << s.devices.size() << " device(s), " << s.collectives.size() << " collectives, "
            << s.longestGaps.size() << " longest gaps\n";
    }
    return 0;
}

} // namespace gapscope::cli
