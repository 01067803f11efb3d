// SPDX-License-Identifier: MIT
#include "cli/critical_path_report.h"
#include "cli/commands.h"

#include "cli/text_columns.h"
#include "core/analysis/critical_path_outline.h"
#include "core/io/trace_file.h"
#include "core/model/time_format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace gapscope::cli {

TimeNs nearestRankMedian(std::vector<TimeNs> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[(values.size() + 1) / 2 - 1];
}

std::string percent(TimeNs part, TimeNs whole)
{
    char text[32];
    std::snprintf(text, sizeof(text), "%.1f %%", whole > 0 ? 100.0 * static_cast<double>(part) / whole : 0.0);
    return text;
}

std::string_view windowKind(const PathWindow& w)
{
    return w.kind == WindowKind::Steps ? "step" : windowKindName(w.kind);
}

ParseResult<SelectedWindows> selectWindows(const Trace& trace, const CriticalPathOptions& options, bool all)
{
    if (options.window) {
        return SelectedWindows {
            { explicitPathWindow(defaultPathProcess(trace), options.window->first, options.window->second) }, 0
        };
    }
    if (options.step) {
        // A step named on the command line is the one wanted, warm-up or not (unless --warmup says otherwise).
        const std::vector<PathWindow> steps
            = stepPathWindows(trace, options.stepPattern, options.warmupSteps.value_or(0));
        for (const PathWindow& w : steps) {
            if (w.name == *options.step || w.name.ends_with("#" + *options.step))
                return SelectedWindows { { w }, options.warmupSteps.value_or(0) };
        }
        std::string names;
        for (const PathWindow& w : steps)
            names += (names.empty() ? "" : ", ") + w.name;
        return UsageError { "no counted step named '" + *options.step
            + "' (the steps: " + (names.empty() ? "none" : names) + ")" };
    }
    CountedStepWindows counted = countedStepWindows(trace, options.stepPattern, options.warmupSteps);
    if (counted.windows.empty()) {
        const auto gpu = gpuPathWindow(trace);
        if (!gpu)
            return UsageError { "the trace has no steps and no GPU activity: give --window T0:T1" };
        return SelectedWindows { { *gpu }, 0 };
    }
    if (all)
        return SelectedWindows { std::move(counted.windows), counted.warmupSteps };
    // The median step as the viewer takes it first.
    return SelectedWindows { { *medianStepOrGpuWindow(trace, options.stepPattern, options.warmupSteps) },
        counted.warmupSteps };
}

nlohmann::json windowJson(const Trace& trace, const PathWindow& w)
{
    nlohmann::json j { { "kind", windowKind(w) }, { "start_ns", w.start }, { "end_ns", w.end },
        { "pid", trace.processes().empty() ? 0 : trace.processes()[w.process.value].pid } };
    if (!w.name.empty())
        j["name"] = w.name;
    return j;
}

nlohmann::json categoriesJson(const std::array<TimeNs, kPathCategoryCount>& byCategory)
{
    nlohmann::json j = nlohmann::json::object();
    for (int c = 0; c < kPathCategoryCount; ++c)
        j[std::string(pathCategoryName(static_cast<PathCategory>(c)))] = byCategory[c];
    return j;
}

nlohmann::json topJson(const Trace& trace, const CriticalPath& path)
{
    nlohmann::json top = nlohmann::json::array();
    for (const NameOnPath& n : path.top) {
        top.push_back({ { "name", pathSegmentName(trace, n.name) }, { "category", pathCategoryName(n.category) },
            { "on_path_ns", n.onPathNs },
            { "share", path.lengthNs > 0 ? static_cast<double>(n.onPathNs) / path.lengthNs : 0.0 } });
    }
    return top;
}

std::string windowLine(const Trace& trace, const PathWindow& w)
{
    const std::string what = w.kind == WindowKind::Steps ? w.name
        : w.kind == WindowKind::Gpu                      ? std::string("the GPU window")
                                                         : std::string("the window");
    return what + " of process " + std::to_string(trace.processes()[w.process.value].pid) + ": ["
        + std::to_string(w.start) + ", " + std::to_string(w.end) + ") ns, " + formatDuration(w.length());
}

void writeBreakdown(const std::array<TimeNs, kPathCategoryCount>& byCategory, TimeNs length, std::ostream& out)
{
    for (int c = 0; c < kPathCategoryCount; ++c) {
        out << "  " << pad(std::string(pathCategoryName(static_cast<PathCategory>(c))), 15)
            << pad(formatDuration(byCategory[c]), 12) << percent(byCategory[c], length) << "\n";
    }
}

std::optional<PathCommandInput> preparePathCommand(
    std::string_view command, const std::vector<std::string>& args, bool allSteps, std::ostream& err, int& exitCode)
{
    const std::string prefix = "gapscope " + std::string(command) + ": ";
    auto options = parseCriticalPathOptions(args, command == "whatif");
    if (!options) {
        err << prefix << options.error().message << "\n"
            << usageHint(command == "whatif" ? whatIfHelp() : criticalPathHelp());
        exitCode = 2;
        return std::nullopt;
    }
    auto loaded = loadTraceFiles(std::vector<std::string> { options->trace });
    if (!loaded) {
        err << prefix << loaded.error().toString() << "\n";
        exitCode = 1;
        return std::nullopt;
    }
    auto windows = selectWindows(loaded.value(), *options, allSteps);
    if (!windows) {
        err << prefix << windows.error().message << "\n";
        exitCode = 2;
        return std::nullopt;
    }
    return PathCommandInput { std::move(*options), std::move(loaded.value()), std::move(windows->windows),
        windows->warmupSteps };
}

} // namespace gapscope::cli
