// SPDX-License-Identifier: MIT
// `gapscope whatif: the step times the dependency graph predicts under a change` (docs/critical-path.md).
#include "cli/commands.h"
#include "cli/critical_path_report.h"
#include "cli/text_columns.h"
#include "core/annotations/annotation_store.h"
#include "core/annotations/predicted_change.h"
#include "core/io/trace_file.h"
#include "core/model/time_format.h"

#include <nlohmann/json.hpp>

namespace gapscope::cli {

namespace {

/// `--note ID`: writes the prediction into that note of the trace's sidecar. A sidecar that cannot be read is not
/// written to, and a failed save leaves the file as it was (AnnotationStore): either way the note is unchanged.
bool recordPrediction(const std::string& tracePath, const std::string& id, const PredictedChange& prediction,
    std::string& savedTo, std::ostream& err)
{
    AnnotationStore store = AnnotationStore::openForTrace(tracePath);
    if (store.loadError()) {
        err << "gapscope whatif: the notes of " << tracePath
            << " cannot be read, so the prediction was not written: " << store.loadError()->toString() << "\n";
        return false;
    }
    const Annotation* found = store.find(id);
    if (!found) {
        err << "gapscope whatif: " << store.savePath() << " has no note with id '" << id << "'\n";
        return false;
    }
    Annotation note = *found;
    note.prediction = prediction;
    store.update(note);
    if (auto saved = store.save(); !saved) {
        err << "gapscope whatif: the prediction could not be saved (the note is unchanged): "
            << saved.error().toString() << "\n";
        return false;
    }
    savedTo = store.savePath();
    return true;
}

} // namespace

int runWhatIf(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    int exitCode = 0;
    const auto input = preparePathCommand("whatif", args, true, err, exitCode);
    if (!input)
        return exitCode;
    const Trace& trace = input->trace;
    const CriticalPathOptions& options = input->options;
    const std::vector<PathWindow>& windows = input->windows;
    struct Row {
        const PathWindow* window;
        TimeNs measured;
        TimeNs predicted;
    };
    std::vector<Row> rows;
    std::array<TimeNs, kPathCategoryCount> byCategory {};
    std::vector<std::size_t> matched(options.changes.scales.size(), 0);
    const auto outcomes = whatIfWindows(trace, windows, options.changes, { options.top, 0 });
    if (!outcomes) {
        err << "gapscope whatif: " << outcomes.error().message << "\n";
        return 2;
    }
    for (std::size_t i = 0; i < windows.size(); ++i) {
        const WhatIfOutcome& outcome = (*outcomes)[i];
        rows.push_back({ &windows[i], outcome.measuredNs, outcome.predictedNs });
        for (int c = 0; c < kPathCategoryCount; ++c)
            byCategory[c] += outcome.predicted.byCategory[c];
        for (std::size_t r = 0; r < matched.size(); ++r)
            matched[r] += outcome.matchedOps[r];
    }
    std::vector<TimeNs> measured;
    std::vector<TimeNs> predicted;
    TimeNs predictedTotal = 0;
    for (const Row& r : rows) {
        measured.push_back(r.measured);
        predicted.push_back(r.predicted);
        predictedTotal += r.predicted;
    }
    const TimeNs measuredP50 = nearestRankMedian(measured);
    const TimeNs predictedP50 = nearestRankMedian(predicted);
    std::string savedTo;
    if (options.note
        && !recordPrediction(options.trace, *options.note,
            predictedChangeOf(options.changes, windows, *outcomes, input->warmupSteps,
                formatIsoUtc(std::chrono::system_clock::now())),
            savedTo, err))
        return 1;
    if (options.json) {
        nlohmann::json steps = nlohmann::json::array();
        for (const Row& r : rows) {
            steps.push_back({ { "name", r.window->name.empty() ? std::string(windowKind(*r.window)) : r.window->name },
                { "window", windowJson(trace, *r.window) }, { "measured_ns", r.measured },
                { "predicted_ns", r.predicted } });
        }
        nlohmann::json rules = nlohmann::json::array();
        for (std::size_t i = 0; i < options.changes.scales.size(); ++i) {
            rules.push_back({ { "pattern", options.changes.scales[i].pattern },
                { "factor", options.changes.scales[i].factor }, { "matched_ops", matched[i] } });
        }
        nlohmann::json doc { { "steps", steps }, { "measured_p50_ns", measuredP50 },
            { "predicted_p50_ns", predictedP50 }, { "change_p50_ns", predictedP50 - measuredP50 },
            { "by_category_ns", categoriesJson(byCategory) }, { "scale", rules },
            { "warmup_steps", input->warmupSteps } };
        if (options.note)
            doc["note"] = { { "id", *options.note }, { "saved_to", savedTo } };
        out << doc.dump(2) << "\n";
        return 0;
    }
    out << "What if";
    for (std::size_t i = 0; i < options.changes.scales.size(); ++i) {
        const ScaleRule& rule = options.changes.scales[i];
        out << (i ? ", " : " ") << "'" << rule.pattern << "' took " << rule.factor << "x (" << matched[i] << " ops)";
    }
    for (const std::size_t n : options.changes.dropSyncs)
        out << ", host wait " << n << " were gone";
    if (options.changes.launchDelayCapNs)
        out << ", launch delays were at most " << formatDuration(*options.changes.launchDelayCapNs);
    out << ":\n";
    if (!windows.empty() && windows.front().kind == WindowKind::Steps)
        out << "over " << windows.size() << " step" << (windows.size() == 1 ? "" : "s") << " (warm-up "
            << input->warmupSteps << " excluded, as diff --note measures)\n";
    out << "\n  " << pad("window", 24) << pad("measured", 12) << pad("predicted", 12) << "change\n";
    for (const Row& r : rows) {
        out << "  " << pad(r.window->name.empty() ? std::string(windowKind(*r.window)) : r.window->name, 24)
            << pad(formatDuration(r.measured), 12) << pad(formatDuration(r.predicted), 12)
            << percent(r.predicted - r.measured, r.measured) << "\n";
    }
    out << "  " << pad("p50", 24) << pad(formatDuration(measuredP50), 12) << pad(formatDuration(predictedP50), 12)
        << percent(predictedP50 - measuredP50, measuredP50) << "\n";
    out << "\nPredicted critical path by category, over the " << rows.size() << " window(s) together ("
        << formatDuration(predictedTotal) << "):\n";
    writeBreakdown(byCategory, predictedTotal, out);
    if (options.note)
        out << "\nThe prediction is in note " << *options.note << " (" << savedTo << "): `gapscope diff --note "
            << *options.note << " TRACE AFTER` checks it against the run with the change.\n";
    return 0;
}

} // namespace gapscope::cli
