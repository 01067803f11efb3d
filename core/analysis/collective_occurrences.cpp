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

constexpr std::string_view kCollectiveNameKey = "Collective name\"";

/// Whether args text holds the key Kineto's collective args have. Every kernel's args are asked, so the search
/// starts from the key's 'C', which kernel args seldom hold (from '"' it would stop at every key and value; glibc's
/// memmem took as long as the rest of the summary).
bool hasCollectiveName(std::string_view args)
{
    return args.find(kCollectiveNameKey) != std::string_view::npos;
}

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
    if (!hasCollectiveName(argsJson))
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

/// The collective args of the innermost CPU range around the kernel's launch call that carries them. The ranges
/// around the call are its ancestors on its thread: walking back from it, each earlier event of smaller depth that
/// still covers it is the next one out (TraceBuilder::finish() computed the depths), so only the call's enclosing
/// ranges and their earlier children are read, never the whole thread.
void readLaunchingRangeArgs(const Trace& trace, EventRef kernel, CollectiveOccurrence& occurrence)
{
    const auto launch = trace.launchOf(kernel);
    if (!launch)
        return;
    const Lane& lane = trace.lanes()[launch->lane.value];
    const Event& call = trace.event(*launch);
    int depth = call.depth;
    for (std::size_t i = launch->index; i-- > 0 && depth > 0;) {
        const Event& range = lane.events[i];
        if (range.depth >= depth || range.end < call.end)
            continue;
        depth = range.depth;
        if ((range.kind == EventKind::CpuOp || range.kind == EventKind::UserAnnotation)
            && readCollectiveArgs(trace.argsJson(range), occurrence))
            return;
    }
}

/// Per name (by StringId): whether a kernel of that name is compute (DESIGN.md §4: not communication).
/// The union of a device's compute (non-communication kernels and memsets), DESIGN.md §4's first category.
/// `nameClasses`: trace.nameClasses(); a kernel without kCommunicationName is compute (a collective's
/// name, nccl* or rccl*, has it).
IntervalSet deviceCompute(const Trace& trace, DeviceIndex device, const std::vector<std::uint8_t>& nameClasses)
{
    std::vector<Interval> compute;
    for (const Lane& lane : trace.lanes()) {
        if (lane.kind != LaneKind::GpuStream || lane.device != device)
            continue;
        for (const Event& e : lane.events) {
            const bool isCompute = e.kind == EventKind::Memset
                || (e.kind == EventKind::Kernel && e.name.value < nameClasses.size()
                    && (nameClasses[e.name.value] & kCommunicationName) == 0);
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
    const std::vector<std::uint8_t>& nameClasses = trace.nameClasses();
    const auto communicationKernel = [&nameClasses](const Event& e) {
        return e.kind == EventKind::Kernel && e.name.value < nameClasses.size()
            && (nameClasses[e.name.value] & kCommunicationName) != 0;
    };
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        const Lane& lane = trace.lanes()[l];
        // Collectives are looked for on the streams that run a communication kernel (nccl/rccl) only.
        if (lane.kind != LaneKind::GpuStream || lane.process != process
            || std::none_of(lane.events.begin(), lane.events.end(), communicationKernel))
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
            occurrence.device = trace.devices()[lane.device.value].id;
            occurrence.start = e.start;
            occurrence.end = e.end;
            auto compute = computeByDevice.find(lane.device.value);
            if (compute == computeByDevice.end())
                compute
                    = computeByDevice.emplace(lane.device.value, deviceCompute(trace, lane.device, nameClasses)).first;
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
