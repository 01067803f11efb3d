// SPDX-License-Identifier: MIT
// `gapscope summarize TRACE... -o OUT.summary.json`: one compact summary per rank (core/summary/).
#include "cli/argument_parser.h"
#include "cli/commands.h"
#include "cli/metric_options.h"
#include "core/summary/summary_json.h"

namespace gapscope::cli {

namespace {

ArgumentSpec summarizeArguments(AnalysisOptions& analysis, SummaryOptions& summary, std::optional<std::string>& output,
    std::vector<std::string>& traces)
{
    ArgumentSpec spec("summarize", "one compact summary per rank, for `job`");
    spec.analysisOptions(analysis);
    metricOptions(spec, summary.metrics);
    spec.value("-o OUT.summary.json", "the summary file to write (one entry per process of the traces)",
        [&](const std::string& path) -> ArgumentCheck {
            output = path;
            return std::nullopt;
        });
    spec.positional("TRACE...", "the traces to summarize", [&](const std::string& trace) { traces.push_back(trace); });
    return spec;
}

} // namespace

CommandHelp summarizeHelp()
{
    AnalysisOptions analysis;
    SummaryOptions summary;
    std::optional<std::string> output;
    std::vector<std::string> traces;
    return summarizeArguments(analysis, summary, output, traces).help();
}

int runSummarize(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    AnalysisOptions analysis;
    std::optional<std::string> output;
    std::vector<std::string> traces;
    SummaryOptions summary;
    ArgumentSpec spec = summarizeArguments(analysis, summary, output, traces);
    ArgumentCheck problem = spec.parse(args);
    if (!problem && traces.empty())
        problem = UsageError { "no trace given" };
    if (!problem && !output)
        problem = UsageError { "no output given (-o OUT.summary.json)" };
    if (problem) {
        err << "gapscope summarize: " << problem->message << "\n" << usageHint(summarizeHelp());
        return 2;
    }
    std::vector<RankSummary> summaries;
    for (const std::string& trace : traces) {
        auto summarized = summarizeTraceFile(trace, analysis, summary);
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
