// SPDX-License-Identifier: MIT
#include "cli/commands.h"
#include "cli/diff_metrics.h"
#include "cli/diff_report.h"
#include "cli/metric_options.h"
#include "core/annotations/annotation_store.h"
#include "core/annotations/note_measurement.h"
#include "core/experiment/metric_prediction.h"
#include "core/experiment/metric_samples.h"
#include "core/experiment/runs_manifest.h"
#include "core/io/trace_file.h"
#include "core/parallel_for.h"
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
    /// The values of each measured metric (measuredMetrics(options.metrics), in order) and their window.
    std::vector<std::vector<TimeNs>> metricValues;
    std::vector<WindowKind> metricWindows;
    /// Recorded with NVTX only (the manifest's kinds; without a manifest, a trace holding no CUDA kind of event).
    bool nvtxOnly = false;
    /// The manifest's --kinds, "" without a manifest.
    std::string kinds;
};

/// A run as the command line named it, or one run of a folder of repeated runs.
struct RunPath {
    std::string path;
    const RunsManifest* manifest = nullptr;
};

constexpr std::uint32_t kCudaEventKinds = (1u << static_cast<int>(EventKind::Kernel))
    | (1u << static_cast<int>(EventKind::Memcpy)) | (1u << static_cast<int>(EventKind::Memset))
    | (1u << static_cast<int>(EventKind::Sync)) | (1u << static_cast<int>(EventKind::RuntimeApi))
    | (1u << static_cast<int>(EventKind::DriverApi));

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
        if (entry.is_regular_file(error) && isTraceFileName(name) && !name.ends_with(".gapscope.json")
            && name != kRunsManifestName)
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
        if (isTraceFileName(name) && !name.ends_with(".gapscope.json") && !isSummaryFile(name)
            && name != kRunsManifestName)
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
    // The step durations, and the metrics `summarize --metric` kept (matched by name and spec); a metric the
    // summaries do not hold has no values.
    for (const MetricSpec& m : measuredMetrics(options.metrics)) {
        std::vector<TimeNs> values = m.kind == MetricKind::Step ? run->summary.stepDurations : std::vector<TimeNs> {};
        for (const RankSummary& r : ranks) {
            for (const RankMetric& kept : r.metrics) {
                if (m.kind != MetricKind::Step && kept.name == m.name && kept.spec == m.specText())
                    values.insert(values.end(), kept.valuesNs.begin(), kept.valuesNs.end());
            }
        }
        run->metricValues.push_back(std::move(values));
        run->metricWindows.push_back(run->summary.analysis.window.kind);
    }
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

LoadOutcome loadRun(const RunPath& runPath, const char* side, const DiffOptions& options, bool keepTrace)
{
    const std::string& path = runPath.path;
    const std::vector<MetricSpec> metrics = measuredMetrics(options.metrics);
    const auto setKinds = [&](LoadedRun& run) {
        if (runPath.manifest) {
            run.nvtxOnly = runPath.manifest->nvtxOnly();
            run.kinds = runPath.manifest->kinds;
        } else {
            run.nvtxOnly = (run.summary.recordedKinds & kCudaEventKinds) == 0
                && (run.summary.recordedKinds & (1u << static_cast<int>(EventKind::NvtxRange))) != 0;
        }
    };
    if (const auto summaries = summaryFilesOf(path); !summaries.empty()) {
        LoadOutcome outcome = loadSummaryRun(path, summaries, side, options);
        if (outcome.run)
            setKinds(*outcome.run);
        return outcome;
    }
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
    for (const MetricSpec& m : metrics) {
        MetricSamples samples = metricSamples(trace, result, m);
        run->metricValues.push_back(std::move(samples.values));
        run->metricWindows.push_back(samples.window);
    }
    setKinds(*run);
    if (keepTrace)
        run->trace = std::make_unique<Trace>(std::move(loaded.value()));
    return { std::move(run), {} };
}

/// Both sides' runs, or the first problem met loading them (BASE first).
struct LoadedRuns {
    std::vector<std::unique_ptr<LoadedRun>> base;
    std::vector<std::unique_ptr<LoadedRun>> fresh;
    std::string problem; // empty: every run loaded
    /// The manifests of the folders of repeated runs, and what they said about failed runs.
    std::vector<std::unique_ptr<RunsManifest>> manifests;
    std::vector<std::string> warnings;
};

/// The runs `path` names: itself, or, for a folder with a runs manifest, each run of it that did not fail (a
/// failed run is named in a warning and left out).
std::optional<std::string> expandRuns(
    const std::string& path, const char* side, LoadedRuns& runs, std::vector<RunPath>& into)
{
    std::error_code error;
    if (!std::filesystem::is_directory(path, error)) {
        into.push_back(RunPath { path, nullptr });
        return std::nullopt;
    }
    auto manifest = readRunsManifest(path);
    if (!manifest)
        return std::string("cannot read the ") + side + " runs: " + manifest.error().toString();
    if (!manifest->has_value()) {
        into.push_back(RunPath { path, nullptr });
        return std::nullopt;
    }
    runs.manifests.push_back(std::make_unique<RunsManifest>(std::move(**manifest)));
    const RunsManifest& m = *runs.manifests.back();
    for (std::size_t r = 0; r < m.runs.size(); ++r) {
        const ManifestRun& run = m.runs[r];
        if (run.failed || run.file.empty()) {
            runs.warnings.push_back(std::string(side) + " " + path + ": run " + std::to_string(r + 1) + " of "
                + std::to_string(m.runs.size()) + " failed (" + (run.failure.empty() ? "no trace" : run.failure)
                + "): left out");
            continue;
        }
        into.push_back(RunPath { (std::filesystem::path(path) / run.file).string(), &m });
    }
    if (m.goodRunFiles().empty())
        return std::string("the ") + side + " folder " + path + " holds no run that did not fail";
    return std::nullopt;
}

/// Loads the runs one after the other, BASE first, stopping at the first problem.
LoadedRuns loadRuns(const DiffOptions& options, const std::vector<std::string>& basePaths,
    const std::vector<std::string>& newPaths, bool keepTraces)
{
    LoadedRuns runs;
    for (const auto& [paths, side, into] :
        { std::tuple { &basePaths, "BASE", &runs.base }, std::tuple { &newPaths, "NEW", &runs.fresh } }) {
        std::vector<RunPath> expanded;
        for (const std::string& path : *paths) {
            if (auto problem = expandRuns(path, side, runs, expanded)) {
                runs.problem = *problem;
                return runs;
            }
        }
        for (const RunPath& path : expanded) {
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

/// Each run's values of metric `m`.
std::vector<std::vector<TimeNs>> metricRuns(const std::vector<std::unique_ptr<LoadedRun>>& runs, std::size_t m)
{
    std::vector<std::vector<TimeNs>> values;
    for (const auto& run : runs)
        values.push_back(run->metricValues[m]);
    return values;
}

/// The metrics' verdicts and side effects, and how the sides were recorded, from the runs the timings come from.
ExperimentReport experimentReport(const DiffOptions& options, const LoadedRuns& timing, const CompareOptions& compare)
{
    ExperimentReport report;
    const std::vector<MetricSpec> metrics = measuredMetrics(options.metrics);
    // Each metric's bootstraps (p50 and p95, 10,000 resamples each) are its own: they run side by side, each
    // with its own seeded generator, so the result is the same on any number of threads.
    report.metrics.resize(metrics.size());
    parallelFor(metrics.size(), threadsOrCores(0), [&](std::size_t m) {
        report.metrics[m]
            = compareMetric(metrics[m], metricRuns(timing.base, m), metricRuns(timing.fresh, m), compare.bootstrap);
    });
    for (std::size_t m = 0; m < metrics.size(); ++m) {
        // The first run with values names the window.
        const auto window = [&]() {
            for (const auto* side : { &timing.base, &timing.fresh }) {
                for (const auto& run : *side) {
                    if (!run->metricValues[m].empty())
                        return run->metricWindows[m];
                }
            }
            return options.analysis.window.kind;
        };
        report.windows.push_back(window());
    }
    std::vector<bool> baseNvtx;
    std::vector<bool> newNvtx;
    for (const auto& run : timing.base)
        baseNvtx.push_back(run->nvtxOnly);
    for (const auto& run : timing.fresh)
        newNvtx.push_back(run->nvtxOnly);
    report.mix = recordingMix(baseNvtx, newNvtx);
    if (!report.isProfilerOverhead())
        report.direction = markSideEffects(report.metrics);
    return report;
}

/// The warnings of a diff about how the runs were recorded, beyond compareRuns()'s: a mix of NVTX-only and CUPTI
/// runs within a side or across in no clear split, and different --kinds in the manifests.
void addRecordingWarnings(const ExperimentReport& report, const LoadedRuns& runs, std::vector<std::string>& warnings)
{
    if (report.mix == RecordingMix::Mixed)
        warnings.push_back("some runs were recorded with NVTX only and some with CUPTI, not one way per side: only "
                           "runs measured the same way compare (NVTX-only against CUPTI runs measures the profiler's "
                           "overhead)");
    std::set<std::string> kinds;
    for (const auto* side : { &runs.base, &runs.fresh }) {
        for (const auto& run : *side) {
            if (!run->kinds.empty())
                kinds.insert(run->kinds);
        }
    }
    if (kinds.size() > 1 && !report.isProfilerOverhead()) {
        std::string list;
        for (const std::string& k : kinds)
            list += (list.empty() ? "" : ", ") + k;
        warnings.push_back("the runs were recorded with different --kinds (" + list + ")");
    }
}

std::vector<RunSummary> summariesOf(std::vector<std::unique_ptr<LoadedRun>>& runs)
{
    std::vector<RunSummary> summaries;
    for (auto& run : runs)
        summaries.push_back(std::move(run->summary));
    return summaries;
}

/// `--note ID`: measures the note of BASE's sidecar against NEW, writes the result into the note and saves.
int measureNote(const DiffOptions& options, const LoadedRun& base, const LoadedRun& fresh,
    const ExperimentReport& experiment, std::ostream& out, std::ostream& err)
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
    NoteMeasurement m
        = measureNoteAgainst(*base.trace, *fresh.trace, note, noteComparisonOptions(*base.trace, options.analysis));
    if (!options.metrics.empty()) {
        // The metrics were measured with the diff's own options; a hypothesis that names one is judged on it.
        note.record.sideEffects = sideEffectsText(experiment.metrics);
        if (const auto prediction = predictionIn(note.record.hypothesis, experiment.metrics)) {
            const PredictionJudgement judged = judgePrediction(*prediction, experiment.metrics);
            const MetricComparison& metric = experiment.metrics[prediction->metric];
            const PercentileVerdict& v = prediction->p95 ? metric.p95 : metric.p50;
            m.proposedStatus = judged.status;
            m.statusReason = judged.reason;
            m.performanceChange += " The hypothesis names " + metric.spec.name + (prediction->p95 ? " p95" : " p50")
                + " (" + metric.spec.specText() + "): " + std::string(verdictName(v.verdict)) + ", n = "
                + std::to_string(metric.base.n) + " vs " + std::to_string(metric.fresh.n) + "; proposed status on it: "
                + std::string(annotationStatusName(judged.status)) + " (" + judged.reason + ").";
        }
    }
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
    if (m.prediction)
        out << "Prediction: " << m.prediction->text << "\n";
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
        err << "gapscope diff: " << options.error().message << "\n" << usageHint(diffHelp());
        return 2;
    }
    LoadedRuns runs = loadRuns(*options, options->baseRuns, options->newRuns, options->note.has_value());
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
        return measureNote(
            *options, *base.front(), *fresh.front(), experimentReport(*options, runs, CompareOptions {}), out, err);
    }
    CompareOptions compare;
    compare.longestGaps = options->top.value_or(10);
    const std::vector<RunSummary> baseSummaries = summariesOf(base);
    const std::vector<RunSummary> newSummaries = summariesOf(fresh);
    RunDiff diff = compareRuns(baseSummaries, newSummaries, compare);
    diff.warnings.insert(diff.warnings.end(), runs.warnings.begin(), runs.warnings.end());

    // The timings: from the compared runs, or from the --timing-from runs (the low-overhead ones).
    LoadedRuns timingRuns;
    ExperimentReport experiment;
    if (!options->timingFrom.empty()) {
        const std::vector<std::string> timingBase { options->timingFrom.front() };
        std::vector<std::string> timingNew;
        if (options->timingFrom.size() > 1)
            timingNew.push_back(options->timingFrom[1]);
        timingRuns = loadRuns(*options, timingBase, timingNew, false);
        if (!timingRuns.problem.empty()) {
            err << "gapscope diff: --timing-from: " << timingRuns.problem << "\n";
            return 1;
        }
        if (timingRuns.fresh.empty())
            std::swap(timingRuns.fresh, fresh); // NEW keeps its own timings
        std::vector<std::vector<TimeNs>> baseSteps;
        std::vector<std::vector<TimeNs>> newSteps;
        for (const auto& run : timingRuns.base)
            baseSteps.push_back(run->metricValues.front());
        for (const auto& run : timingRuns.fresh)
            newSteps.push_back(run->metricValues.front());
        diff.steps = compareSteps(baseSteps, newSteps, compare.bootstrap);
        experiment = experimentReport(*options, timingRuns, compare);
        experiment.timingSource = "BASE " + options->timingFrom.front() + " (" + std::to_string(timingRuns.base.size())
            + " runs), NEW "
            + (options->timingFrom.size() > 1
                    ? options->timingFrom[1] + " (" + std::to_string(timingRuns.fresh.size()) + " runs)"
                    : std::string("its own runs"))
            + "; kernels, gaps and devices from the compared runs";
        if (options->timingFrom.size() == 1)
            std::swap(timingRuns.fresh, fresh);
        diff.warnings.insert(diff.warnings.end(), timingRuns.warnings.begin(), timingRuns.warnings.end());
        addRecordingWarnings(experiment, timingRuns, diff.warnings);
    } else {
        experiment = experimentReport(*options, runs, compare);
        addRecordingWarnings(experiment, runs, diff.warnings);
    }
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
    if (options->json) {
        nlohmann::json doc = diffToJson(diff, sides, *options);
        addExperimentJson(experiment, doc);
        out << doc.dump(2) << "\n";
    } else {
        writeTextDiff(diff, sides, *options, experiment, out);
    }

    if (options->failIfSlowerPercent && !experiment.isProfilerOverhead() && diff.steps.verdict == Verdict::Slower
        && diff.steps.deltaP50Fraction * 100.0 > *options->failIfSlowerPercent) {
        err << "gapscope diff: NEW is slower than BASE by " << diff.steps.deltaP50Fraction * 100.0
            << " % in step p50 (more than --fail-if-slower " << *options->failIfSlowerPercent
            << " %), and the verdict says the difference is real\n";
        return 3;
    }
    return 0;
}

} // namespace gapscope::cli
