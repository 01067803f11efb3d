// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/event.h"
#include "core/model/trace_indices.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gapscope {

class StringTable;

/// One CPU sample: the time a thread was seen running and what it ran (a callchain of CpuSamples). 16 bytes;
/// kept apart from the events, whose lanes it would otherwise double on a sampled trace.
struct CpuSample {
    TimeNs time = 0;
    std::uint32_t callchain = 0;
    /// The CPU the thread ran on, as the profiler numbers them (0 when unknown).
    std::uint32_t cpu = 0;
};
static_assert(sizeof(CpuSample) == 16);

/// One frame of a callchain: a function and the module (binary or shared library) it is in.
struct StackFrame {
    StringId function;
    StringId module;
    friend bool operator==(StackFrame, StackFrame) = default;
};

/// The samples of one thread of one process, sorted by time once the trace is finished.
struct ThreadSamples {
    ProcessIndex process;
    std::int64_t tid = 0;
    std::vector<CpuSample> samples;
};

/// The CPU samples of a trace (Nsight Systems' `--sample`, perf): per sampled thread a table of samples, and
/// the callchains they share, each stored once (a program samples the same few stacks over and over).
class CpuSamples {
public:
    std::vector<ThreadSamples>& threads() { return m_threads; }
    const std::vector<ThreadSamples>& threads() const { return m_threads; }
    /// The frames of a callchain, the sampled (innermost) function first.
    std::span<const StackFrame> chain(std::uint32_t callchain) const
    {
        return { m_frames.data() + m_chainStart[callchain], m_chainStart[callchain + 1] - m_chainStart[callchain] };
    }
    std::size_t chainCount() const { return m_chainStart.size() - 1; }
    /// Adds a callchain (innermost frame first), or finds the same one added before: its id.
    std::uint32_t addChain(std::span<const StackFrame> frames);
    /// The samples of a thread, made empty on first use: its index in threads().
    std::size_t thread(ProcessIndex process, std::int64_t tid);
    const ThreadSamples* find(ProcessIndex process, std::int64_t tid) const;
    std::size_t count() const;
    bool empty() const { return m_threads.empty(); }
    /// Bytes held (samples, callchains and the index of chains), for the memory figures.
    std::size_t bytes() const;

    /// Appends another trace's samples: its processes are numbered from `processOffset`, its strings re-interned.
    void append(CpuSamples&& other, std::uint32_t processOffset, const StringTable& otherStrings, StringTable& strings);
    /// Sorts each thread's samples by time (a pass that only checks where they are sorted already) and lets go
    /// of the index that finds equal callchains (remade if chains are added again).
    void finish();

private:
    std::vector<ThreadSamples> m_threads;
    std::vector<StackFrame> m_frames;
    std::vector<std::uint32_t> m_chainStart { 0 }; // chain c: m_frames[m_chainStart[c], m_chainStart[c + 1])
    std::unordered_multimap<std::uint64_t, std::uint32_t> m_chainIndex; // hash -> chain
};

/// The samples of a thread in [t0, t1): indices [first, last) of its table. Precondition: finished samples.
std::pair<std::size_t, std::size_t> samplesIn(const ThreadSamples& thread, TimeNs t0, TimeNs t1);

/// A function's samples in a set of samples: `self` those where it ran itself (innermost frame), `total` those
/// where it was on the stack (each sample counted once, however often the function recurses).
struct SampledFunction {
    StackFrame frame;
    std::uint32_t self = 0;
    std::uint32_t total = 0;
};
/// The `limit` functions with the most self samples among samples [first, last) of `thread` (ties: more total,
/// then the lower string ids), as a bottom-up view of perf data lists them.
std::vector<SampledFunction> topSampledFunctions(
    const CpuSamples& all, const ThreadSamples& thread, std::size_t first, std::size_t last, std::size_t limit);

} // namespace gapscope
