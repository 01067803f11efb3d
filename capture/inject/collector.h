// SPDX-License-Identifier: MIT
#pragma once

#include "capture/inject/thread_name_book.h"
#include "capture/stream/native_stream_writer.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include <pthread.h>

namespace gapscope::capture {

/// What the CUDA side registers so that the process-wide collector, which also runs without
/// CUPTI (NVTX only), can drive CUPTI's flushing and shutdown.
struct CudaHooks {
    /// cuptiActivityFlushAll (forced or not), then hand CUPTI's dropped count and the
    /// translator's counters to the writer.
    void (*flush)(bool forced) = nullptr;
    /// Once, at exit, before the last flush: disable the activity kinds, so that a forced flush
    /// hands back complete records only (NVIDIA's injection sample does the same).
    void (*stop)() = nullptr;
    /// After the last flush: detach CUPTI where this CUPTI version needs it (13.0-13.1 crash at
    /// unload otherwise), from an API-exit callback, with a timeout.
    void (*finalize)() = nullptr;
    /// Spare buffers zeroed on the flush thread, so that CUPTI, asking for one on a program thread, gets it ready.
    void (*refill)() = nullptr;
};

/// The collector of one process, shared by the NVTX and the CUDA injection entry points (the
/// driver and NVTX load the same .so once, so both see this one instance).
///
/// Started by the first entry point that runs: reads the launcher's environment
/// (collector_env.h), finds CUPTI's clock (collector_clock.h), creates the per-process file, writes
/// what it knows about the process, and starts a thread that flushes every
/// GAPSCOPE_FLUSH_INTERVAL_MS, recording its own time as Overhead events on the collector lane. At
/// exit it stops the thread, closes open NVTX ranges, stops and flushes CUPTI, finalizes it where
/// needed and closes the file. SIGINT and SIGTERM, where the program left them to their default
/// action, run the same exit flush on the flush thread and then end the program with the signal.
/// After fork() the child gets a file of its own when it first records something.
///
/// Never throws to its callers' callers: the C entry points catch everything.
class Collector {
public:
    /// The collector, started on first use. Never destroyed (threads may still call in at exit).
    static Collector& instance();

    /// The writer, or nullptr when nothing is recorded (the file could not be created, or exit ran).
    NativeStreamWriter* writer();
    /// RecordKind bits the launcher asked for.
    std::uint32_t kinds() const { return m_kinds; }
    /// Now, on the clock of every timestamp in the file (CUPTI's, found once at start). Never
    /// calls CUPTI.
    static std::int64_t now();

    /// Says what went wrong on stderr and in the file; recording goes on.
    void reportError(const std::string& message);
    void addNote(const std::string& message);
    void setCuptiStatus(bool active, const std::string& detail);
    /// The thread's OS name as read on the thread itself (see ThreadNameBook).
    void noteThreadName(std::int64_t tid, const std::string& name, bool exiting);

    void setCudaHooks(CudaHooks hooks);
    /// Called at exit with the exit time, to record NVTX ranges still open.
    void setNvtxShutdownHook(void (*closeOpenRanges)(std::int64_t endTime));
    /// Registers the exit handler (again): the latest registration runs first, so calling this
    /// from InitializeInjection puts the collector's shutdown before the CUDA runtime's teardown.
    void registerExitHandler();

    /// Flushes CUPTI (forced if asked) and the file now; thread-safe.
    void flushNow(bool forcedCupti);
    /// The exit handler: idempotent.
    void shutdown();
    /// Set once shutdown has begun.
    bool shuttingDown() const { return m_shutDown.load(std::memory_order_acquire); }

private:
    Collector();
    void findClock();
    void openFile();
    void writeProcessMetadata();
    void startFlushThread();
    static void* flushThreadMain(void* collector);
    void flushLoop();
    void flushOnce(bool forcedCupti, bool refreshThreadNames);
    void refreshThreadNames(NativeStreamWriter& writer);
    void addMetadataText(native::MetadataKey key, const std::string& text, std::int64_t number = 0);
    void installSignalHandlers();
    void exitOnSignal(int signal);
    /// shutdown() with m_stateMutex held.
    void shutdownLocked();
    static void prepareFork();
    static void parentAfterFork();
    static void childAfterFork();

    std::uint32_t m_kinds = 0;
    std::string m_outputDir;
    std::int32_t m_rank = -1;
    int m_flushIntervalMs = 0;
    std::int64_t m_windowFrom = INT64_MIN;
    std::int64_t m_windowUntil = INT64_MAX;
    std::string m_clockNote;

    /// Guards (re)opening and shutdown; held across fork() so the child can take it over.
    std::mutex m_stateMutex;
    /// Held by the flush thread while it flushes. fork() waits for it (250 ms at most), so that the child does
    /// not start with a lock the flush held inside malloc: the sanitizers' allocator (GCC 12's and clang 14's)
    /// is not fork-safe, and a child forked in the middle of a flush hung at its first allocation.
    std::mutex m_flushMutex;
    bool m_forkHoldsFlush = false;
    std::atomic<NativeStreamWriter*> m_writer { nullptr };
    std::atomic<bool> m_reopenAfterFork { false };
    std::atomic<bool> m_shutDown { false };
    std::atomic<pid_t> m_pid { 0 };
    std::uint32_t m_flushName = 0;

    std::atomic<CudaHooks*> m_cudaHooks { nullptr };
    std::atomic<void (*)(std::int64_t)> m_nvtxShutdown { nullptr };

    /// eventfd that wakes the flush thread (shutdown, a terminating signal). New for each flush
    /// thread: a child after fork() must not share its parent's.
    int m_wakeFd = -1;
    std::atomic<bool> m_stopFlushing { false };
    /// A plain pthread: nothing on the heap that a forked child (which has no such thread) would lose.
    pthread_t m_flushThread {};
    bool m_hasFlushThread = false;
    pid_t m_flushThreadPid = 0;
    /// Set by the flush thread when it reaches its loop: from then on it allocates only under m_flushMutex.
    std::atomic<bool> m_flushThreadReady { false };
    /// Heap-held: after fork() the child replaces it (its lock may be held by a thread it lacks) and keeps
    /// the parent's reachable (kept_for_life.h).
    ThreadNameBook* m_threadNames = new ThreadNameBook();
};

} // namespace gapscope::capture
