// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/huge_pages.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace gapscope {

/// Nanoseconds on the capture's clock. Intervals are half-open [start, end).
using TimeNs = std::int64_t;

/// Index into a trace's StringTable. Value 0 is always the empty string.
struct StringId {
    std::uint32_t value = 0;
    friend bool operator==(StringId, StringId) = default;
};

/// Index into Trace::args (raw JSON text of an event's extra arguments).
struct ArgsId {
    std::uint32_t value = 0;
    friend bool operator==(ArgsId, ArgsId) = default;
};
inline constexpr ArgsId kNoArgs { 0xffffffffu };

enum class EventKind : std::uint8_t {
    Kernel,
    Memcpy,
    Memset,
    Sync, // a wait as seen on the GPU side (cuda_sync); not GPU activity
    RuntimeApi,
    DriverApi,
    NvtxRange,
    NvtxMark,
    CpuOp, // cpu_op / Operator
    PythonFunction,
    UserAnnotation, // user_annotation (CPU side), ProfilerStep#N lives here or in CpuOp
    GpuUserAnnotation, // gpu_user_annotation: drawn on GPU lanes, not activity
    Overhead, // profiler's own cost
    Other,
};
inline constexpr int kEventKindCount = 14;

/// Direction of a copy. Values follow the CUPTI memcpy kinds where they exist.
enum class CopyKind : std::uint8_t {
    Unknown,
    HtoD,
    DtoH,
    HtoA,
    AtoH,
    AtoA,
    AtoD,
    DtoA,
    DtoD,
    HtoH,
    PtoP,
};

std::string_view eventKindName(EventKind kind);
std::optional<EventKind> eventKindFromName(std::string_view name);
std::string_view copyKindName(CopyKind kind);
/// Parses Kineto's memcpy event names ("Memcpy HtoD (Pageable -> Device)", "Memcpy DtoD (Device -> Device)").
CopyKind copyKindFromMemcpyName(std::string_view name);

/// True for kernels, memcpys (incl. peer-to-peer) and memsets: docs/definitions.md activity set `all`.
constexpr bool isGpuActivity(EventKind kind)
{
    return kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset;
}
/// True for kinds that live on GPU stream lanes.
constexpr bool isGpuLaneKind(EventKind kind)
{
    return isGpuActivity(kind) || kind == EventKind::Sync || kind == EventKind::GpuUserAnnotation;
}

/// The hot event record. Lanes hold these in contiguous vectors sorted by start.
/// `correlation` 0 means "no correlation id" (CUPTI never hands out 0).
struct Event {
    TimeNs start = 0;
    TimeNs end = 0;
    /// Bytes moved for memcpy/memset; 0 otherwise.
    std::uint64_t bytes = 0;
    StringId name;
    std::uint32_t correlation = 0;
    ArgsId args = kNoArgs;
    EventKind kind = EventKind::Other;
    CopyKind copyKind = CopyKind::Unknown;
    /// Nesting depth on CPU lanes (0 = outermost); 0 on GPU lanes. Computed by TraceBuilder::finish().
    std::uint16_t depth = 0;

    TimeNs duration() const { return end - start; }
    std::optional<std::uint32_t> correlationId() const
    {
        return correlation ? std::optional<std::uint32_t>(correlation) : std::nullopt;
    }
};
static_assert(sizeof(Event) == 40, "Event is the hot struct: keep it at 40 bytes");

/// A lane's events: from 2 MiB up on a 2 MiB boundary and huge pages (HugePageAllocator), so that loading
/// millions of events does not fault them in 4 KiB at a time.
using EventVector = HugePageVector<Event>;

} // namespace gapscope
