// SPDX-License-Identifier: MIT
#include "core/io/chrome/chrome_counters.h"

#include "core/io/chrome/json_scanner.h"

#include <nlohmann/json.hpp>

namespace gapscope::chrome {

namespace {

std::optional<std::int64_t> integerArg(const nlohmann::json& args, const char* key)
{
    const auto it = args.find(key);
    if (it == args.end() || !it->is_number())
        return std::nullopt;
    return it->is_number_integer() ? it->get<std::int64_t>() : static_cast<std::int64_t>(it->get<double>());
}

std::string nameOf(const ParsedEvent& ev)
{
    std::string name;
    if (!ev.hasName)
        return name;
    if (!ev.nameEscaped || !json::unescapeString(ev.name, name))
        name = std::string(ev.name);
    return name;
}

} // namespace

void ChromeCounterCollector::addMemory(const ParsedEvent& ev)
{
    if (!ev.hasArgs || !ev.hasTs)
        return;
    const nlohmann::json args = nlohmann::json::parse(ev.argsText, nullptr, false);
    if (!args.is_object()) {
        ++m_unreadable;
        return;
    }
    const std::int64_t type = integerArg(args, "Device Type").value_or(0);
    const std::int64_t id = integerArg(args, "Device Id").value_or(-1);
    m_memory[{ type, id }].push_back(MemoryPoint { ev.ts, integerArg(args, "Bytes").value_or(0),
        integerArg(args, "Total Allocated"), integerArg(args, "Total Reserved") });
}

void ChromeCounterCollector::addCounter(const ParsedEvent& ev)
{
    if (!ev.hasArgs || !ev.hasTs || !ev.hasName)
        return;
    const nlohmann::json args = nlohmann::json::parse(ev.argsText, nullptr, false);
    if (!args.is_object()) {
        ++m_unreadable;
        return;
    }
    const std::string name = nameOf(ev);
    for (const auto& [key, value] : args.items()) {
        if (!value.is_number())
            continue;
        std::string track = name;
        if (key != "value") {
            track += ' ';
            track += key;
        }
        m_counters[{ ev.pid.id.value, track }].push_back(CounterPoint { ev.ts, value.get<double>() });
    }
}

void ChromeCounterCollector::apply(TraceBuilder& trace)
{
    if (trace.processes().empty() && !(m_memory.empty() && m_counters.empty()))
        trace.addProcess(Process {});
    CounterTracks& counters = trace.counters();
    for (auto& [key, points] : m_memory) {
        const auto [type, id] = key;
        const ProcessIndex process { 0 };
        std::optional<DeviceIndex> device;
        std::string suffix;
        if (type == 1) {
            for (std::uint32_t d = 0; d < trace.devices().size(); ++d) {
                if (trace.devices()[d].process == process && trace.devices()[d].id == id)
                    device = DeviceIndex { d };
            }
            if (!device)
                suffix = " (GPU " + std::to_string(id) + ")";
        } else {
            suffix = type == 0 ? " (CPU)" : " (device type " + std::to_string(type) + ")";
        }
        bool totals = true;
        for (const MemoryPoint& p : points)
            totals = totals && p.allocated.has_value();
        // Running sums need time order; the file's order is usually it, but is not promised.
        std::stable_sort(
            points.begin(), points.end(), [](const MemoryPoint& a, const MemoryPoint& b) { return a.time < b.time; });
        CounterTrack& allocated = counters.tracks()[counters.track("memory allocated" + suffix, process, device)];
        allocated.unit = "bytes";
        allocated.keptAsEvents = true;
        if (!totals) {
            allocated.note = "the running sum of the [memory] events' Bytes (+ an allocation, - a free) from 0 at the "
                             "first: the trace gives no Total Allocated";
        }
        std::int64_t sum = 0;
        for (const MemoryPoint& p : points) {
            sum += p.bytes;
            allocated.points.push_back(CounterPoint { p.time, static_cast<double>(totals ? *p.allocated : sum) });
        }
        bool reservedTotals = true;
        for (const MemoryPoint& p : points)
            reservedTotals = reservedTotals && p.reserved.has_value();
        if (reservedTotals) {
            CounterTrack& reserved = counters.tracks()[counters.track("memory reserved" + suffix, process, device)];
            reserved.unit = "bytes";
            reserved.keptAsEvents = true;
            for (const MemoryPoint& p : points)
                reserved.points.push_back(CounterPoint { p.time, static_cast<double>(*p.reserved) });
        }
    }
    for (auto& [key, points] : m_counters) {
        const auto& [pid, name] = key;
        ProcessIndex process { 0 };
        for (std::uint32_t p = 0; p < trace.processes().size(); ++p) {
            if (trace.processes()[p].pid == pid)
                process = ProcessIndex { p };
        }
        CounterTrack& track = counters.tracks()[counters.track(name, process, std::nullopt)];
        track.points.insert(track.points.end(), points.begin(), points.end());
    }
    if (m_unreadable > 0) {
        trace.warnings().push_back(ImportWarning { trace.processes().front().sourceFile, 0,
            std::to_string(m_unreadable)
                + " counter or [memory] events have args that are not a JSON object: not counted" });
    }
    m_memory.clear();
    m_counters.clear();
}

} // namespace gapscope::chrome
