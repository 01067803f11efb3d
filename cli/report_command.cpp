// SPDX-License-Identifier: MIT
#include "cli/commands.h"
#include "cli/job_report.h"
#include "cli/report_json.h"
#include "cli/report_summaries.h"
#include "cli/report_text.h"
#include "core/io/common/cut_short.h"
#include "core/io/trace_file.h"
#include "core/summary/rank_summary.h"
#include "core/summary/summary_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace gapscope::cli {

int runReport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const auto options = parseReportOptions(args);
    if (!options) {
        err << "gapscope report: " << options.error().message << "\n" << usageHint(reportHelp());
        return 2;
    }
    const auto summaries = std::count_if(
        options->traces.begin(), options->traces.end(), [](const std::string& path) { return isSummaryFile(path); });
    if (summaries > 0 && static_cast<std::size_t>(summaries) < options->traces.size()) {
        err << "gapscope report: give traces or .summary.json files, not both (summarize the traces first)\n";
        return 2;
    }
    if (summaries > 0)
        return runReportFromSummaries(*options, out, err);
    auto loaded = loadTraceFiles(options->traces, options->load);
    if (!loaded) {
        err << "gapscope report: " << loaded.error().toString() << "\n";
        return 1;
    }
    const Trace& trace = loaded.value();
    for (const ImportWarning& w : trace.warnings())
        err << "warning: " << w.toString() << "\n";
    // Stream gaps are listed by the JSON report alone (the text lists device gaps), so only it asks for them.
    AnalysisOptions analysis = options->analysis;
    analysis.streamGaps = options->json;
    const AnalysisResult result = analyze(trace, analysis);
    // Several processes: the ranks of one job, compared through their summaries (as `gapscope job` does).
    std::vector<RankSummary> ranks;
    if (trace.processes().size() > 1 && result.hasGpuActivity) {
        for (std::uint32_t p = 0; p < trace.processes().size(); ++p)
            ranks.push_back(summarizeProcess(trace, result, ProcessIndex { p }));
    }
    const std::optional<JobAnalysis> job
        = ranks.empty() ? std::nullopt : std::optional<JobAnalysis>(analyzeSummaries(ranks));
    if (options->json) {
        const nlohmann::json jobJson = job ? jobToJson(ranks, *job) : nlohmann::json();
        writeReportJson(out, trace, result, *options, job ? &jobJson : nullptr);
    } else {
        // A file cut short is said before anything else: every figure below covers only what was read.
        for (const CutShortFile& cut : cutShortFiles(trace))
            out << cutShortLine(cut) << "\n";
        writeTextReport(trace, result, *options, out);
        if (job) {
            out << "\n";
            writeJobText(ranks, *job, options->top.value_or(10), out);
        }
    }
    return 0;
}

} // namespace gapscope::cli
