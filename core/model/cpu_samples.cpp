// SPDX-License-Identifier: MIT
#include "core/model/cpu_samples.h"

#include "core/model/string_table.h"

#include <algorithm>
#include <unordered_map>

namespace gapscope {

namespace {

std::uint64_t hashChain(std::span<const StackFrame> frames)
{
    std::uint64_t h = 0xcbf29ce484222325ull ^ frames.size();
    for (const StackFrame& f : frames) {
        h = (h ^ f.function.value) * 0x100000001b3ull;
        h = (h ^ f.module.value) * 0x100000001b3ull;
    }
    return h;
}

struct Key {
    std::uint32_t function;
    std::uint32_t module;
    friend bool operator==(Key, Key) = default;
};
struct KeyHash {
    std::size_t operator()(Key k) const noexcept { return (std::uint64_t { k.function } << 32) ^ k.module; }
};

} // namespace

std::uint32_t CpuSamples::addChain(std::span<const StackFrame> frames)
{
    if (m_chainIndex.size() != chainCount()) {
        for (std::uint32_t c = 0; c < chainCount(); ++c)
            m_chainIndex.emplace(hashChain(chain(c)), c);
    }
    const std::uint64_t h = hashChain(frames);
    for (auto [it, end] = m_chainIndex.equal_range(h); it != end; ++it) {
        const std::span<const StackFrame> known = chain(it->second);
        if (std::equal(known.begin(), known.end(), frames.begin(), frames.end()))
            return it->second;
    }
    const auto id = static_cast<std::uint32_t>(chainCount());
    m_frames.insert(m_frames.end(), frames.begin(), frames.end());
    m_chainStart.push_back(static_cast<std::uint32_t>(m_frames.size()));
    m_chainIndex.emplace(h, id);
    return id;
}

std::size_t CpuSamples::thread(ProcessIndex process, std::int64_t tid)
{
    for (std::size_t i = 0; i < m_threads.size(); ++i) {
        if (m_threads[i].process == process && m_threads[i].tid == tid)
            return i;
    }
    m_threads.push_back(ThreadSamples { process, tid, {} });
    return m_threads.size() - 1;
}

const ThreadSamples* CpuSamples::find(ProcessIndex process, std::int64_t tid) const
{
    for (const ThreadSamples& t : m_threads) {
        if (t.process == process && t.tid == tid)
            return &t;
    }
    return nullptr;
}

std::size_t CpuSamples::count() const
{
    std::size_t n = 0;
    for (const ThreadSamples& t : m_threads)
        n += t.samples.size();
    return n;
}

std::size_t CpuSamples::bytes() const
{
    std::size_t n = m_frames.capacity() * sizeof(StackFrame) + m_chainStart.capacity() * sizeof(std::uint32_t)
        + m_chainIndex.size() * (sizeof(std::uint64_t) + sizeof(std::uint32_t) + 2 * sizeof(void*));
    for (const ThreadSamples& t : m_threads)
        n += sizeof(ThreadSamples) + t.samples.capacity() * sizeof(CpuSample);
    return n;
}

void CpuSamples::append(
    CpuSamples&& other, std::uint32_t processOffset, const StringTable& otherStrings, StringTable& strings)
{
    std::vector<std::uint32_t> chains(other.chainCount());
    std::vector<StackFrame> frames;
    for (std::uint32_t c = 0; c < chains.size(); ++c) {
        frames.clear();
        for (const StackFrame& f : other.chain(c))
            frames.push_back(
                { strings.intern(otherStrings.view(f.function)), strings.intern(otherStrings.view(f.module)) });
        chains[c] = addChain(frames);
    }
    for (ThreadSamples& t : other.m_threads) {
        for (CpuSample& s : t.samples)
            s.callchain = chains[s.callchain];
        t.process.value += processOffset;
        m_threads.push_back(std::move(t));
    }
    other = CpuSamples {};
}

void CpuSamples::finish()
{
    for (ThreadSamples& t : m_threads) {
        const auto byTime = [](const CpuSample& a, const CpuSample& b) { return a.time < b.time; };
        if (!std::is_sorted(t.samples.begin(), t.samples.end(), byTime))
            std::stable_sort(t.samples.begin(), t.samples.end(), byTime);
        t.samples.shrink_to_fit();
    }
    m_chainIndex = {};
}

std::pair<std::size_t, std::size_t> samplesIn(const ThreadSamples& thread, TimeNs t0, TimeNs t1)
{
    const auto& s = thread.samples;
    const auto first = std::partition_point(s.begin(), s.end(), [t0](const CpuSample& x) { return x.time < t0; });
    const auto last = std::partition_point(first, s.end(), [t1](const CpuSample& x) { return x.time < t1; });
    return { static_cast<std::size_t>(first - s.begin()), static_cast<std::size_t>(last - s.begin()) };
}

std::vector<SampledFunction> topSampledFunctions(
    const CpuSamples& all, const ThreadSamples& thread, std::size_t first, std::size_t last, std::size_t limit)
{
    std::unordered_map<Key, SampledFunction, KeyHash> byFunction;
    std::vector<Key> seen; // the functions of this sample, to count each once in total
    for (std::size_t i = first; i < last; ++i) {
        const std::span<const StackFrame> frames = all.chain(thread.samples[i].callchain);
        seen.clear();
        for (std::size_t depth = 0; depth < frames.size(); ++depth) {
            const Key key { frames[depth].function.value, frames[depth].module.value };
            SampledFunction& f = byFunction[key];
            f.frame = frames[depth];
            if (depth == 0)
                ++f.self;
            if (std::find(seen.begin(), seen.end(), key) == seen.end()) {
                seen.push_back(key);
                ++f.total;
            }
        }
    }
    std::vector<SampledFunction> top;
    top.reserve(byFunction.size());
    for (const auto& [key, f] : byFunction)
        top.push_back(f);
    const auto order = [](const SampledFunction& a, const SampledFunction& b) {
        if (a.self != b.self)
            return a.self > b.self;
        if (a.total != b.total)
            return a.total > b.total;
        if (a.frame.function.value != b.frame.function.value)
            return a.frame.function.value < b.frame.function.value;
        return a.frame.module.value < b.frame.module.value;
    };
    const std::size_t n = std::min(limit, top.size());
    std::partial_sort(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(n), top.end(), order);
    top.resize(n);
    return top;
}

} // namespace gapscope
