// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/chrome/chrome_event_parser.h"
#include "core/model/trace_builder.h"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace gapscope::chrome {

/// The counters of a Chrome trace, collected while it is parsed and made into counter tracks once its processes
/// and devices are known (apply()):
/// - Kineto's `[memory]` instant events (`Device Type` 1 a CUDA device, 0 the CPU; `Device Id`; `Bytes`, + for
///   an allocation and − for a free; `Total Allocated` and `Total Reserved` where the PyTorch version writes
///   them): tracks `memory allocated` and `memory reserved` per device, in bytes. Traces whose events carry only
///   `Bytes` (PyTorch 1.8, 2021) get `memory allocated` as the running sum of the Bytes from 0 at the first
///   event, and the track's note says so.
/// - `C` counter events: one track per (pid, name, argument), named "NAME ARGUMENT" (as Perfetto names them),
///   or NAME alone for an argument named `value`.
class ChromeCounterCollector {
public:
    /// A `[memory]` instant event.
    void addMemory(const ParsedEvent& ev);
    /// A `C` event.
    void addCounter(const ParsedEvent& ev);
    /// The tracks, in `trace` whose processes and devices are assigned (ChromeTraceBuilder::takeTrace()). A
    /// memory track goes to the first process's device of that id (Kineto writes one process per file), or to no
    /// device, named for it, when no GPU event of that device made one.
    void apply(TraceBuilder& trace);

private:
    struct MemoryPoint {
        TimeNs time;
        std::int64_t bytes;
        std::optional<std::int64_t> allocated;
        std::optional<std::int64_t> reserved;
    };
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<MemoryPoint>> m_memory; // (device type, id)
    std::map<std::tuple<std::int64_t, std::string>, std::vector<CounterPoint>> m_counters; // (pid, track name)
    std::uint64_t m_unreadable = 0;
};

} // namespace gapscope::chrome
