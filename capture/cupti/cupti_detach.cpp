// SPDX-License-Identifier: MIT
#include "capture/cupti/cupti_detach.h"

namespace gapscope::capture {

CuptiDetach::CuptiDetach(Calls calls)
    : m_calls(calls)
{ }

const char* CuptiDetach::describe(Result result)
{
    switch (result) {
    case Result::FinalizedHere:
        return "CUPTI finalized at exit (no other thread called CUDA)";
    case Result::FinalizedByCallback:
        return "CUPTI finalized from the exit of a CUDA call";
    case Result::SkippedNoCallback:
        return "CUPTI was not finalized: other threads that called CUDA are alive and none left a CUDA call "
               "within the wait, so one may be blocked inside CUDA, where cuptiFinalize is unsafe";
    case Result::SkippedUnusable:
        return "CUPTI was not finalized by GapScope: it was finalized already, detached itself, or another "
               "CUPTI client holds it";
    case Result::StillFinalizing:
        return "cuptiFinalize, begun at the exit of a CUDA call, had not returned after 10 s: the exit went on";
    }
    return "";
}

bool CuptiDetach::usable() const
{
    const State s = m_state.load(std::memory_order_acquire);
    return s == State::Active || s == State::Requested;
}

void CuptiDetach::markFatal()
{
    m_state.store(State::Fatal, std::memory_order_release);
    std::lock_guard lock(m_mutex);
    m_finalized.notify_all();
}

void CuptiDetach::markForeign()
{
    State expected = State::Active;
    if (!m_state.compare_exchange_strong(expected, State::Foreign)) {
        expected = State::Requested;
        m_state.compare_exchange_strong(expected, State::Foreign);
    }
}

bool CuptiDetach::foreign() const
{
    return m_state.load(std::memory_order_acquire) == State::Foreign;
}

void CuptiDetach::runFinalize()
{
    if (m_calls.finalize)
        m_calls.finalize();
    {
        std::lock_guard lock(m_mutex);
        m_state.store(State::Finalized, std::memory_order_release);
    }
    m_finalized.notify_all();
}

void CuptiDetach::onApiExit()
{
    State expected = State::Requested;
    if (m_state.compare_exchange_strong(expected, State::Finalizing, std::memory_order_acq_rel))
        runFinalize();
}

CuptiDetach::Result CuptiDetach::finalizeAtExit(bool otherCudaThreads, std::chrono::milliseconds wait)
{
    State expected = State::Active;
    if (!otherCudaThreads) {
        if (!m_state.compare_exchange_strong(expected, State::Finalizing, std::memory_order_acq_rel))
            return Result::SkippedUnusable;
        runFinalize();
        return Result::FinalizedHere;
    }
    if (!m_state.compare_exchange_strong(expected, State::Requested, std::memory_order_acq_rel))
        return Result::SkippedUnusable;
    if (m_calls.armApiExitCallbacks)
        m_calls.armApiExitCallbacks();
    std::unique_lock lock(m_mutex);
    const auto done = [this] {
        const State s = m_state.load(std::memory_order_acquire);
        return s == State::Finalized || s == State::Fatal;
    };
    if (m_finalized.wait_for(lock, wait, done))
        return m_state.load() == State::Finalized ? Result::FinalizedByCallback : Result::SkippedUnusable;
    // No callback came: no late one may finalize behind the exit either.
    expected = State::Requested;
    if (m_state.compare_exchange_strong(expected, State::Abandoned, std::memory_order_acq_rel))
        return Result::SkippedNoCallback;
    // A callback began finalizing just now: the exit goes on only once cuptiFinalize returned.
    if (!m_finalized.wait_for(lock, kStuckFinalize, done))
        return Result::StillFinalizing;
    return m_state.load() == State::Finalized ? Result::FinalizedByCallback : Result::SkippedUnusable;
}

} // namespace gapscope::capture
