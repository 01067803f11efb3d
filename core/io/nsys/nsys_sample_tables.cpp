// SPDX-License-Identifier: MIT
// The CPU samples of an nsys export (`nsys profile --sample=process-tree`, on by default): COMPOSITE_EVENTS holds
// a sample per row (time, thread, CPU), SAMPLING_CALLCHAINS its frames (one row per frame: the sample's id, the
// depth, 0 being the sampled function, and the function and module through StringIds).
#include "core/io/nsys/nsys_import.h"

#include <algorithm>
#include <unordered_map>

namespace gapscope::nsys {

namespace {

std::uint64_t hashOfFrames(const std::vector<NsysEvidenceRows::RawFrame>& frames, std::size_t begin)
{
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::size_t f = begin; f < frames.size(); ++f) {
        h = (h ^ static_cast<std::uint64_t>(frames[f].symbol)) * 0x100000001b3ull;
        h = (h ^ static_cast<std::uint64_t>(frames[f].module)) * 0x100000001b3ull;
    }
    return h;
}

} // namespace

void NsysImport::readSampleRows()
{
    if (!has("COMPOSITE_EVENTS") || !has("SAMPLING_CALLCHAINS"))
        return; // sampling was off, or the export predates it: nothing to say
    NsysEvidenceRows& rows = m_evidence;
    rows.hasSamples = true;
    // A program samples the same few stacks over and over: each chain is kept once, its frames as raw string ids,
    // and named once after the join. A chain being read sits at the end of `frames` until it is closed: then it
    // is either new (kept) or a repeat (dropped again).
    std::unordered_multimap<std::uint64_t, std::uint32_t> chainsByHash;
    std::int64_t current = 0;
    bool open = false;
    bool inOrder = true;
    const auto close = [&] {
        if (!open)
            return;
        open = false;
        const std::size_t begin = rows.chainStart.back();
        const std::size_t length = rows.frames.size() - begin;
        const std::uint64_t hash = hashOfFrames(rows.frames, begin);
        const auto [first, last] = chainsByHash.equal_range(hash);
        for (auto it = first; it != last; ++it) {
            const std::uint32_t c = it->second;
            if (rows.chainStart[c + 1] - rows.chainStart[c] == length
                && std::equal(rows.frames.begin() + rows.chainStart[c], rows.frames.begin() + rows.chainStart[c + 1],
                    rows.frames.begin() + static_cast<std::ptrdiff_t>(begin))) {
                rows.frames.resize(begin);
                rows.chainOfSample.emplace_back(current, c);
                return;
            }
        }
        const auto chain = static_cast<std::uint32_t>(rows.chainStart.size() - 1);
        rows.chainStart.push_back(static_cast<std::uint32_t>(rows.frames.size()));
        chainsByHash.emplace(hash, chain);
        rows.chainOfSample.emplace_back(current, chain);
    };
    const auto readChains = [&](std::string_view tail) {
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
                if (depth != static_cast<std::int64_t>(rows.frames.size() - rows.chainStart.back())) {
                    inOrder = false;
                    return;
                }
                rows.frames.push_back(NsysEvidenceRows::RawFrame { s.integer(1), s.integer(2) });
            });
        close();
    };
    // nsys writes a sample's frames together and by depth; a file that does not is read again in that order (by
    // the table's primary key).
    readChains({});
    if (!inOrder) {
        rows.frames.clear();
        rows.chainStart.assign(1, 0);
        rows.chainOfSample.clear();
        chainsByHash.clear();
        open = false;
        inOrder = true;
        readChains(" ORDER BY id, stackDepth");
    }
    scanRows("COMPOSITE_EVENTS", { { "id", true }, { "start", true }, { "globalTid", true }, { "cpu", false } }, {},
        [&](const SqliteRow& s, std::uint64_t) {
            rows.samples.push_back(NsysEvidenceRows::Sample { s.integer(0), s.integer(1), s.integer(2),
                static_cast<std::uint32_t>(std::max<std::int64_t>(s.integer(3), 0)) });
        });
}

void NsysImport::applySampleRows()
{
    NsysEvidenceRows& rows = m_evidence;
    if (!rows.hasSamples)
        return;
    CpuSamples& samples = m_trace.samples();
    // Each distinct chain named once.
    std::vector<std::uint32_t> chainId(rows.chainStart.size() - 1);
    std::vector<StackFrame> frames;
    for (std::size_t c = 0; c + 1 < rows.chainStart.size(); ++c) {
        frames.clear();
        for (std::uint32_t f = rows.chainStart[c]; f < rows.chainStart[c + 1]; ++f)
            frames.push_back(StackFrame {
                m_strings.name(rows.frames[f].symbol, m_trace), m_strings.name(rows.frames[f].module, m_trace) });
        chainId[c] = samples.addChain(frames);
    }
    std::optional<std::uint32_t> noChain; // the empty chain, made for the first sample without frames
    std::unordered_map<std::int64_t, std::size_t> threadOf; // by globalTid
    std::int64_t lastTid = -1;
    std::size_t lastThread = 0;
    std::uint64_t withoutChain = 0;
    for (const NsysEvidenceRows::Sample& row : rows.samples) {
        if (row.globalTid != lastTid) {
            auto it = threadOf.find(row.globalTid);
            if (it == threadOf.end())
                it = threadOf
                         .emplace(
                             row.globalTid, samples.thread(process(globalPidOf(row.globalTid)), tidOf(row.globalTid)))
                         .first;
            lastTid = row.globalTid;
            lastThread = it->second;
        }
        const auto chain = std::lower_bound(
            rows.chainOfSample.begin(), rows.chainOfSample.end(), std::make_pair(row.id, std::uint32_t { 0 }));
        CpuSample sample;
        sample.time = row.time;
        sample.cpu = row.cpu;
        if (chain != rows.chainOfSample.end() && chain->first == row.id) {
            sample.callchain = chainId[chain->second];
        } else {
            if (!noChain)
                noChain = samples.addChain({});
            sample.callchain = *noChain;
            ++withoutChain;
        }
        samples.threads()[lastThread].samples.push_back(sample);
    }
    if (withoutChain > 0) {
        warn(std::to_string(withoutChain)
                + " CPU samples have no frames in SAMPLING_CALLCHAINS: counted, with no function to name",
            "table COMPOSITE_EVENTS");
    }
    rows.samples = {};
    rows.frames = {};
    rows.chainOfSample = {};
}

} // namespace gapscope::nsys
