// SPDX-License-Identifier: MIT
#include "core/analysis/compare.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <type_traits>

namespace gapscope {

WindowFiguresDelta figuresDelta(const WindowFigures& a, const WindowFigures& b)
{
    WindowFiguresDelta d;
    d.spanNs = b.spanNs - a.spanNs;
    d.busyNs = b.busyNs - a.busyNs;
    d.idleNs = b.idleNs - a.idleNs;
    d.utilization = b.utilization - a.utilization;
    d.gapCount = static_cast<std::int64_t>(b.gapCount) - static_cast<std::int64_t>(a.gapCount);
    for (int c = 0; c < kGapCauseCount; ++c)
        d.idleByCause[c] = b.idleByCause[c] - a.idleByCause[c];
    d.exposed.compute = b.exposed.compute - a.exposed.compute;
    d.exposed.communication = b.exposed.communication - a.exposed.communication;
    d.exposed.memcpy = b.exposed.memcpy - a.exposed.memcpy;
    d.exposed.idle = b.exposed.idle - a.exposed.idle;
    return d;
}

std::int64_t KernelDiff::deltaCount() const
{
    return static_cast<std::int64_t>(fresh ? fresh->count : 0) - static_cast<std::int64_t>(base ? base->count : 0);
}

TimeNs KernelDiff::deltaTotalNs() const
{
    return (fresh ? fresh->totalNs : 0) - (base ? base->totalNs : 0);
}

std::vector<TimeNs> countedStepDurations(const AnalysisResult& result)
{
    std::vector<TimeNs> durations;
    for (const Step& step : result.steps) {
        if (!step.warmup)
            durations.push_back(step.end - step.start);
    }
    return durations;
}

namespace {

using DeviceKey = std::pair<int, int>; // (rank key, device ordinal)

struct FiguresSum {
    WindowFigures sum;
    std::size_t runs = 0;
    std::string name;
    std::optional<int> rank;
    int deviceId = 0; // the ordinal on this side
};

void accumulate(FiguresSum& into, const WindowFigures& d)
{
    WindowFigures& s = into.sum;
    s.spanNs += d.spanNs;
    s.busyNs += d.busyNs;
    s.idleNs += d.idleNs;
    s.gapCount += d.gapCount;
    for (int c = 0; c < kGapCauseCount; ++c)
        s.idleByCause[c] += d.idleByCause[c];
    s.exposed.compute += d.exposed.compute;
    s.exposed.communication += d.exposed.communication;
    s.exposed.memcpy += d.exposed.memcpy;
    s.exposed.idle += d.exposed.idle;
    ++into.runs;
}

WindowFigures meanOf(const FiguresSum& f)
{
    WindowFigures m = f.sum;
    const auto n = static_cast<TimeNs>(std::max<std::size_t>(f.runs, 1));
    m.spanNs /= n;
    m.busyNs /= n;
    m.idleNs /= n;
    m.gapCount = static_cast<std::size_t>(std::llround(static_cast<double>(f.sum.gapCount) / static_cast<double>(n)));
    for (TimeNs& v : m.idleByCause)
        v /= n;
    m.exposed.compute /= n;
    m.exposed.communication /= n;
    m.exposed.memcpy /= n;
    m.exposed.idle /= n;
    m.utilization = utilizationOf(f.sum.busyNs, f.sum.spanNs);
    return m;
}

/// Devices of a side by key: (rank key, ordinal); when every run holds one process, (0, the device's place among
/// the process's devices by ordinal), so that the single processes match whatever their ranks and the GPU each
/// rank ran on (rank 3 on GPU 3 against rank 1 on GPU 1).
std::map<DeviceKey, FiguresSum> sideDevices(std::span<const RunSummary> runs, bool singleProcessRuns)
{
    std::map<DeviceKey, FiguresSum> devices;
    for (const RunSummary& run : runs) {
        std::vector<int> ordinals;
        for (const RunSummary::Device& d : run.devices)
            ordinals.push_back(d.deviceId);
        std::sort(ordinals.begin(), ordinals.end());
        for (const RunSummary::Device& d : run.devices) {
            const int place
                = static_cast<int>(std::lower_bound(ordinals.begin(), ordinals.end(), d.deviceId) - ordinals.begin());
            FiguresSum& f = devices[singleProcessRuns ? DeviceKey { 0, place } : DeviceKey { d.rankKey, d.deviceId }];
            if (f.runs == 0) {
                f.name = d.name;
                f.rank = d.rank;
                f.deviceId = d.deviceId;
            }
            accumulate(f, d.figures);
        }
    }
    return devices;
}

std::vector<DeviceDiff> compareDevices(
    std::span<const RunSummary> base, std::span<const RunSummary> fresh, bool singleProcessRuns)
{
    const auto baseDevices = sideDevices(base, singleProcessRuns);
    const auto newDevices = sideDevices(fresh, singleProcessRuns);
    std::set<DeviceKey> keys;
    for (const auto& [key, _] : baseDevices)
        keys.insert(key);
    for (const auto& [key, _] : newDevices)
        keys.insert(key);
    std::vector<DeviceDiff> diffs;
    for (const DeviceKey& key : keys) {
        DeviceDiff d;
        const auto base = baseDevices.find(key);
        const auto fresh = newDevices.find(key);
        if (base != baseDevices.end()) {
            d.base = meanOf(base->second);
            d.baseName = base->second.name;
            d.rank = base->second.rank;
        }
        if (fresh != newDevices.end()) {
            d.fresh = meanOf(fresh->second);
            d.newName = fresh->second.name;
            d.newRank = fresh->second.rank;
            d.newDeviceId = fresh->second.deviceId;
            if (!d.rank)
                d.rank = fresh->second.rank;
        }
        d.deviceId = base != baseDevices.end() ? base->second.deviceId : d.newDeviceId;
        if (fresh == newDevices.end())
            d.newDeviceId = d.deviceId;
        diffs.push_back(std::move(d));
    }
    return diffs;
}

std::map<std::string, KernelSide> sideKernels(std::span<const RunSummary> runs)
{
    struct Sum {
        std::size_t count = 0;
        TimeNs total = 0;
        std::vector<TimeNs> p50s;
    };
    std::map<std::string, Sum> sums;
    for (const RunSummary& run : runs) {
        for (const KernelStats& k : run.kernels) {
            Sum& s = sums[k.name];
            s.count += k.count;
            s.total += k.totalNs;
            s.p50s.push_back(k.p50Ns);
        }
    }
    const auto n = static_cast<double>(std::max<std::size_t>(runs.size(), 1));
    std::map<std::string, KernelSide> sides;
    for (auto& [name, s] : sums) {
        KernelSide side;
        side.count = static_cast<std::size_t>(std::llround(static_cast<double>(s.count) / n));
        side.totalNs = static_cast<TimeNs>(std::llround(static_cast<double>(s.total) / n));
        side.meanNs = s.count > 0 ? s.total / static_cast<TimeNs>(s.count) : 0;
        side.p50Ns = medianOf(s.p50s);
        sides.emplace(name, side);
    }
    return sides;
}

std::vector<KernelDiff> compareKernels(std::span<const RunSummary> base, std::span<const RunSummary> fresh)
{
    const auto baseKernels = sideKernels(base);
    auto newKernels = sideKernels(fresh);
    std::vector<KernelDiff> diffs;
    for (const auto& [name, side] : baseKernels) {
        KernelDiff d { name, side, std::nullopt };
        if (auto it = newKernels.find(name); it != newKernels.end()) {
            d.fresh = it->second;
            newKernels.erase(it);
        }
        diffs.push_back(std::move(d));
    }
    for (const auto& [name, side] : newKernels)
        diffs.push_back(KernelDiff { name, std::nullopt, side });
    std::stable_sort(diffs.begin(), diffs.end(), [](const KernelDiff& a, const KernelDiff& b) {
        const TimeNs da = std::abs(a.deltaTotalNs());
        const TimeNs db = std::abs(b.deltaTotalNs());
        return da != db ? da > db : a.name < b.name;
    });
    return diffs;
}

std::vector<GapSummary> longestGapsOfSide(std::span<const RunSummary> runs, std::size_t count)
{
    std::vector<GapSummary> gaps;
    for (std::size_t r = 0; r < runs.size(); ++r) {
        for (GapSummary g : runs[r].longestGaps) {
            g.run = r;
            gaps.push_back(std::move(g));
        }
    }
    std::stable_sort(
        gaps.begin(), gaps.end(), [](const GapSummary& a, const GapSummary& b) { return a.durationNs > b.durationNs; });
    if (gaps.size() > count)
        gaps.resize(count);
    return gaps;
}

std::vector<ImportNote> importNotes(std::span<const RunSummary> runs)
{
    std::vector<ImportNote> notes;
    for (std::size_t r = 0; r < runs.size(); ++r) {
        for (ImportNote n : runs[r].importNotes) {
            n.run = r;
            notes.push_back(std::move(n));
        }
    }
    return notes;
}

/// The event kinds a trace holds: what its collector was set to record.
std::uint32_t recordedKinds(const Trace& trace)
{
    std::uint32_t kinds = 0;
    for (const Lane& lane : trace.lanes()) {
        for (const Event& e : lane.events)
            kinds |= 1u << static_cast<int>(e.kind);
    }
    return kinds;
}

std::string kindList(std::uint32_t kinds)
{
    std::string text;
    for (int k = 0; k < kEventKindCount; ++k) {
        if (kinds & (1u << k))
            text += (text.empty() ? "" : ", ") + std::string(eventKindName(static_cast<EventKind>(k)));
    }
    return text;
}

template <typename Items> std::string joined(const Items& items)
{
    std::string text;
    for (const auto& item : items) {
        std::string piece;
        if constexpr (std::is_same_v<std::decay_t<decltype(item)>, int>)
            piece = std::to_string(item);
        else
            piece = item;
        text += (text.empty() ? "" : ", ") + piece;
    }
    return text.empty() ? "unknown" : text;
}

std::string runName(const char* side, std::size_t index, std::size_t runs, const std::string& label)
{
    std::string name = side;
    if (runs > 1)
        name += " run " + std::to_string(index + 1);
    return label.empty() ? name : name + " (" + label + ")";
}

void comparabilityWarnings(std::span<const RunSummary> base, std::span<const RunSummary> fresh,
    const CompareOptions& options, const StepComparison& steps, std::vector<std::string>& warnings)
{
    const RunSummary& reference = base.front();
    const std::string referenceName = runName("BASE", 0, base.size(), reference.label);
    const auto check = [&](const RunSummary& run, const std::string& name) {
        if (run.recordedKinds != reference.recordedKinds) {
            const std::uint32_t onlyReference = reference.recordedKinds & ~run.recordedKinds;
            const std::uint32_t onlyRun = run.recordedKinds & ~reference.recordedKinds;
            std::string text = "the runs recorded different kinds of events (different collector settings?): ";
            if (onlyReference)
                text += "only " + referenceName + " has " + kindList(onlyReference);
            if (onlyReference && onlyRun)
                text += "; ";
            if (onlyRun)
                text += "only " + name + " has " + kindList(onlyRun);
            warnings.push_back(text);
        }
        if (run.gpuModels != reference.gpuModels)
            warnings.push_back("different GPU models: " + referenceName + " ran on " + joined(reference.gpuModels)
                + ", " + name + " on " + joined(run.gpuModels));
        if (run.processCount != reference.processCount)
            warnings.push_back("different rank counts: " + referenceName + " has "
                + std::to_string(reference.processCount) + " process(es), " + name + " has "
                + std::to_string(run.processCount));
        if (run.processCount == 1 && reference.processCount == 1 && run.ranks.size() == 1 && reference.ranks.size() == 1
            && run.ranks != reference.ranks)
            warnings.push_back("one rank on each side, and the ranks differ: " + referenceName + " is rank "
                + joined(reference.ranks) + ", " + name + " is rank " + joined(run.ranks)
                + "; compared with each other as one process each");
        if (!run.ranks.empty() && !reference.ranks.empty() && run.ranks != reference.ranks
            && reference.processCount > 1)
            warnings.push_back("ranks are matched by number, and they differ: " + referenceName + " has ranks "
                + joined(reference.ranks) + ", " + name + " has " + joined(run.ranks)
                + "; a device of a rank only one side has compares with nothing");
    };
    for (std::size_t r = 1; r < base.size(); ++r)
        check(base[r], runName("BASE", r, base.size(), base[r].label));
    for (std::size_t r = 0; r < fresh.size(); ++r)
        check(fresh[r], runName("NEW", r, fresh.size(), fresh[r].label));

    const auto sideWarnings = [&](std::span<const RunSummary> runs, const char* side) {
        for (std::size_t r = 0; r < runs.size(); ++r) {
            const std::string name = runName(side, r, runs.size(), runs[r].label);
            if (runs[r].droppedRecords > 0)
                warnings.push_back(name + ": the collector dropped " + std::to_string(runs[r].droppedRecords)
                    + " record(s); its figures miss that activity");
            if (!runs[r].hasGpuActivity)
                warnings.push_back(name + ": no GPU activity in the window");
            for (const std::string& w : runs[r].analysisWarnings)
                warnings.push_back(name + ": " + w);
        }
    };
    sideWarnings(base, "BASE");
    sideWarnings(fresh, "NEW");

    const double baseSteps = static_cast<double>(steps.base.durations.size()) / static_cast<double>(base.size());
    const double newSteps = static_cast<double>(steps.fresh.durations.size()) / static_cast<double>(fresh.size());
    if ((baseSteps == 0) != (newSteps == 0)) {
        warnings.push_back(std::string(baseSteps == 0 ? "BASE" : "NEW") + " has no counted steps while "
            + (baseSteps == 0 ? "NEW" : "BASE") + " has some: the runs were not marked the same way");
    } else if (baseSteps > 0
        && std::max(baseSteps, newSteps) > options.stepCountRatioWarning * std::min(baseSteps, newSteps)) {
        warnings.push_back("very different step counts per run: BASE " + std::to_string(steps.base.durations.size())
            + " in " + std::to_string(base.size()) + " run(s), NEW " + std::to_string(steps.fresh.durations.size())
            + " in " + std::to_string(fresh.size()) + " run(s)");
    }
}

} // namespace

RunSummary summarizeRun(
    const Trace& trace, const AnalysisResult& result, std::string label, const CompareOptions& options)
{
    RunSummary s;
    s.label = std::move(label);
    s.analysis = result.options;
    s.processCount = trace.processes().size();
    std::set<int> ranks;
    for (const Process& p : trace.processes()) {
        if (p.rank)
            ranks.insert(*p.rank);
    }
    s.ranks.assign(ranks.begin(), ranks.end());
    for (const DeviceFigures& d : result.devices) {
        RunSummary::Device device;
        const auto& rank = trace.processes()[d.process.value].rank;
        device.rank = rank;
        device.rankKey = rank ? *rank : -1 - static_cast<int>(d.process.value);
        device.deviceId = trace.devices()[d.device.value].id;
        device.name = trace.devices()[d.device.value].name;
        device.figures = static_cast<const WindowFigures&>(d);
        s.devices.push_back(std::move(device));
    }
    s.stepDurations = countedStepDurations(result);
    s.warmupSteps = result.steps.size() - s.stepDurations.size();
    s.kernels = result.kernels;
    for (const std::size_t index : longestDeviceGaps(result, options.longestGaps)) {
        const Gap gap = result.gaps[index];
        GapSummary g;
        g.rank = trace.processes()[gap.process.value].rank;
        g.deviceId = trace.devices()[gap.device.value].id;
        g.startFromWindowNs = gap.start - result.windows[gap.process.value].start();
        g.durationNs = gap.duration();
        g.cause = gap.cause;
        g.evidence = describeGap(trace, gap, result.options.launchThresholdNs);
        s.longestGaps.push_back(std::move(g));
    }
    for (const ImportWarning& w : trace.warnings())
        s.importNotes.push_back({ 0, w });
    if (trace.skippedEvents() > 0)
        s.importNotes.push_back(
            { 0, { s.label, 0, std::to_string(trace.skippedEvents()) + " malformed event(s) skipped", "in all" } });
    s.recordedKinds = recordedKinds(trace);
    std::set<std::string> models;
    for (const Device& d : trace.devices()) {
        if (!d.name.empty())
            models.insert(d.name);
    }
    s.gpuModels.assign(models.begin(), models.end());
    s.droppedRecords = trace.droppedRecords();
    s.hasGpuActivity = result.hasGpuActivity;
    s.analysisWarnings = result.warnings;
    return s;
}

RunDiff compareRuns(std::span<const RunSummary> base, std::span<const RunSummary> fresh, const CompareOptions& options)
{
    RunDiff diff;
    if (base.empty() || fresh.empty())
        return diff;
    diff.analysis = base.front().analysis;
    for (const RunSummary& run : base)
        diff.baseRuns.push_back(run.label);
    for (const RunSummary& run : fresh)
        diff.newRuns.push_back(run.label);
    const auto one = [](const RunSummary& run) { return run.processCount == 1; };
    const bool singleProcessRuns
        = std::all_of(base.begin(), base.end(), one) && std::all_of(fresh.begin(), fresh.end(), one);
    diff.devices = compareDevices(base, fresh, singleProcessRuns);

    std::vector<std::vector<TimeNs>> baseSteps;
    std::vector<std::vector<TimeNs>> newSteps;
    std::size_t baseWarmup = 0;
    std::size_t newWarmup = 0;
    for (const RunSummary& run : base) {
        baseSteps.push_back(run.stepDurations);
        baseWarmup += run.warmupSteps;
    }
    for (const RunSummary& run : fresh) {
        newSteps.push_back(run.stepDurations);
        newWarmup += run.warmupSteps;
    }
    diff.steps = compareSteps(baseSteps, newSteps, options.bootstrap);
    diff.steps.base.warmup = baseWarmup;
    diff.steps.fresh.warmup = newWarmup;

    diff.kernels = compareKernels(base, fresh);
    diff.baseGaps = longestGapsOfSide(base, options.longestGaps);
    diff.newGaps = longestGapsOfSide(fresh, options.longestGaps);
    diff.baseImport = importNotes(base);
    diff.newImport = importNotes(fresh);
    comparabilityWarnings(base, fresh, options, diff.steps, diff.warnings);
    return diff;
}

} // namespace gapscope
