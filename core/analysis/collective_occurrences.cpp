// SPDX-License-Identifier: MIT
// Finding the collective kernels of one process, with what the trace's args say about them (collectives.h).
#include "core/analysis/collectives.h"
#include "core/model/call_names.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>

namespace gapscope {

namespace {

constexpr std::string_view kCollectiveNameKey = "\"Collective name\"";

bool startsWithNoCase(std::string_view text, std::string_view prefix)
{
    if (text.size() < prefix.size())
        return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i])
            return false;
    }
    return true;
}

/// What Kineto's collective args say: "Collective name", "Process Group Name" (else "Process Group ID"), "Seq".
/// False when the text is not a JSON object with a collective name.
bool readCollectiveArgs(std::string_view argsJson, CollectiveOccurrence& occurrence)
{
    if (argsJson.find(kCollectiveNameKey) == std::string_view::npos)
        return false;
    const nlohmann::json args = nlohmann::json::parse(argsJson, nullptr, false);
    if (!args.is_object())
        return false;
    const auto name = args.find("Collective name");
    if (name == args.end() || !name->is_string())
        return false;
    occurrence.collective = name->get<std::string>();
    const auto text = [](const nlohmann::json& value) -> std::string {
        if (value.is_string())
            return value.get<std::string>();
        if (value.is_number_integer())
            return std::to_string(value.get<std::int64_t>());
        return {};
    };
    if (const auto group = args.find("Process Group Name"); group != args.end())
        occurrence.group = text(*group);
    if (occurrence.group.empty()) {
        if (const auto id = args.find("Process Group ID"); id != args.end())
            occurrence.group = text(*id);
    }
    if (const auto seq = args.find("Seq"); seq != args.end()) {
        if (seq->is_number_integer()) {
            occurrence.seq = seq->get<std::int64_t>();
        } else if (seq->is_string()) {
            const std::string digits = seq->get<std::string>();
            if (!digits.empty()
                && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
                occurrence.seq = std::stoll(digits);
        }
    }
    return true;
}

/// The collective args of the innermost CPU range around the kernel's launch call that carries them.
void readLaunchingRangeArgs(const Trace& trace, EventRef kernel, CollectiveOccurrence& occurrence)
{
    const auto launch = trace.launchOf(kernel);
    if (!launch)
        return;
    const Lane& lane = trace.lanes[launch->lane.value];
    const Event& call = trace.event(*launch);
    const auto [first, last] = lane.visibleRange(call.start, call.start + 1);
    const Event* innermost = nullptr;
    for (std::size_t i = first; i < last; ++i) {
        const Event& range = lane.events[i];
        if (range.start > call.start || range.end < call.end || range.args == kNoArgs)
            continue;
        if (range.kind != EventKind::CpuOp && range.kind != EventKind::UserAnnotation)
            continue;
        if (trace.argsJson(range).find(kCollectiveNameKey) == std::string_view::npos)
            continue;
        if (!innermost || range.start > innermost->start
            || (range.start == innermost->start && range.end < innermost->end))
            innermost = &range;
    }
    if (innermost)
        readCollectiveArgs(trace.argsJson(*innermost), occurrence);
}

/// The union of a device's compute (non-communication kernels and memsets), DESIGN.md §4's first category.
IntervalSet deviceCompute(const Trace& trace, DeviceIndex device)
{
    std::vector<Interval> compute;
    for (const Lane& lane : trace.lanes) {
        if (lane.kind != LaneKind::GpuStream || lane.device != device)
            continue;
        for (const Event& e : lane.events) {
            const bool isCompute = e.kind == EventKind::Memset
                || (e.kind == EventKind::Kernel && !isCommunicationKernel(trace.name(e))
                    && !isCollectiveKernelName(trace.name(e)));
            if (isCompute && e.end > e.start)
                compute.push_back({ e.start, e.end });
        }
    }
    return IntervalSet::unionOf(std::move(compute));
}

/// [start, end) minus the compute intervals (sorted, disjoint), found from the first one that ends after start.
std::vector<Interval> exposedParts(const std::vector<Interval>& compute, TimeNs start, TimeNs end)
{
    std::vector<Interval> parts;
    auto it = std::upper_bound(
        compute.begin(), compute.end(), start, [](TimeNs t, const Interval& interval) { return t < interval.end; });
    TimeNs at = start;
    for (; it != compute.end() && it->start < end; ++it) {
        if (it->start > at)
            parts.push_back({ at, it->start });
        at = std::max(at, it->end);
    }
    if (at < end)
        parts.push_back({ at, end });
    return parts;
}

} // namespace

bool isCollectiveKernelName(std::string_view name)
{
    return startsWithNoCase(name, "nccl") || startsWithNoCase(name, "rccl");
}

std::vector<CollectiveOccurrence> findCollectives(const Trace& trace, ProcessIndex process)
{
    std::vector<CollectiveOccurrence> found;
    std::map<std::uint32_t, IntervalSet> computeByDevice;
    for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
        const Lane& lane = trace.lanes[l];
        if (lane.kind != LaneKind::GpuStream || lane.process != process || !lane.communicationKernels)
            continue;
        for (std::uint32_t i = 0; i < lane.events.size(); ++i) {
            const Event& e = lane.events[i];
            if (e.kind != EventKind::Kernel)
                continue;
            CollectiveOccurrence occurrence;
            const bool markedByArgs = readCollectiveArgs(trace.argsJson(e), occurrence);
            const std::string_view name = trace.name(e);
            if (!markedByArgs && !isCollectiveKernelName(name))
                continue;
            if (!markedByArgs)
                readLaunchingRangeArgs(trace, EventRef { LaneIndex { l }, i }, occurrence);
            occurrence.kernel = std::string(name);
            occurrence.device = trace.devices[lane.device.value].id;
            occurrence.start = e.start;
            occurrence.end = e.end;
            auto compute = computeByDevice.find(lane.device.value);
            if (compute == computeByDevice.end())
                compute = computeByDevice.emplace(lane.device.value, deviceCompute(trace, lane.device)).first;
            occurrence.exposed = exposedParts(compute->second.intervals(), e.start, e.end);
            found.push_back(std::move(occurrence));
        }
    }
    std::stable_sort(found.begin(), found.end(), [](const CollectiveOccurrence& a, const CollectiveOccurrence& b) {
        if (a.start != b.start)
            return a.start < b.start;
        if (a.end != b.end)
            return a.end > b.end;
        return a.device < b.device;
    });
    return found;
}

} // namespace gapscope
