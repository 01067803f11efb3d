// SPDX-License-Identifier: MIT
// The tables of an nsys export that describe rather than record: strings, the export's version, process and
// thread names, GPUs, MPI ranks.
#include "core/io/nsys/nsys_import.h"

#include <algorithm>
#include <limits>
#include <map>

namespace gapscope::nsys {

namespace {

std::string jsonString(std::string_view text)
{
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            out += ' ';
        } else {
            out += c;
        }
    }
    return out + "\"";
}

} // namespace

void NsysImport::readStrings()
{
    const auto name = tableName(NsysTable::StringIds);
    if (!name)
        return;
    std::string problem;
    if (!m_strings.load(m_db, problem))
        warn(problem + "; names it did not give are shown as [string N]", "table StringIds");
    m_stringsRead = true;
}

void NsysImport::readExportMetadata()
{
    std::string product;
    std::string schema;
    if (const auto name = tableName(NsysTable::ExportMetadata)) {
        if (auto s = select(*name, { { "name", true }, { "value", true } },
                " WHERE name IN "
                "('EXPORT_PRODUCT_VERSION', "
                "'EXPORT_SCHEMA_VERSION')")) {
            forEachRow(*name, *s, [&](std::uint64_t) {
                (s->text(0) == "EXPORT_PRODUCT_VERSION" ? product : schema) = std::string(s->text(1));
            });
        }
    }
    std::string started;
    if (has("TARGET_INFO_SESSION_START_TIME")) {
        if (auto s = select("TARGET_INFO_SESSION_START_TIME", { { "utcTime", false } })) {
            forEachRow("TARGET_INFO_SESSION_START_TIME", *s, [&](std::uint64_t) {
                if (started.empty() && !s->text(0).empty())
                    started = std::string(s->text(0)) + " UTC";
            });
        }
    }
    std::string text = "Nsight Systems export";
    text += product.empty() ? " (nsys version not stated)" : " by nsys " + product;
    if (!schema.empty())
        text += ", export schema " + schema;
    if (!started.empty())
        text += ", session started " + started;
    text += "; times are ns on the capture's clock";
    warn(std::move(text));
}

void NsysImport::readRanks()
{
    // Newer exports of MPI runs list each rank's thread.
    if (!has("MPI_RANKS"))
        return;
    const std::vector<std::string> present = m_db.columns("MPI_RANKS");
    const auto hasColumn
        = [&](std::string_view c) { return std::find(present.begin(), present.end(), c) != present.end(); };
    if (!hasColumn("rank") || !hasColumn("globalTid"))
        return;
    if (auto s = select("MPI_RANKS", { { "globalTid", true }, { "rank", true } })) {
        forEachRow("MPI_RANKS", *s, [&](std::uint64_t) {
            const std::int64_t rank = s->integer(1);
            if (rank >= 0 && rank <= std::numeric_limits<int>::max())
                m_ranks[globalPidOf(s->integer(0))] = static_cast<int>(rank);
        });
    }
}

void NsysImport::nameThreadsAndProcesses()
{
    if (const auto name = tableName(NsysTable::ThreadNames)) {
        if (auto s = select(*name, { { "globalTid", true }, { "nameId", true } })) {
            forEachRow(*name, *s, [&](std::uint64_t) {
                const auto lane = m_threadLanes.find(s->integer(0));
                if (lane != m_threadLanes.end())
                    m_trace.lanes()[lane->second.value].name = std::string(m_strings.text(s->integer(1)).value_or(""));
            });
        }
    }
    for (const auto& [globalTid, text] : m_nvtxThreadNames) {
        if (const auto lane = m_threadLanes.find(globalTid); lane != m_threadLanes.end() && !text.empty())
            m_trace.lanes()[lane->second.value].name = text;
    }
    if (const auto name = tableName(NsysTable::Processes)) {
        if (auto s = select(*name, { { "globalPid", true }, { "name", false } })) {
            forEachRow(*name, *s, [&](std::uint64_t) {
                const auto p = m_processes.find(globalPidOf(s->integer(0)));
                if (p != m_processes.end() && !s->text(1).empty())
                    m_trace.processes()[p->second.value].name = std::string(s->text(1));
            });
        }
    }
    // Without PROCESSES, a process is named after its main thread.
    for (const auto& [globalPid, index] : m_processes) {
        Process& p = m_trace.processes()[index.value];
        if (!p.name.empty())
            continue;
        if (const auto lane = m_threadLanes.find(globalPid | p.pid); lane != m_threadLanes.end())
            p.name = m_trace.lanes()[lane->second.value].name;
    }
}

void NsysImport::nameDevices()
{
    if (m_trace.devices().empty())
        return; // nothing to name
    struct Gpu {
        std::int64_t id;
        std::int64_t cuDevice;
        std::string name;
        std::int64_t totalMemory;
        std::int64_t smCount;
    };
    std::vector<Gpu> gpus;
    if (const auto name = tableName(NsysTable::TargetGpu)) {
        if (auto s = select(*name,
                { { "id", true }, { "name", true }, { "cuDevice", false }, { "totalMemory", false },
                    { "smCount", false } })) {
            forEachRow(*name, *s, [&](std::uint64_t) {
                gpus.push_back(Gpu { s->integer(0), s->isNull(2) ? -1 : s->integer(2), std::string(s->text(1)),
                    s->integer(3), s->integer(4) });
            });
        }
    }
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> gpuOfCudaDevice; // (pid, cudaId) -> GPU id
    // Older exports (schema 2.x) do not have this table; TARGET_INFO_GPU's cuDevice then tells.
    if (const auto name = tableName(NsysTable::TargetCudaDevice)) {
        if (auto s = select(*name, { { "gpuId", true }, { "cudaId", true }, { "pid", true } })) {
            forEachRow(*name, *s, [&](std::uint64_t) {
                gpuOfCudaDevice[{ s->integer(2), s->integer(1) }] = s->integer(0);
            });
        }
    }
    for (Device& device : m_trace.devices()) {
        const std::int64_t pid = m_trace.processes()[device.process.value].pid;
        const Gpu* gpu = nullptr;
        if (const auto it = gpuOfCudaDevice.find({ pid, device.id }); it != gpuOfCudaDevice.end()) {
            const auto found = std::find_if(gpus.begin(), gpus.end(), [&](const Gpu& g) { return g.id == it->second; });
            gpu = found != gpus.end() ? &*found : nullptr;
        }
        for (const auto& match : { +[](const Gpu&g, int id) { return g.cuDevice == id; },
                 +[](const Gpu&g, int id) { return g.id == id; } }) {
            if (gpu)
                break;
            const auto found
                = std::find_if(gpus.begin(), gpus.end(), [&](const Gpu& g) { return match(g, device.id); });
            gpu = found != gpus.end() ? &*found : nullptr;
        }
        if (!gpu)
            continue;
        device.name = gpu->name;
        // The keys of a Kineto `deviceProperties` entry.
        device.propertiesJson = "{\"id\":" + std::to_string(device.id) + ",\"name\":" + jsonString(gpu->name)
            + ",\"totalGlobalMem\":" + std::to_string(gpu->totalMemory) + ",\"numSms\":" + std::to_string(gpu->smCount)
            + "}";
    }
}

} // namespace gapscope::nsys
