// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace gapscope::capture {

/// Whether GapScope may still call CUPTI, and how it lets go of CUPTI at exit (docs/collector.md).
///
/// CUPTI 13.0-13.1 crash at unload unless cuptiFinalize ran, but cuptiFinalize while another thread
/// is inside CUDA crashes too; cupti_activity.h asks for it from an API-exit callback, or after
/// the client synchronized and flushed. So at exit, after the last CUPTI flush and after the file
/// was flushed (a hang or crash in cuptiFinalize then loses nothing):
/// - no other live thread ever called CUDA: nothing can be inside CUDA, cuptiFinalize runs here at
///   once (no wait for a single-threaded program);
/// - otherwise the API-exit callbacks are armed and the first one finalizes, on its thread; the
///   exit waits for cuptiFinalize to *return* there (a separate state from "requested"), and when
///   no callback came within the wait, finalize is skipped, never forced on a thread that may be
///   blocked inside CUDA.
/// After our finalize, a fatal CUPTI error (CUPTI detached itself) or another CUPTI client taking
/// CUPTI over (which may finalize it behind our back), usable() is false: no CUPTI call follows.
///
/// Thread-safe. `finalize` and `armApiExitCallbacks` are cuptiFinalize and the enabling of the
/// runtime and driver API domains; tests pass their own.
class CuptiDetach {
public:
    struct Calls {
        void (*finalize)() = nullptr;
        void (*armApiExitCallbacks)() = nullptr;
    };
    explicit CuptiDetach(Calls calls);

    enum class Result {
        FinalizedHere, // on the exit thread: no other thread calls CUDA
        FinalizedByCallback, // from an API-exit callback, which returned before the exit went on
        SkippedNoCallback, // other CUDA threads, none left a CUDA call within the wait
        SkippedUnusable, // finalized already, CUPTI detached itself, or another client holds it
        StillFinalizing, // a callback's cuptiFinalize had not returned after kStuckFinalize
    };
    /// How long the exit waits for a cuptiFinalize that a callback began before it gives up on it.
    static constexpr std::chrono::seconds kStuckFinalize { 10 };
    static const char* describe(Result result);

    bool usable() const;
    /// CUPTI reported a fatal error and detached itself.
    void markFatal();
    /// Another CUPTI client took CUPTI over; it may finalize it without us.
    void markForeign();
    bool foreign() const;
    /// Cheap: true while the exit waits for an API-exit callback to finalize from.
    bool finalizeRequested() const { return m_state.load(std::memory_order_relaxed) == State::Requested; }
    /// Called from every API-exit callback while finalizeRequested().
    void onApiExit();
    /// The exit's part; see the class comment. `otherCudaThreads`: a live thread other than the
    /// caller has called CUDA (or that is unknown).
    Result finalizeAtExit(bool otherCudaThreads, std::chrono::milliseconds wait);

private:
    enum class State { Active, Requested, Finalizing, Finalized, Abandoned, Fatal, Foreign };
    void runFinalize();

    const Calls m_calls;
    std::atomic<State> m_state { State::Active };
    std::mutex m_mutex;
    std::condition_variable m_finalized;
};

} // namespace gapscope::capture
