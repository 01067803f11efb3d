// SPDX-License-Identifier: MIT
#include "core/model/process_order.h"

#include <algorithm>
#include <numeric>

namespace gapscope {

std::vector<ProcessIndex> processesInRankOrder(const Trace& trace)
{
    std::vector<std::uint32_t> order(trace.processes().size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const Process& pa = trace.processes()[a];
        const Process& pb = trace.processes()[b];
        if (pa.rank.has_value() != pb.rank.has_value())
            return pa.rank.has_value();
        if (pa.rank && *pa.rank != *pb.rank)
            return *pa.rank < *pb.rank;
        return pa.pid < pb.pid;
    });
    std::vector<ProcessIndex> result;
    result.reserve(order.size());
    for (const std::uint32_t p : order)
        result.push_back(ProcessIndex { p });
    return result;
}

std::vector<DeviceIndex> devicesInRankOrder(const Trace& trace)
{
    std::vector<std::uint32_t> place(trace.processes().size());
    const std::vector<ProcessIndex> processes = processesInRankOrder(trace);
    for (std::uint32_t i = 0; i < processes.size(); ++i)
        place[processes[i].value] = i;
    std::vector<DeviceIndex> devices(trace.devices().size());
    for (std::uint32_t d = 0; d < devices.size(); ++d)
        devices[d] = DeviceIndex { d };
    std::stable_sort(devices.begin(), devices.end(), [&](DeviceIndex a, DeviceIndex b) {
        const Device& da = trace.devices()[a.value];
        const Device& db = trace.devices()[b.value];
        if (da.process != db.process)
            return place[da.process.value] < place[db.process.value];
        return da.id < db.id;
    });
    return devices;
}

} // namespace gapscope
