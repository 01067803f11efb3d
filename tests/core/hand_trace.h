// SPDX-License-Identifier: MIT
#pragma once

// Builds minimal traces by hand for analysis tests: one call per event, times in microseconds (so that the
// worked-out answers in the tests read like the timelines they describe), then build() finishes.

#include "core/io/trace_file.h"
#include "core/model/trace.h"
#include "core/model/trace_builder.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope::test {

/// Microseconds to the model's nanoseconds.
constexpr TimeNs us(double microseconds)
{
    return static_cast<TimeNs>(microseconds * 1000.0 + (microseconds >= 0 ? 0.5 : -0.5));
}
constexpr TimeNs ms(double milliseconds)
{
    return us(milliseconds * 1000.0);
}

class HandTrace {
public:
    /// Starts with one process (pid 100); process() adds more. GPU events go to device 0 unless device() says.
    HandTrace() { process(100); }

    /// Adds a process; later events go to it (and to its device 0).
    HandTrace& process(std::int64_t pid, std::optional<int> rank = std::nullopt)
    {
        Process p;
        p.pid = pid;
        p.name = "process " + std::to_string(pid);
        p.rank = rank;
        m_process = m_trace.addProcess(std::move(p));
        m_deviceId = 0;
        return *this;
    }
    /// Later GPU events go to this device of the current process (created with its first event).
    HandTrace& device(int id)
    {
        m_deviceId = id;
        return *this;
    }

    HandTrace& kernel(std::int64_t stream, double startUs, double endUs, std::string_view name = "kernel",
        std::uint32_t correlation = 0)
    {
        return gpu(EventKind::Kernel, stream, startUs, endUs, name, correlation);
    }
    HandTrace& memcpy(std::int64_t stream, double startUs, double endUs, std::uint32_t correlation = 0,
        std::string_view name = "Memcpy HtoD (Pageable -> Device)")
    {
        return gpu(EventKind::Memcpy, stream, startUs, endUs, name, correlation);
    }
    HandTrace& memset(std::int64_t stream, double startUs, double endUs, std::uint32_t correlation = 0)
    {
        return gpu(EventKind::Memset, stream, startUs, endUs, "Memset (Device)", correlation);
    }
    HandTrace& gpuSync(std::int64_t stream, double startUs, double endUs)
    {
        return gpu(EventKind::Sync, stream, startUs, endUs, "Stream Sync", 0);
    }
    /// A GPU-side synchronization record (Kineto cuda_sync, nsys SYNCHRONIZATION) on `stream` (-1: a host wait).
    HandTrace& syncRecord(
        std::int64_t stream, double startUs, double endUs, std::string_view name, std::uint32_t correlation)
    {
        return gpu(EventKind::Sync, stream, startUs, endUs, name, correlation);
    }
    /// A CUDA runtime call on host thread `tid`.
    HandTrace& runtime(
        std::int64_t tid, double startUs, double endUs, std::string_view name, std::uint32_t correlation = 0)
    {
        return cpu(EventKind::RuntimeApi, tid, startUs, endUs, name, correlation);
    }
    HandTrace& driver(
        std::int64_t tid, double startUs, double endUs, std::string_view name, std::uint32_t correlation = 0)
    {
        return cpu(EventKind::DriverApi, tid, startUs, endUs, name, correlation);
    }
    HandTrace& cpuOp(std::int64_t tid, double startUs, double endUs, std::string_view name)
    {
        return cpu(EventKind::CpuOp, tid, startUs, endUs, name, 0);
    }
    HandTrace& nvtx(std::int64_t tid, double startUs, double endUs, std::string_view name)
    {
        return cpu(EventKind::NvtxRange, tid, startUs, endUs, name, 0);
    }

    /// Gives the event added last these raw JSON args (e.g. Kineto's collective args).
    HandTrace& args(std::string json)
    {
        m_trace.lanes()[m_lastLane.value].events.back().args = m_trace.addArgs(std::move(json));
        return *this;
    }

    /// Finishes and hands the trace over; the builder is empty afterwards.
    Trace build() { return std::move(m_trace).finish(); }

private:
    HandTrace& gpu(EventKind kind, std::int64_t stream, double startUs, double endUs, std::string_view name,
        std::uint32_t correlation)
    {
        Event e = event(kind, startUs, endUs, name, correlation);
        const DeviceIndex device = m_trace.device(m_process, m_deviceId);
        m_lastLane = m_trace.streamLane(device, stream);
        m_trace.lanes()[m_lastLane.value].events.push_back(e);
        return *this;
    }
    HandTrace& cpu(EventKind kind, std::int64_t tid, double startUs, double endUs, std::string_view name,
        std::uint32_t correlation)
    {
        Event e = event(kind, startUs, endUs, name, correlation);
        m_lastLane = m_trace.threadLane(m_process, tid);
        m_trace.lanes()[m_lastLane.value].events.push_back(e);
        return *this;
    }
    Event event(EventKind kind, double startUs, double endUs, std::string_view name, std::uint32_t correlation)
    {
        Event e;
        e.start = us(startUs);
        e.end = us(endUs);
        e.kind = kind;
        e.name = m_trace.strings().intern(name);
        e.correlation = correlation;
        return e;
    }

    TraceBuilder m_trace;
    ProcessIndex m_process;
    LaneIndex m_lastLane;
    int m_deviceId = 0;
};

/// The `nth` event (in lane order, lanes in index order) named `name`; throws when there is none, which
/// fails the test that asked.
/// The events of any of `kinds` in the trace.
inline std::size_t countKind(const Trace& trace, std::initializer_list<EventKind> kinds)
{
    std::size_t n = 0;
    for (const Lane& lane : trace.lanes())
        for (const Event& e : lane.events)
            n += std::find(kinds.begin(), kinds.end(), e.kind) != kinds.end();
    return n;
}
inline std::size_t countKind(const Trace& trace, EventKind kind)
{
    return countKind(trace, { kind });
}

/// Every import warning of the trace, one line each, for a test's failure message or a search.
inline std::string allWarnings(const Trace& trace)
{
    std::string text;
    for (const ImportWarning& w : trace.warnings())
        text += w.toString() + "\n";
    return text;
}

inline EventRef findEvent(const Trace& trace, std::string_view name, std::size_t nth = 0)
{
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        const auto& events = trace.lanes()[l].events;
        for (std::uint32_t i = 0; i < events.size(); ++i) {
            if (trace.name(events[i]) == name && nth-- == 0)
                return { LaneIndex { l }, i };
        }
    }
    throw std::runtime_error("no event named " + std::string(name));
}

/// The stream lane of (process 0's) device `deviceId`, stream `stream`.
inline LaneIndex streamLaneOf(const Trace& trace, int deviceId, std::int64_t stream, std::uint32_t process = 0)
{
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        const Lane& lane = trace.lanes()[l];
        if (lane.kind == LaneKind::GpuStream && lane.stream == stream && lane.process.value == process
            && trace.devices()[lane.device.value].id == deviceId)
            return LaneIndex { l };
    }
    throw std::runtime_error("no such stream lane");
}

/// The traces at `relatives` under tests/data loaded into one, as `gapscope report` loads them (several: the
/// ranks of one job); a load error fails the calling test and gives an empty trace.
inline Trace load(const std::vector<std::string>& relatives)
{
    std::vector<std::string> paths;
    for (const std::string& relative : relatives)
        paths.push_back(dataPath(relative));
    auto result = loadTraceFiles(paths);
    if (!result) {
        ADD_FAILURE() << result.error().toString();
        return Trace {};
    }
    return std::move(result.value());
}
inline Trace load(std::initializer_list<std::string> relatives)
{
    return load(std::vector<std::string>(relatives));
}
inline Trace load(const std::string& relative)
{
    return load(std::vector<std::string> { relative });
}

} // namespace gapscope::test
