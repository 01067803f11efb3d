// SPDX-License-Identifier: MIT
#include "core/summary/summary_run.h"

#include <algorithm>
#include <set>

namespace gapscope {

TimeNs rankWindowStart(const RankSummary& rank)
{
    if (rank.devices.empty())
        return 0;
    TimeNs start = rank.devices.front().windowStart;
    for (const DeviceSummary& d : rank.devices)
        start = std::min(start, d.windowStart);
    return start;
}

AnalysisOptions analysisOptionsOf(const std::vector<RankSummary>& ranks)
{
    AnalysisOptions options;
    if (ranks.empty())
        return options;
    options.window.kind = ranks.front().window;
    options.activity = ranks.front().activity;
    options.launchThresholdNs = ranks.front().launchThresholdNs;
    // The summary keeps how many steps were excluded as warm-up, not the option: the same unless a rank had fewer.
    options.window.warmupSteps = static_cast<int>(ranks.front().warmupSteps);
    return options;
}

std::vector<std::string> summaryOptionMismatches(const std::vector<RankSummary>& ranks)
{
    std::vector<std::string> problems;
    if (ranks.empty())
        return problems;
    const RankSummary& first = ranks.front();
    const auto describe = [](const RankSummary& r) {
        return "window " + std::string(windowKindName(r.window)) + ", activity "
            + std::string(activitySetName(r.activity)) + ", launch threshold " + std::to_string(r.launchThresholdNs)
            + " ns";
    };
    for (const RankSummary& r : ranks) {
        if (r.window == first.window && r.activity == first.activity && r.launchThresholdNs == first.launchThresholdNs)
            continue;
        problems.push_back(r.source + " (pid " + std::to_string(r.pid) + ") was summarized with " + describe(r)
            + ", unlike " + first.source + " (" + describe(first) + ")");
    }
    return problems;
}

const std::vector<std::string>& summaryOmissions()
{
    static const std::vector<std::string> omissions {
        "the list of steps (their count, p50 and p95 are kept)",
        "the kernel table",
        "gaps beyond each rank's 10 longest, stream gaps, and the events of each gap's evidence (its one-line "
        "summary is kept)",
        "import warnings (the skipped-event count is kept)",
    };
    return omissions;
}

RunSummary runSummaryFromRanks(const std::vector<RankSummary>& ranks, std::string label, std::size_t longestGaps)
{
    RunSummary s;
    s.label = std::move(label);
    s.analysis = analysisOptionsOf(ranks);
    s.processCount = ranks.size();
    std::set<int> rankNumbers;
    std::set<std::string> models;
    std::uint64_t skipped = 0;
    std::vector<GapSummary> gaps;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const RankSummary& r = ranks[i];
        if (r.rank)
            rankNumbers.insert(*r.rank);
        for (const DeviceSummary& d : r.devices) {
            RunSummary::Device device;
            device.rank = r.rank;
            device.rankKey = r.rank ? *r.rank : -1 - static_cast<int>(i);
            device.deviceId = d.id;
            device.name = d.name;
            device.figures = static_cast<const WindowFigures&>(d);
            s.devices.push_back(std::move(device));
            if (!d.name.empty())
                models.insert(d.name);
            s.hasGpuActivity = s.hasGpuActivity || d.busyNs > 0;
        }
        s.stepDurations.insert(s.stepDurations.end(), r.stepDurationsNs.begin(), r.stepDurationsNs.end());
        s.warmupSteps += r.warmupSteps;
        const TimeNs origin = rankWindowStart(r);
        for (const RankGapSummary& g : r.longestGaps) {
            GapSummary gap;
            gap.rank = r.rank;
            gap.deviceId = g.device;
            gap.startFromWindowNs = g.start - origin;
            gap.durationNs = g.end - g.start;
            gap.cause = g.cause;
            gap.evidence = g.evidence;
            gaps.push_back(std::move(gap));
        }
        // Each file of a job states the same skipped-event count for each of its ranks: count each source once.
        if (i == 0 || ranks[i - 1].source != r.source)
            skipped += r.skippedEvents;
    }
    std::stable_sort(
        gaps.begin(), gaps.end(), [](const GapSummary& a, const GapSummary& b) { return a.durationNs > b.durationNs; });
    if (gaps.size() > longestGaps)
        gaps.resize(longestGaps);
    s.longestGaps = std::move(gaps);
    s.ranks.assign(rankNumbers.begin(), rankNumbers.end());
    s.gpuModels.assign(models.begin(), models.end());
    if (skipped > 0)
        s.importNotes.push_back(
            { 0, { s.label, 0, std::to_string(skipped) + " malformed event(s) skipped", "in all" } });
    return s;
}

} // namespace gapscope
