// SPDX-License-Identifier: MIT
#include "cli/command_usage.h"
#include "cli/commands.h"
#include "cli/diff_report.h"
#include "core/annotations/annotation_store.h"
#include "core/annotations/note_measurement.h"
#include "core/io/trace_file.h"
#include "core/summary/summary_json.h"
#include "core/summary/summary_run.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <tuple>

namespace gapscope::cli {

namespace {

/// A run after its analysis: its summary, and its trace only when --note needs it (otherwise the trace is freed
/// before the next run is loaded, so that a diff holds one trace at a time, as two reports do).
struct LoadedRun {
    DiffRunInfo info;
    RunSummary summary;
    std::unique_ptr<Trace> trace;
    /// Read from `.summary.json` files (gapscope summarize / job -o), not traces.
    bool fromSummaries = false;
};

bool isTraceFileName(const std::string& name)
{
    return name.ends_with(".json") || name.ends_with(".json.gz") || name.ends_with(".gapscope");
}

/// The files of a run: the path itself, or the trace files in a folder (by name), one per rank.
IoResult<std::vector<std::string>> runFiles(const std::string& path)
{
    std::error_code error;
    if (!std::filesystem::is_directory(path, error))
        return std::vector<std::string> { path };
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file(error) && isTraceFileName(name) && !name.ends_with(".gapscope.json"))
            files.push_back(entry.path().string());
    }
    if (error)
        return IoError { path, std::nullopt, "cannot list the folder: " + error.message() };
    if (files.empty())
        return IoError { path, std::nullopt, "a folder with no trace files (.json, .json.gz, .gapscope) in it" };
    std::sort(files.begin(), files.end());
    return files;
}

/// The summaries of a run: the path itself when it is a `.summary.json`, or the `.summary.json` files of a folder
/// that holds no trace (what `gapscope job -o DIR` writes); empty when the run is not made of summaries.
std::vector<std::string> summaryFilesOf(const std::string& path)
{
    if (isSummaryFile(path))
        return { path };
    std::error_code error;
    if (!std::filesystem::is_directory(path, error))
        return {};
    std::vector<std::string> summaries;
    for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
        const std::string name = entry.path().filename().string();
        if (!entry.is_regular_file(error))
            continue;
        if (isTraceFileName(name) && !name.ends_with(".gapscope.json") && !isSummaryFile(name))
            return {}; // a folder of traces
        if (isSummaryFile(name))
            summaries.push_back(entry.path().string());
    }
    std::sort(summaries.begin(), summaries.end());
    return summaries;
}

/// One run loaded and analyzed, or why not (naming the side and the file).
struct LoadOutcome {
    std::unique_ptr<LoadedRun> run;
    std::string problem;
};

LoadOutcome loadSummaryRun(
    const std::string& path, const std::vector<std::string>& files, const char* side, const DiffOptions& options)
{
    std::vector<RankSummary> ranks;
    for (const std::string& file : files) {
        auto read = readSummaryFile(file);
        if (!read)
            return { nullptr, std::string("cannot read the ") + side + " run: " + read.error().toString() };
        for (RankSummary& r : read.value())
            ranks.push_back(std::move(r));
    }
    if (const auto problems = summaryOptionMismatches(ranks); !problems.empty())
        return { nullptr,
            std::string("the ") + side + " run " + path
                + " mixes summaries made with different options: " + problems.front() };
    std::set<int> seen;
    for (const RankSummary& r : ranks) {
        if (r.rank && !seen.insert(*r.rank).second)
            return { nullptr,
                std::string("the ") + side + " run " + path + " holds rank " + std::to_string(*r.rank)
                    + " twice: ranks are matched by number, so a run holds each rank once (one job per run)" };
    }
    auto run = std::make_unique<LoadedRun>();
    run->fromSummaries = true;
    run->summary = runSummaryFromRanks(ranks, path, options.top.value_or(10));
    run->info.label = path;
    run->info.files = files;
    run->info.window.kind = run->summary.analysis.window.kind;
    for (const RankSummary& r : ranks) {
        if (r.devices.empty())
            continue;
        TimeNs end = r.devices.front().windowEnd;
        for (const DeviceSummary& d : r.devices)
            end = std::max(end, d.windowEnd);
        run->info.window.ranges = IntervalSet::fromDisjointSorted({ { rankWindowStart(r), end } });
        break;
    }
    return { std::move(run), {} };
}

LoadOutcome loadRun(const std::string& path, const char* side, const DiffOptions& options, bool keepTrace)
{
    if (const auto summaries = summaryFilesOf(path); !summaries.empty())
        return loadSummaryRun(path, summaries, side, options);
    auto files = runFiles(path);
    if (!files)
        return { nullptr, std::string("cannot read the ") + side + " run: " + files.error().toString() };
    auto loaded = loadTraceFiles(files.value());
    if (!loaded)
        return { nullptr, std::string("cannot read the ") + side + " run: " + loaded.error().toString() };
    const Trace& trace = loaded.value();
    std::set<int> ranks;
    for (const Process& p : trace.processes()) {
        if (p.rank && !ranks.insert(*p.rank).second)
            return { nullptr,
                std::string("the ") + side + " run " + path + " holds rank " + std::to_string(*p.rank)
                    + " twice: ranks are matched by number, so a run holds each rank once (one job per run)" };
    }
    const AnalysisResult result = analyze(trace, options.analysis);
    auto run = std::make_unique<LoadedRun>();
    CompareOptions compare;
    compare.longestGaps = options.top.value_or(10);
    run->summary = summarizeRun(trace, result, path, compare);
    run->info.label = path;
    run->info.files = files.value();
    for (const Window& w : result.windows) {
        if (!w.ranges.empty()) {
            run->info.window = w;
            break;
        }
    }
    if (run->info.window.ranges.empty())
        run->info.window.kind = options.analysis.window.kind;
    if (keepTrace)
        run->trace = std::make_unique<Trace>(std::move(loaded.value()));
    return { std::move(run), {} };
}

/// Both sides' runs, or the first problem met loading them (BASE first).
struct LoadedRuns {
    std::vector<std::unique_ptr<LoadedRun>> base;
    std::vector<std::unique_ptr<LoadedRun>> fresh;
    std::string problem; // empty: every run loaded
};

/// Loads the runs one after the other, BASE first, stopping at the first problem.
LoadedRuns loadRuns(const DiffOptions& options)
{
    const bool keepTraces = options.note.has_value();
    LoadedRuns runs;
    for (const auto& [paths, side, into] :
        { std::tuple { &options.baseRuns, "BASE", &runs.base }, std::tuple { &options.newRuns, "NEW", &runs.fresh } }) {
        for (const std::string& path : *paths) {
            LoadOutcome outcome = loadRun(path, side, options, keepTraces);
            if (!outcome.run) {
                runs.problem = outcome.problem;
                return runs;
            }
            into->push_back(std::move(outcome.run));
        }
    }
    return runs;
}

std::vector<RunSummary> summariesOf(std::vector<std::unique_ptr<LoadedRun>>& runs)
{
    std::vector<RunSummary> summaries;
    for (auto& run : runs)
        summaries.push_back(std::move(run->summary));
    return summaries;
}

/// `--note ID`: measures the note of BASE's sidecar against NEW, writes the result into the note and saves.
int measureNote(
    const DiffOptions& options, const LoadedRun& base, const LoadedRun& fresh, std::ostream& out, std::ostream& err)
{
    const std::string& basePath = options.baseRuns.front();
    if (base.info.files.size() != 1) {
        err << "gapscope diff: --note needs BASE to be one trace file (the one the note's sidecar is next to)\n";
        return 2;
    }
    AnnotationStore store = AnnotationStore::openForTrace(basePath);
    if (store.loadError()) {
        err << "gapscope diff: the notes of " << basePath << " cannot be read: " << store.loadError()->toString()
            << "\n";
        return 1;
    }
    const Annotation* found = store.find(*options.note);
    if (!found) {
        err << "gapscope diff: " << store.sidecarPath() << " has no note with id '" << *options.note << "'\n";
        return 1;
    }
    Annotation note = *found;
    const NoteMeasurement m
        = measureNoteAgainst(*base.trace, *fresh.trace, note, noteComparisonOptions(*base.trace, options.analysis));
    // The after trace as seen from the BASE trace's folder, so that the pair can move together.
    const std::filesystem::path baseFolder = std::filesystem::absolute(basePath).parent_path();
    const std::string afterTrace
        = std::filesystem::proximate(std::filesystem::absolute(options.newRuns.front()), baseFolder).string();
    applyNoteMeasurement(note, m, afterTrace);
    if (options.acceptStatus)
        note.status = m.proposedStatus;
    store.update(note);
    if (auto saved = store.save(); !saved) {
        err << "gapscope diff: the note was measured but could not be saved: " << saved.error().toString() << "\n";
        return 1;
    }
    out << "Note " << note.id << (note.title.empty() ? std::string() : " (" + note.title + ")") << ": "
        << m.performanceChange << "\n";
    out << "Proposed status: " << annotationStatusName(m.proposedStatus)
        << (options.acceptStatus ? " (set)" : " (not set: confirm it in the viewer, or run again with --accept)")
        << "; saved to " << store.savePath() << "\n";
    return 0;
}

} // namespace

int runDiff(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const auto options = parseDiffOptions(args);
    if (!options) {
        err << "gapscope diff: " << options.error().message << "\n" << usageText("diff");
        return 2;
    }
    LoadedRuns runs = loadRuns(*options);
    if (!runs.problem.empty()) {
        err << "gapscope diff: " << runs.problem << "\n";
        return 1;
    }
    std::vector<std::unique_ptr<LoadedRun>>& base = runs.base;
    std::vector<std::unique_ptr<LoadedRun>>& fresh = runs.fresh;
    const auto fromSummaries = [](const std::unique_ptr<LoadedRun>& run) { return run->fromSummaries; };
    const std::size_t summaryRuns = static_cast<std::size_t>(std::count_if(base.begin(), base.end(), fromSummaries)
        + std::count_if(fresh.begin(), fresh.end(), fromSummaries));
    if (summaryRuns > 0 && summaryRuns < base.size() + fresh.size()) {
        err << "gapscope diff: compare traces with traces or summaries with summaries: a summary holds no kernels "
               "and no event kinds to compare with a trace's (summarize the traces first)\n";
        return 2;
    }
    if (options->note) {
        if (summaryRuns > 0) {
            err << "gapscope diff: --note measures a note against traces, not summaries\n";
            return 2;
        }
        return measureNote(*options, *base.front(), *fresh.front(), out, err);
    }
    CompareOptions compare;
    compare.longestGaps = options->top.value_or(10);
    const std::vector<RunSummary> baseSummaries = summariesOf(base);
    const std::vector<RunSummary> newSummaries = summariesOf(fresh);
    RunDiff diff = compareRuns(baseSummaries, newSummaries, compare);
    if (summaryRuns > 0) {
        diff.warnings.push_back("compared from summaries: no kernels (a summary holds none); the gaps are each rank's "
                                "10 longest; steps only where the summaries keep their durations");
        const auto noSteps = [](const RunSummary& run) { return run.stepDurations.empty(); };
        if (std::any_of(baseSummaries.begin(), baseSummaries.end(), noSteps)
            || std::any_of(newSummaries.begin(), newSummaries.end(), noSteps))
            diff.warnings.push_back("a run's summaries keep no step durations (no steps, or written by an older "
                                    "GapScope): its steps are not compared");
    }

    DiffSides sides;
    for (const auto& run : base)
        sides.base.push_back(run->info);
    for (const auto& run : fresh)
        sides.fresh.push_back(run->info);
    if (options->json)
        out << diffToJson(diff, sides, *options).dump(2) << "\n";
    else
        writeTextDiff(diff, sides, *options, out);

    if (options->failIfSlowerPercent && diff.steps.verdict == Verdict::Slower
        && diff.steps.deltaP50Fraction * 100.0 > *options->failIfSlowerPercent) {
        err << "gapscope diff: NEW is slower than BASE by " << diff.steps.deltaP50Fraction * 100.0
            << " % in step p50 (more than --fail-if-slower " << *options->failIfSlowerPercent
            << " %), and the verdict says the difference is real\n";
        return 3;
    }
    return 0;
}

} // namespace gapscope::cli
