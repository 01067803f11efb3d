// SPDX-License-Identifier: MIT
#include "capture/cupti/cupti_client_watch.h"

namespace gapscope::capture {

const char* CuptiClientWatch::kindName(Kind kind)
{
    switch (kind) {
    case Kernels:
        return "kernels";
    case Runtime:
        return "runtime API";
    case Driver:
        return "driver API";
    case Memcpy:
        return "memcpy";
    case Memset:
        return "memset";
    case Sync:
        return "synchronization";
    case KindCount:
        break;
    }
    return "?";
}

CuptiClientWatch::CuptiClientWatch(std::int64_t windowNs)
    : m_window(windowNs)
{ }

std::optional<CuptiClientWatch::Finding> CuptiClientWatch::observe(const Sample& s)
{
    if (!m_started) {
        m_started = true;
        m_last = s;
        m_progressNs = s.nowNs;
        m_launchesAtProgress = s.launches;
        m_kindChangedNs.fill(s.nowNs);
        m_launchesAtKindChange.fill(s.launches);
        return std::nullopt;
    }
    const bool launched = s.launches != m_last.launches;
    const bool buffersMoved
        = s.buffersRequested != m_last.buffersRequested || s.buffersCompleted != m_last.buffersCompleted;
    if (buffersMoved) {
        m_progressNs = s.nowNs;
        m_launchesAtProgress = s.launches;
        m_stallStartNs = 0;
    } else if (launched && m_stallStartNs == 0) {
        m_stallStartNs = s.nowNs; // the window runs from the first launch without a buffer, not from a quiet time
    }
    for (int k = 0; k < KindCount; ++k) {
        if (s.records[k] != m_last.records[k]) {
            m_kindChangedNs[k] = s.nowNs;
            m_launchesAtKindChange[k] = s.launches;
            m_kindStallStartNs[k] = 0;
        } else if (launched && m_kindStallStartNs[k] == 0) {
            m_kindStallStartNs[k] = s.nowNs;
        }
    }
    m_last = s;
    if (m_takeoverSeen)
        return std::nullopt;
    if (m_stallStartNs != 0 && s.launches - m_launchesAtProgress >= kMinLaunches
        && s.nowNs - m_stallStartNs >= m_window) {
        m_takeoverSeen = true;
        Finding f;
        f.takeover = true;
        f.sinceNs = m_progressNs;
        f.launchesSince = s.launches - m_launchesAtProgress;
        for (int k = 0; k < KindCount; ++k) {
            f.hadRecords[k] = s.records[k] > 0;
            f.lastRecordNs[k] = m_kindChangedNs[k];
        }
        return f;
    }
    // One kind silent while launches went on and buffers still flow: kernels follow launches; runtime
    // records do once the program made runtime calls (a driver-only program makes none).
    for (const Kind k : { Kernels, Runtime }) {
        if (m_kindReported[k] || s.records[k] == 0 || !buffersMoved || m_kindStallStartNs[k] == 0)
            continue;
        if (s.launches - m_launchesAtKindChange[k] >= kMinLaunches && s.nowNs - m_kindStallStartNs[k] >= m_window) {
            m_kindReported[k] = true;
            Finding f;
            f.kind = k;
            f.sinceNs = m_kindChangedNs[k];
            f.launchesSince = s.launches - m_launchesAtKindChange[k];
            return f;
        }
    }
    return std::nullopt;
}

std::string CuptiClientWatch::describe(const Finding& f, std::int64_t originNs)
{
    const auto at = [originNs](std::int64_t ns) { return std::to_string((ns - originNs) / 1'000'000) + " ms"; };
    if (!f.takeover) {
        return std::string("CUDA ") + kindName(f.kind) + " records stopped arriving " + at(f.sinceNs)
            + " into the recording while the program launched " + std::to_string(f.launchesSince)
            + " more kernels: another CUPTI client in the program (torch.profiler/Kineto, the JAX profiler) "
              "disabled that kind; this recording has no "
            + kindName(f.kind) + " records after that point";
    }
    std::string kinds;
    for (int k = 0; k < KindCount; ++k) {
        if (!f.hadRecords[k])
            continue;
        kinds += (kinds.empty() ? "" : ", ") + std::string(kindName(static_cast<Kind>(k))) + " (last seen "
            + at(f.lastRecordNs[k]) + ")";
    }
    return "GapScope stopped receiving CUDA activity " + at(f.sinceNs) + " into the recording while the program "
        + "launched " + std::to_string(f.launchesSince)
        + " more kernels: another CUPTI client in the program (torch.profiler/Kineto, the JAX profiler) took "
          "CUPTI's activity buffers or disabled its kinds. Stopped: "
        + (kinds.empty() ? std::string("every kind") : kinds)
        + ". GapScope makes no CUPTI call from then on (that client may finalize CUPTI), so CUDA activity "
          "after that point is missing; NVTX ranges are still recorded";
}

} // namespace gapscope::capture
