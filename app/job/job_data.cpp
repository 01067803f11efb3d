// SPDX-License-Identifier: MIT
#include "app/job/job_data.h"

#include <algorithm>
#include <atomic>

namespace gapscope::timeline {

namespace {

// The start of output bin i of [start, end) cut into n: exact integer edges, so that bins tile the range. span * n
// fits an int64 for any span under 26 days at the widest heatmap (4,096 bins).
TimeNs binEdge(TimeNs start, TimeNs span, std::size_t n, std::size_t i)
{
    return start + span * static_cast<TimeNs>(i) / static_cast<TimeNs>(n);
}

std::size_t binOf(TimeNs t, TimeNs start, TimeNs span, std::size_t n)
{
    if (t <= start)
        return 0;
    const auto bin = static_cast<std::size_t>((t - start) * static_cast<TimeNs>(n) / span);
    return std::min(bin, n - 1);
}

// Adds `density` per ns of [a, b) (already inside [start, end)) to the output bins it overlaps.
void spread(TimeNs a, TimeNs b, double density, TimeNs start, TimeNs span, std::vector<double>& out,
    std::vector<double>* covered)
{
    const std::size_t n = out.size();
    for (std::size_t bin = binOf(a, start, span, n); bin < n; ++bin) {
        const TimeNs lo = std::max(a, binEdge(start, span, n, bin));
        const TimeNs hi = std::min(b, binEdge(start, span, n, bin + 1));
        if (lo >= b)
            break;
        if (hi > lo) {
            out[bin] += density * static_cast<double>(hi - lo);
            if (covered)
                (*covered)[bin] += static_cast<double>(hi - lo);
        }
    }
}

} // namespace

std::optional<std::size_t> JobData::stragglerRow() const
{
    if (!analysis.straggler)
        return std::nullopt;
    for (std::size_t row = 0; row < analysis.perRank.size(); ++row) {
        if (analysis.perRank[row].rank == analysis.straggler->rank)
            return row;
    }
    return std::nullopt;
}

std::optional<std::pair<TimeNs, TimeNs>> JobData::timeSpan() const
{
    std::optional<std::pair<TimeNs, TimeNs>> span;
    for (const RankSummary& s : summaries) {
        for (const DeviceSummary& d : s.devices) {
            if (d.windowEnd <= d.windowStart)
                continue;
            if (!span)
                span = std::pair { d.windowStart, d.windowEnd };
            span->first = std::min(span->first, d.windowStart);
            span->second = std::max(span->second, d.windowEnd);
        }
    }
    return span;
}

std::shared_ptr<const JobData> buildJobFromTrace(const Trace& trace, const AnalysisResult& result, std::stop_token stop)
{
    if (trace.processes().size() < 2 || !result.hasGpuActivity)
        return nullptr;
    auto job = std::make_shared<JobData>();
    std::vector<JobRankInput> inputs;
    for (std::uint32_t p = 0; p < trace.processes().size(); ++p) {
        if (stop.stop_requested())
            return nullptr;
        const ProcessIndex process { p };
        job->summaries.push_back(summarizeProcess(trace, result, process));
        std::vector<IntervalSet> busy;
        // In the order summarizeProcess takes the devices: the figures' order.
        for (const DeviceFigures& figures : result.devices) {
            if (figures.process == process)
                busy.push_back(
                    deviceBusy(trace, figures.device, result.options.activity).intersect(figures.window.ranges));
        }
        job->busy.push_back(std::move(busy));
        job->processes.push_back(process);
    }
    for (const RankSummary& s : job->summaries)
        inputs.push_back(s.jobInput());
    job->analysis = analyzeJob(inputs);
    // Processes without ranks (two traces opened side by side, not one job's files) make no job.
    if (job->analysis.perRank.empty())
        return nullptr;
    return job;
}

std::shared_ptr<const JobData> buildJobFromSummaries(std::vector<RankSummary> summaries, std::vector<std::string> files)
{
    auto job = std::make_shared<JobData>();
    job->summaries = std::move(summaries);
    job->busy.resize(job->summaries.size());
    job->processes.resize(job->summaries.size());
    job->fromSummaries = true;
    job->files = std::move(files);
    std::vector<JobRankInput> inputs;
    for (const RankSummary& s : job->summaries)
        inputs.push_back(s.jobInput());
    job->analysis = analyzeJob(inputs);
    return job;
}

void addBusyPerBin(const IntervalSet& busy, TimeNs start, TimeNs end, std::vector<double>& out)
{
    if (end <= start || out.empty())
        return;
    const auto& intervals = busy.intervals();
    auto it = std::lower_bound(
        intervals.begin(), intervals.end(), start, [](const Interval& i, TimeNs t) { return i.end <= t; });
    for (; it != intervals.end() && it->start < end; ++it)
        spread(std::max(it->start, start), std::min(it->end, end), 1.0, start, end - start, out, nullptr);
}

void addSummaryBusyPerBin(
    const DeviceSummary& device, TimeNs start, TimeNs end, std::vector<double>& out, std::vector<double>& covered)
{
    if (end <= start || out.empty() || device.binWidthNs <= 0)
        return;
    const TimeNs width = device.binWidthNs;
    std::size_t first = 0;
    if (start > device.binStart)
        first = static_cast<std::size_t>((start - device.binStart) / width);
    for (std::size_t j = first; j < device.busyPerBin.size(); ++j) {
        const TimeNs a = device.binStart + static_cast<TimeNs>(j) * width;
        const TimeNs b = std::min(a + width, device.windowEnd);
        if (a >= end)
            break;
        if (b <= a)
            continue;
        const double density = static_cast<double>(device.busyPerBin[j]) / static_cast<double>(b - a);
        const TimeNs lo = std::max(a, start);
        const TimeNs hi = std::min(b, end);
        if (hi > lo)
            spread(lo, hi, density, start, end - start, out, &covered);
    }
}

std::uint64_t newHeatmapId()
{
    static std::atomic<std::uint64_t> next { 1 };
    return next.fetch_add(1, std::memory_order_relaxed);
}

JobHeatmap computeJobHeatmap(const JobData& job, TimeNs start, TimeNs end, int columns, std::stop_token stop)
{
    JobHeatmap map;
    map.id = newHeatmapId();
    map.start = start;
    map.end = std::max(end, start + 1);
    map.columns = std::max(1, columns);
    const std::size_t n = static_cast<std::size_t>(map.columns);
    const std::size_t rows = job.rankCount();
    map.values.assign(rows * n, -1.0f);
    std::vector<double> busy(n);
    std::vector<double> covered(n);
    for (std::size_t row = 0; row < rows; ++row) {
        if (stop.stop_requested())
            return {};
        std::fill(busy.begin(), busy.end(), 0.0);
        std::fill(covered.begin(), covered.end(), 0.0);
        const std::size_t input = job.analysis.perRank[row].input;
        const RankSummary& summary = job.summaries[input];
        const std::vector<IntervalSet>& deviceBusy = job.busy[input];
        for (std::size_t d = 0; d < summary.devices.size(); ++d) {
            const DeviceSummary& device = summary.devices[d];
            if (d < deviceBusy.size()) {
                addBusyPerBin(deviceBusy[d], map.start, map.end, busy);
                // The part of each bin inside the device's window.
                const TimeNs lo = std::max(device.windowStart, map.start);
                const TimeNs hi = std::min(device.windowEnd, map.end);
                if (hi > lo)
                    spread(lo, hi, 0.0, map.start, map.end - map.start, busy, &covered);
            } else {
                addSummaryBusyPerBin(device, map.start, map.end, busy, covered);
            }
        }
        float* out = map.values.data() + row * n;
        for (std::size_t c = 0; c < n; ++c) {
            if (covered[c] > 0.0)
                out[c] = static_cast<float>(std::clamp(busy[c] / covered[c], 0.0, 1.0));
        }
    }
    map.rows = static_cast<int>(rows);
    return map;
}

} // namespace gapscope::timeline
