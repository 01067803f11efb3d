// SPDX-License-Identifier: MIT
#include "core/summary/rank_summary.h"
#include "core/experiment/metric_samples.h"
#include "core/io/trace_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <tuple>

namespace gapscope {

namespace {

/// Adds the busy time of [start, end) to the bins it overlaps.
void addToBins(DeviceSummary& device, TimeNs start, TimeNs end, TimeNs sign)
{
    if (device.binWidthNs <= 0 || end <= start)
        return;
    const auto count = static_cast<TimeNs>(device.busyPerBin.size());
    TimeNs bin = std::clamp<TimeNs>((start - device.binStart) / device.binWidthNs, 0, count - 1);
    for (; bin < count; ++bin) {
        const TimeNs binStart = device.binStart + bin * device.binWidthNs;
        const TimeNs binEnd = std::min(binStart + device.binWidthNs, device.windowEnd);
        if (binStart >= end)
            break;
        device.busyPerBin[static_cast<std::size_t>(bin)] += sign * (std::min(end, binEnd) - std::max(start, binStart));
    }
}

} // namespace

TimeNs RankSummary::spanNs() const
{
    TimeNs total = 0;
    for (const DeviceSummary& d : devices)
        total += d.spanNs;
    return total;
}

TimeNs RankSummary::busyNs() const
{
    TimeNs total = 0;
    for (const DeviceSummary& d : devices)
        total += d.busyNs;
    return total;
}

TimeNs RankSummary::idleNs() const
{
    TimeNs total = 0;
    for (const DeviceSummary& d : devices)
        total += d.idleNs;
    return total;
}

std::array<TimeNs, kGapCauseCount> RankSummary::idleByCause() const
{
    std::array<TimeNs, kGapCauseCount> total {};
    for (const DeviceSummary& d : devices) {
        for (int c = 0; c < kGapCauseCount; ++c)
            total[c] += d.idleByCause[c];
    }
    return total;
}

TimeNs RankSummary::exposedCommunicationNs() const
{
    TimeNs total = 0;
    for (const DeviceSummary& d : devices)
        total += d.exposed.communication;
    return total;
}

JobRankInput RankSummary::jobInput() const
{
    return JobRankInput { rank, worldSize, source, exposedCommunicationNs(), &collectives };
}

std::optional<int> worldSizeOf(const Process& process)
{
    if (process.fileMetadataJson.empty())
        return std::nullopt;
    const nlohmann::json metadata = nlohmann::json::parse(process.fileMetadataJson, nullptr, false);
    if (!metadata.is_object())
        return std::nullopt;
    const auto info = metadata.find("distributedInfo");
    if (info == metadata.end() || !info->is_object())
        return std::nullopt;
    const auto size = info->find("world_size");
    if (size == info->end() || !size->is_number_integer())
        return std::nullopt;
    return size->get<int>();
}

AnalysisOptions summaryAnalysisOptions(AnalysisOptions options)
{
    options.streamGaps = false;
    options.kernelStatistics = false;
    return options;
}

RankSummary summarizeProcess(
    const Trace& trace, const AnalysisResult& result, ProcessIndex process, const SummaryOptions& options)
{
    const Process& p = trace.processes()[process.value];
    RankSummary summary;
    summary.source = p.sourceFile;
    summary.pid = p.pid;
    summary.processName = p.name;
    summary.rank = p.rank;
    summary.worldSize = worldSizeOf(p);
    summary.window = result.options.window.kind;
    summary.activity = result.options.activity;
    summary.launchThresholdNs = result.options.launchThresholdNs;
    summary.skippedEvents = trace.skippedEvents();

    std::vector<std::uint32_t> deviceIndices;
    for (const DeviceFigures& figures : result.devices) {
        if (figures.process != process)
            continue;
        DeviceSummary d;
        d.id = trace.devices()[figures.device.value].id;
        d.name = trace.devices()[figures.device.value].name;
        d.windowStart = figures.window.start();
        d.windowEnd = figures.window.end();
        static_cast<WindowFigures&>(d) = figures;
        // Busy per bin: the window's ranges (busy until told otherwise) minus the device gaps.
        const TimeNs extent = d.windowEnd - d.windowStart;
        if (extent > 0 && options.bins > 0) {
            d.binStart = d.windowStart;
            d.binWidthNs = (extent + static_cast<TimeNs>(options.bins) - 1) / static_cast<TimeNs>(options.bins);
            d.busyPerBin.assign(static_cast<std::size_t>((extent + d.binWidthNs - 1) / d.binWidthNs), 0);
            for (const Interval& range : figures.window.ranges.intervals())
                addToBins(d, range.start, range.end, 1);
        }
        summary.devices.push_back(std::move(d));
        deviceIndices.push_back(figures.device.value);
    }
    // One pass over the gap list: device gaps of this process go to their device's bins.
    for (const GapRun& run : result.gaps.runs()) {
        if (run.process != process || run.stream)
            continue;
        const auto at = std::find(deviceIndices.begin(), deviceIndices.end(), run.device.value);
        if (at == deviceIndices.end())
            continue;
        DeviceSummary& d = summary.devices[static_cast<std::size_t>(at - deviceIndices.begin())];
        for (const StoredGap& gap : run.gaps)
            addToBins(d, gap.start, gap.end, -1);
    }
    for (const std::size_t index : longestDeviceGaps(result, result.longestDeviceGaps.size())) {
        const Gap gap = result.gaps[index];
        if (gap.process != process)
            continue;
        if (summary.longestGaps.size() == options.longestGaps)
            break;
        summary.longestGaps.push_back({ trace.devices()[gap.device.value].id, gap.start, gap.end, gap.cause,
            describeGap(trace, gap, result.options.launchThresholdNs) });
    }
    for (const StepStats& steps : result.stepStats) {
        if (steps.process == process) {
            summary.steps = steps.count;
            summary.warmupSteps = steps.warmup;
            summary.stepP50Ns = steps.p50Ns;
            summary.stepP95Ns = steps.p95Ns;
        }
    }
    for (const Step& step : result.steps) {
        if (step.process == process && !step.warmup)
            summary.stepDurationsNs.push_back(step.end - step.start);
    }
    for (const MetricSpec& m : options.metrics)
        summary.metrics.push_back({ m.name, m.specText(), metricSamples(trace, result, m, process).values });
    summary.collectives = findCollectives(trace, process);
    return summary;
}

IoResult<std::vector<RankSummary>> summarizeTraceFile(
    const std::string& path, const AnalysisOptions& analysis, const SummaryOptions& options)
{
    auto loaded = loadTraceFile(path);
    if (!loaded)
        return loaded.error();
    const Trace& trace = loaded.value();
    const AnalysisResult result = analyze(trace, summaryAnalysisOptions(analysis));
    std::vector<RankSummary> summaries;
    for (std::uint32_t p = 0; p < trace.processes().size(); ++p) {
        RankSummary summary = summarizeProcess(trace, result, ProcessIndex { p }, options);
        if (summary.source.empty())
            summary.source = path;
        summaries.push_back(std::move(summary));
    }
    return summaries;
}

void sortByRank(std::vector<RankSummary>& summaries)
{
    std::stable_sort(summaries.begin(), summaries.end(), [](const RankSummary& a, const RankSummary& b) {
        const auto key = [](const RankSummary& s) {
            return std::make_tuple(!s.rank.has_value(), s.rank.value_or(0), std::cref(s.source), s.pid);
        };
        return key(a) < key(b);
    });
}

} // namespace gapscope
