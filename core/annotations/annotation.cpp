// SPDX-License-Identifier: MIT
#include "core/annotations/annotation.h"

#include <array>
#include <cstdio>
#include <ctime>
#include <random>

namespace gapscope {

std::string_view annotationStatusName(AnnotationStatus status)
{
    switch (status) {
    case AnnotationStatus::Open:
        return "open";
    case AnnotationStatus::Supported:
        return "supported";
    case AnnotationStatus::Refuted:
        return "refuted";
    case AnnotationStatus::Inconclusive:
        return "inconclusive";
    }
    return "open";
}

std::optional<AnnotationStatus> annotationStatusFromName(std::string_view name)
{
    for (auto status : { AnnotationStatus::Open, AnnotationStatus::Supported, AnnotationStatus::Refuted,
             AnnotationStatus::Inconclusive }) {
        if (annotationStatusName(status) == name)
            return status;
    }
    return std::nullopt;
}

std::string_view annotationStatusColour(AnnotationStatus status)
{
    // Okabe-Ito colours: told apart with the common colour-vision deficiencies too.
    switch (status) {
    case AnnotationStatus::Open:
        return "#e69f00";
    case AnnotationStatus::Supported:
        return "#009e73";
    case AnnotationStatus::Refuted:
        return "#d55e00";
    case AnnotationStatus::Inconclusive:
        return "#999999";
    }
    return "#e69f00";
}

LaneIdentity laneIdentity(const Trace& trace, LaneIndex index)
{
    const Lane& lane = trace.lanes()[index.value];
    const std::int64_t pid = trace.processes()[lane.process.value].pid;
    if (lane.kind == LaneKind::CpuThread)
        return LaneIdentity::thread(pid, lane.tid);
    return LaneIdentity::gpuStream(pid, trace.devices()[lane.device.value].id, lane.stream);
}

std::optional<LaneIndex> findLane(const Trace& trace, const LaneIdentity& identity)
{
    // Linear: lanes number in the hundreds at most, and this runs when a note is shown, not per frame.
    for (std::uint32_t i = 0; i < trace.lanes().size(); ++i) {
        if (laneIdentity(trace, LaneIndex { i }) == identity)
            return LaneIndex { i };
    }
    return std::nullopt;
}

std::string describeLane(const LaneIdentity& identity)
{
    std::string text = "pid " + std::to_string(identity.pid);
    if (identity.kind == LaneIdentity::Kind::Thread)
        return text + " thread " + std::to_string(identity.tid);
    return text + " GPU " + std::to_string(identity.deviceId) + " stream " + std::to_string(identity.stream);
}

bool isValidColour(std::string_view colour)
{
    if (colour.size() != 7 || colour[0] != '#')
        return false;
    for (char c : colour.substr(1)) {
        const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        if (!hex)
            return false;
    }
    return true;
}

std::string formatIsoUtc(std::chrono::system_clock::time_point time)
{
    const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
    std::tm utc {};
    gmtime_r(&seconds, &utc);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return buffer;
}

std::string newAnnotationId()
{
    // Random rather than a counter so that notes made on two copies of a sidecar never collide.
    thread_local std::mt19937_64 generator { [] {
        std::random_device device;
        return (static_cast<std::uint64_t>(device()) << 32) ^ device();
    }() };
    std::array<std::uint64_t, 2> bits { generator(), generator() };
    bits[0] = (bits[0] & ~0xf000ull) | 0x4000ull; // version 4
    bits[1] = (bits[1] & ~(0x3ull << 62)) | (0x2ull << 62); // RFC 4122 variant
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%08llx-%04llx-%04llx-%04llx-%012llx",
        static_cast<unsigned long long>(bits[0] >> 32), static_cast<unsigned long long>((bits[0] >> 16) & 0xffff),
        static_cast<unsigned long long>(bits[0] & 0xffff), static_cast<unsigned long long>(bits[1] >> 48),
        static_cast<unsigned long long>(bits[1] & 0xffffffffffffull));
    return buffer;
}

} // namespace gapscope
