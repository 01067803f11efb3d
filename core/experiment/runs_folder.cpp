// SPDX-License-Identifier: MIT
#include "core/experiment/runs_folder.h"

#include "core/analysis/comparison_diff.h"
#include "core/analysis/statistics.h"
#include "core/experiment/runs_manifest.h"
#include "core/io/trace_file.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <numeric>
#include <system_error>

namespace gapscope {

IoResult<std::optional<RunsFolder>> readRunsFolder(const std::string& path)
{
    std::error_code error;
    if (!std::filesystem::is_directory(path, error))
        return std::optional<RunsFolder> {};
    auto manifest = readRunsManifest(path);
    if (!manifest)
        return manifest.error();
    if (!manifest->has_value())
        return std::optional<RunsFolder> {};
    RunsFolder runs;
    runs.folder = path;
    runs.manifestRuns = (*manifest)->runs.size();
    for (std::size_t r = 0; r < (*manifest)->runs.size(); ++r) {
        const ManifestRun& run = (*manifest)->runs[r];
        if (run.failed || run.file.empty())
            continue;
        runs.runFiles.push_back((std::filesystem::path(path) / run.file).string());
        runs.runNumbers.push_back(r + 1);
    }
    if (runs.runFiles.empty())
        return IoError { path, std::nullopt, "a folder of repeated runs that holds no run that did not fail" };
    return std::optional<RunsFolder>(std::move(runs));
}

std::size_t medianRun(const std::vector<std::vector<TimeNs>>& stepDurationsPerRun)
{
    std::vector<TimeNs> p50(stepDurationsPerRun.size(), std::numeric_limits<TimeNs>::max());
    for (std::size_t r = 0; r < stepDurationsPerRun.size(); ++r) {
        std::vector<TimeNs> steps = stepDurationsPerRun[r];
        if (!steps.empty())
            p50[r] = medianOf(steps);
    }
    std::vector<std::size_t> order(p50.size());
    std::iota(order.begin(), order.end(), 0);
    // Ties keep run order, so that the same folder always shows the same run.
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p50[a] < p50[b]; });
    return order[(order.size() - 1) / 2];
}

std::string medianRunText(const RunsFolder& runs, std::size_t shown)
{
    return "run " + std::to_string(runs.runNumbers.at(shown)) + " of " + std::to_string(runs.manifestRuns)
        + ", the median";
}

IoResult<ComparedSideRuns> pickShownRun(const RunsFolder& runs, const AnalysisOptions& viewer,
    const std::stop_token& stop, const std::function<void(std::size_t run, std::size_t runs)>& progress)
{
    std::vector<std::vector<TimeNs>> steps;
    for (std::size_t r = 0; r < runs.runFiles.size(); ++r) {
        if (progress)
            progress(r, runs.runFiles.size());
        auto trace = loadTraceFile(runs.runFiles[r], stop);
        if (!trace)
            return trace.error();
        AnalysisOptions options = comparisonDiffOptions(viewer, trace.value());
        options.stop = stop;
        const AnalysisResult result = analyze(trace.value(), options);
        if (result.stopped)
            return IoError { runs.runFiles[r], std::nullopt, "canceled" };
        steps.push_back(countedStepDurations(result));
    }
    ComparedSideRuns side;
    side.folder = runs.folder;
    side.runFiles = runs.runFiles;
    side.shown = medianRun(steps);
    side.shownText = medianRunText(runs, side.shown);
    return side;
}

} // namespace gapscope
