// SPDX-License-Identifier: MIT
// The CPU samples of an nsys export (`nsys profile --sample=process-tree`, on by default): COMPOSITE_EVENTS holds
// a sample per row (time, thread, CPU), SAMPLING_CALLCHAINS its frames (one row per frame: the sample's id, the
// depth, 0 being the sampled function, and the function and module through StringIds).
#include "core/io/nsys/nsys_import.h"

#include <algorithm>
#include <unordered_map>

namespace gapscope::nsys {

void NsysImport::readCpuSamples()
{
    if (!has("COMPOSITE_EVENTS") || !has("SAMPLING_CALLCHAINS"))
        return; // sampling was off, or the export predates it: nothing to say
    CpuSamples& samples = m_trace.samples();
    // The chain of each sample id, by id ascending. nsys writes a sample's frames together and by depth; a file
    // that does not is read again in that order (by the table's primary key).
    std::vector<std::pair<std::int64_t, std::uint32_t>> chainOf;
    std::vector<StackFrame> frames;
    std::int64_t current = 0;
    bool open = false;
    bool inOrder = true;
    const auto close = [&] {
        if (open)
            chainOf.emplace_back(current, samples.addChain(frames));
        frames.clear();
        open = false;
    };
    const auto readChains = [&](std::string_view tail) {
        m_rowBase = 0;
        scanRows("SAMPLING_CALLCHAINS",
            { { "id", true }, { "symbol", true }, { "module", true }, { "stackDepth", true } }, tail,
            [&](const SqliteRow& s, std::uint64_t) {
                if (!inOrder)
                    return;
                const std::int64_t id = s.integer(0);
                const std::int64_t depth = s.integer(3);
                if (!open || id != current) {
                    if (open && id < current) {
                        inOrder = false;
                        return;
                    }
                    close();
                    current = id;
                    open = true;
                }
                if (depth != static_cast<std::int64_t>(frames.size())) {
                    inOrder = false;
                    return;
                }
                frames.push_back(
                    StackFrame { m_strings.name(s.integer(1), m_trace), m_strings.name(s.integer(2), m_trace) });
            });
        close();
    };
    readChains({});
    if (!inOrder) {
        chainOf.clear();
        frames.clear();
        open = false;
        inOrder = true;
        readChains(" ORDER BY id, stackDepth");
    }
    std::optional<std::uint32_t> noChain; // the empty chain, made for the first sample without frames
    std::unordered_map<std::int64_t, std::size_t> threadOf; // by globalTid
    std::int64_t lastTid = -1;
    std::size_t lastThread = 0;
    std::uint64_t withoutChain = 0;
    scanRows("COMPOSITE_EVENTS", { { "id", true }, { "start", true }, { "globalTid", true }, { "cpu", false } }, {},
        [&](const SqliteRow& s, std::uint64_t) {
            const std::int64_t globalTid = s.integer(2);
            if (globalTid != lastTid) {
                auto it = threadOf.find(globalTid);
                if (it == threadOf.end())
                    it = threadOf.emplace(globalTid, samples.thread(process(globalPidOf(globalTid)), tidOf(globalTid)))
                             .first;
                lastTid = globalTid;
                lastThread = it->second;
            }
            const std::int64_t id = s.integer(0);
            const auto chain
                = std::lower_bound(chainOf.begin(), chainOf.end(), std::make_pair(id, std::uint32_t { 0 }));
            CpuSample sample;
            sample.time = s.integer(1);
            sample.cpu = static_cast<std::uint32_t>(std::max<std::int64_t>(s.integer(3), 0));
            if (chain != chainOf.end() && chain->first == id) {
                sample.callchain = chain->second;
            } else {
                if (!noChain)
                    noChain = samples.addChain({});
                sample.callchain = *noChain;
                ++withoutChain;
            }
            samples.threads()[lastThread].samples.push_back(sample);
        });
    if (withoutChain > 0) {
        warn(std::to_string(withoutChain)
                + " CPU samples have no frames in SAMPLING_CALLCHAINS: counted, with no function to name",
            "table COMPOSITE_EVENTS");
    }
}

} // namespace gapscope::nsys
