// SPDX-License-Identifier: MIT
#include "capture/inject/collector.h"

#include "capture/collector_env.h"
#include "capture/inject/collector_clock.h"
#include "capture/inject/kept_for_life.h"

#if GAPSCOPE_COLLECTOR_HAVE_CUPTI
#include <cupti.h>
#endif

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>

#include <dirent.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace gapscope::capture {

namespace {

std::string readSmallFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::int64_t envInteger(const char* name, std::int64_t fallback)
{
    const char* value = std::getenv(name);
    if (!value || !*value)
        return fallback;
    char* end = nullptr;
    errno = 0;
    const long long parsed = std::strtoll(value, &end, 10);
    if (errno != 0 || *end != '\0')
        return fallback;
    return parsed;
}

std::int32_t rankFromEnvironment()
{
    for (const char* name : kRankVariables) {
        const std::int64_t rank = envInteger(name, -1);
        if (rank >= 0 && rank <= INT32_MAX)
            return static_cast<std::int32_t>(rank);
    }
    return -1;
}

/// The clock every timestamp is taken on (found once, in findClock()).
CollectorClock g_clock;
/// The flush thread's eventfd, for the signal handler; -1 when no flush thread runs.
std::atomic<int> g_wakeFd { -1 };
/// The terminating signal the flush thread is to handle; 0 when none.
volatile sig_atomic_t g_pendingSignal = 0;
constexpr int kTerminatingSignals[] = { SIGINT, SIGTERM };

/// Async-signal-safe: hands the signal to the flush thread, which runs the exit flush and then
/// ends the program with it. A second signal (or none to hand it to) takes the default action now.
void onTerminatingSignal(int signal)
{
    const int savedErrno = errno;
    const int fd = g_wakeFd.load(std::memory_order_relaxed);
    if (fd < 0 || g_pendingSignal != 0) {
        ::signal(signal, SIG_DFL);
        ::raise(signal);
        errno = savedErrno;
        return;
    }
    g_pendingSignal = signal;
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t written = ::write(fd, &one, sizeof(one));
    errno = savedErrno;
}

void exitHandler()
{
    try {
        Collector::instance().shutdown();
    } catch (...) {
        // Nothing may escape into exit().
    }
}

} // namespace

Collector& Collector::instance()
{
    static Collector* collector = new Collector();
    return *collector;
}

std::int64_t Collector::now()
{
    return readClock(g_clock.clock) + g_clock.offsetNs;
}

void Collector::findClock()
{
#if GAPSCOPE_COLLECTOR_HAVE_CUPTI
    // The only cuptiGetTimestamp call: its first call also pays CUPTI's ~0.3 ms of setup here, not
    // inside the program's first range.
    std::uint64_t cupti = 0;
    if (cuptiGetTimestamp(&cupti) != CUPTI_SUCCESS)
        return; // CLOCK_REALTIME, CUPTI's clock on Linux
    g_clock = chooseCollectorClock(static_cast<std::int64_t>(cupti), readClock(CLOCK_REALTIME),
        readClock(CLOCK_MONOTONIC_RAW), readClock(CLOCK_MONOTONIC));
    if (!g_clock.matched) {
        m_clockNote = "CUPTI's timestamps match no POSIX clock here (they are "
            + std::to_string(g_clock.offsetNs / 1'000'000'000) + " s from CLOCK_REALTIME): the collector times NVTX "
            + "calls with CLOCK_REALTIME moved onto them";
    } else if (g_clock.clock != CLOCK_REALTIME) {
        m_clockNote = std::string("CUPTI's timestamps are on ") + g_clock.name
            + " here (as on WSL), not CLOCK_REALTIME: NVTX calls are timed on it too, and the recording window was "
              "converted to it";
    }
#endif
}

Collector::Collector()
{
    m_kinds = static_cast<std::uint32_t>(envInteger(kEnvKinds, kAllRecordKinds));
    if (const char* dir = std::getenv(kEnvOutputDir); dir && *dir)
        m_outputDir = dir;
    m_rank = rankFromEnvironment();
    m_flushIntervalMs = static_cast<int>(envInteger(kEnvFlushIntervalMs, kDefaultFlushIntervalMs));
    if (m_flushIntervalMs < 1)
        m_flushIntervalMs = kDefaultFlushIntervalMs;
    findClock();
    // The launcher's window is on CLOCK_REALTIME: move it onto the collector's clock.
    const std::int64_t realtimeToCollector
        = g_clock.clock == CLOCK_REALTIME ? g_clock.offsetNs : now() - readClock(CLOCK_REALTIME);
    m_windowFrom = envInteger(kEnvRecordFromNs, INT64_MIN);
    m_windowUntil = envInteger(kEnvRecordUntilNs, INT64_MAX);
    if (m_windowFrom != INT64_MIN)
        m_windowFrom += realtimeToCollector;
    if (m_windowUntil != INT64_MAX)
        m_windowUntil += realtimeToCollector;
    openFile();
    registerExitHandler();
    pthread_atfork(&Collector::prepareFork, &Collector::parentAfterFork, &Collector::childAfterFork);
    installSignalHandlers();
}

void Collector::installSignalHandlers()
{
    for (const int signal : kTerminatingSignals) {
        struct sigaction previous { };
        if (::sigaction(signal, nullptr, &previous) != 0)
            continue;
        // Only where the program left the default action: its own handler (Python's, a server's
        // graceful stop) is its business, and an ignored signal stays ignored.
        if ((previous.sa_flags & SA_SIGINFO) != 0 || previous.sa_handler != SIG_DFL)
            continue;
        struct sigaction action { };
        action.sa_handler = &onTerminatingSignal;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESTART;
        ::sigaction(signal, &action, nullptr);
    }
}

void Collector::exitOnSignal(int signal)
{
    const char* name = signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal";
    // The program may be exiting already: its exit handler then holds the state lock and waits for
    // this thread, and finishes the exit flush itself; the signal is dropped, the program ends by exit.
    while (!m_stateMutex.try_lock()) {
        if (m_shutDown.load(std::memory_order_acquire))
            return;
        ::usleep(1000);
    }
    if (m_shutDown.load(std::memory_order_acquire)) {
        m_stateMutex.unlock();
        return;
    }
    addNote(std::string("the program received ") + name
        + ": the collector flushed and closed this file, then let the signal end the program");
    shutdownLocked();
    m_stateMutex.unlock();
    ::signal(signal, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal);
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    ::kill(::getpid(), signal);
}

void Collector::openFile()
{
    m_pid = ::getpid();
    auto* writer = new NativeStreamWriter();
    NativeStreamWriter::Header header;
    header.pid = m_pid;
    header.rank = m_rank;
#if GAPSCOPE_COLLECTOR_HAVE_CUPTI
    header.clock = native::ClockId::CuptiTimestamp;
#else
    header.clock = native::ClockId::Realtime;
#endif
    header.startTimeNs = now();
    std::string path;
    std::string error;
    if (!writer->openInDirectory(m_outputDir, header, path, error)) {
        std::fprintf(stderr, "gapscope collector (pid %d): %s; nothing is recorded in this process\n",
            static_cast<int>(m_pid), error.c_str());
        delete writer;
        return;
    }
    if (m_outputDir.empty())
        std::fprintf(stderr, "gapscope collector (pid %d): recording to %s\n", static_cast<int>(m_pid), path.c_str());
    writer->setWindow(m_windowFrom, m_windowUntil);
    m_flushName = writer->internString("GapScope flush");
    m_writer.store(writer, std::memory_order_release);
    writeProcessMetadata();
    if (!m_clockNote.empty())
        addNote(m_clockNote);
    writer->flush(); // who this process is, on disk at once: it may die before the first flush
    startFlushThread();
}

void Collector::writeProcessMetadata()
{
    // argv from /proc: NUL-separated. The process name is argv[0]'s last component (comm is cut at 15).
    std::string cmdline = readSmallFile("/proc/self/cmdline");
    while (!cmdline.empty() && cmdline.back() == '\0')
        cmdline.pop_back();
    std::string name = cmdline.substr(0, cmdline.find('\0'));
    if (const auto slash = name.rfind('/'); slash != std::string::npos)
        name = name.substr(slash + 1);
    if (name.empty()) {
        name = readSmallFile("/proc/self/comm");
        while (!name.empty() && name.back() == '\n')
            name.pop_back();
    }
    for (char& c : cmdline) {
        if (c == '\0')
            c = ' ';
    }
    addMetadataText(native::MetadataKey::ProcessName, name);
    addMetadataText(native::MetadataKey::CommandLine, cmdline);
    if (NativeStreamWriter* w = writer()) {
        w->addMetadata({ static_cast<std::uint32_t>(native::MetadataKey::ParentPid), -1, 0, ::getppid(), 0, 0 });
        if (m_windowFrom != INT64_MIN || m_windowUntil != INT64_MAX) {
            w->addMetadata({ static_cast<std::uint32_t>(native::MetadataKey::RecordWindow), -1, m_windowFrom,
                m_windowUntil, 0, 0 });
        }
    }
}

void Collector::addMetadataText(native::MetadataKey key, const std::string& text, std::int64_t number)
{
    if (NativeStreamWriter* w = m_writer.load(std::memory_order_acquire))
        w->addMetadata({ static_cast<std::uint32_t>(key), -1, 0, number, w->internString(text), 0 });
}

NativeStreamWriter* Collector::writer()
{
    if (NativeStreamWriter* w = m_writer.load(std::memory_order_acquire))
        return w;
    if (!m_reopenAfterFork.load(std::memory_order_acquire))
        return nullptr;
    // First record of a forked child: its own file now (a child that execs at once never gets here).
    std::lock_guard lock(m_stateMutex);
    if (m_reopenAfterFork.exchange(false))
        openFile();
    return m_writer.load(std::memory_order_acquire);
}

void Collector::reportError(const std::string& message)
{
    std::fprintf(stderr, "gapscope collector (pid %d): %s\n", static_cast<int>(::getpid()), message.c_str());
    addMetadataText(native::MetadataKey::CollectorError, message);
}

void Collector::addNote(const std::string& message)
{
    addMetadataText(native::MetadataKey::CollectorNote, message);
}

void Collector::setCuptiStatus(bool active, const std::string& detail)
{
    addMetadataText(native::MetadataKey::CuptiStatus, detail, active ? 1 : 0);
}

void Collector::noteThreadName(std::int64_t tid, const std::string& name, bool exiting)
{
    NativeStreamWriter* w = writer();
    if (!w
        || !m_threadNames->note(
            tid, name, exiting ? ThreadNameBook::Source::ThreadExit : ThreadNameBook::Source::ThreadStart))
        return;
    w->addMetadata(
        { static_cast<std::uint32_t>(native::MetadataKey::ThreadOsName), -1, tid, 0, w->internString(name), 0 });
}

void Collector::setCudaHooks(CudaHooks hooks)
{
    // Never freed: a thread may be in the previous hooks now; kept reachable for the process's life.
    keepForLife(m_cudaHooks.exchange(new CudaHooks(hooks), std::memory_order_acq_rel));
}

void Collector::setNvtxShutdownHook(void (*closeOpenRanges)(std::int64_t))
{
    m_nvtxShutdown.store(closeOpenRanges, std::memory_order_release);
}

void Collector::registerExitHandler()
{
    std::atexit(&exitHandler);
}

void Collector::startFlushThread()
{
    m_stopFlushing.store(false);
    m_wakeFd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    g_wakeFd.store(m_wakeFd);
    m_flushThreadPid = ::getpid();
    m_flushThreadReady.store(false, std::memory_order_release);
    const int error = ::pthread_create(&m_flushThread, nullptr, &Collector::flushThreadMain, this);
    m_hasFlushThread = error == 0;
    if (!m_hasFlushThread)
        reportError(std::string("cannot start the flush thread (") + std::strerror(error)
            + "): events are written at exit only");
}

void* Collector::flushThreadMain(void* collector)
{
    try {
        static_cast<Collector*>(collector)->flushLoop();
    } catch (...) {
        std::fprintf(stderr, "gapscope collector: the flush thread stopped after an error\n");
    }
    return nullptr;
}

void Collector::flushLoop()
{
    constexpr int kThreadNameEvery = 7; // reading /proc for thread names about once a second is plenty
    int iteration = 0;
    m_flushThreadReady.store(true, std::memory_order_release);
    while (!m_stopFlushing.load(std::memory_order_acquire)) {
        pollfd wake { m_wakeFd, POLLIN, 0 };
        if (m_wakeFd >= 0 && ::poll(&wake, 1, m_flushIntervalMs) > 0) {
            std::uint64_t count = 0;
            [[maybe_unused]] const ssize_t got = ::read(m_wakeFd, &count, sizeof(count));
        } else if (m_wakeFd < 0) {
            ::usleep(static_cast<useconds_t>(m_flushIntervalMs) * 1000);
        }
        if (m_stopFlushing.load(std::memory_order_acquire))
            break;
        if (const int signal = g_pendingSignal; signal != 0) {
            exitOnSignal(signal);
            return;
        }
        std::lock_guard flushing(m_flushMutex);
        flushOnce(false, iteration++ % kThreadNameEvery == 0);
    }
}

void Collector::flushOnce(bool forcedCupti, bool refreshNames)
{
    NativeStreamWriter* w = m_writer.load(std::memory_order_acquire);
    if (!w)
        return;
    const std::int64_t start = now();
    CudaHooks* hooks = m_cudaHooks.load(std::memory_order_acquire);
    if (hooks && hooks->flush)
        hooks->flush(forcedCupti);
    if (refreshNames)
        refreshThreadNames(*w);
    w->flush();
    // Its own cost goes in the next flush: nobody should take profiler time for the program's.
    w->addEvent({ start, now(), 0, native::kCollectorLane, m_flushName, 0, 0, -1,
        static_cast<std::uint8_t>(native::EventCode::Overhead), 0 });
    // Zeroing the spare CUPTI buffers is the collector's cost too, but not the flush's: after it.
    if (hooks && hooks->refill)
        hooks->refill();
}

void Collector::flushNow(bool forcedCupti)
{
    flushOnce(forcedCupti, false);
}

void Collector::refreshThreadNames(NativeStreamWriter& w)
{
    DIR* dir = ::opendir("/proc/self/task");
    if (!dir)
        return;
    while (const dirent* entry = ::readdir(dir)) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9')
            continue;
        const std::int64_t tid = std::strtoll(entry->d_name, nullptr, 10);
        std::string comm = readSmallFile(std::string("/proc/self/task/") + entry->d_name + "/comm");
        while (!comm.empty() && comm.back() == '\n')
            comm.pop_back();
        if (!m_threadNames->note(tid, comm, ThreadNameBook::Source::ProcScan))
            continue;
        w.addMetadata(
            { static_cast<std::uint32_t>(native::MetadataKey::ThreadOsName), -1, tid, 0, w.internString(comm), 0 });
    }
    ::closedir(dir);
}

void Collector::shutdown()
{
    std::lock_guard lock(m_stateMutex);
    shutdownLocked();
}

void Collector::shutdownLocked()
{
    if (m_shutDown.exchange(true))
        return;
    if (m_hasFlushThread && m_flushThreadPid == ::getpid()) {
        m_stopFlushing.store(true, std::memory_order_release);
        g_wakeFd.store(-1);
        const std::uint64_t one = 1;
        [[maybe_unused]] const ssize_t written = ::write(m_wakeFd, &one, sizeof(one));
        // A terminating signal runs this on the flush thread itself, which cannot join itself.
        if (!pthread_equal(m_flushThread, pthread_self()))
            pthread_join(m_flushThread, nullptr);
        m_hasFlushThread = false;
    }
    NativeStreamWriter* w = m_writer.load(std::memory_order_acquire);
    if (!w)
        return;
    const std::int64_t end = now();
    if (auto close = m_nvtxShutdown.load(std::memory_order_acquire))
        close(end);
    CudaHooks* hooks = m_cudaHooks.load(std::memory_order_acquire);
    // Kinds off first, then the one forced flush: complete records only (a flush forced while kinds still
    // record hands back records still being written, without timestamps).
    if (hooks && hooks->stop)
        hooks->stop();
    if (hooks && hooks->flush)
        hooks->flush(true);
    if (hooks && hooks->finalize)
        hooks->finalize();
    refreshThreadNames(*w);
    w->flush();
    // The exit work is the collector's cost too; close() writes this last event with the End chunk.
    w->addEvent({ end, now(), 0, native::kCollectorLane, w->internString("GapScope exit flush"), 0, 0, -1,
        static_cast<std::uint8_t>(native::EventCode::Overhead), 0 });
    w->close(now());
    // Late calls from threads still running find no writer; the object itself stays (they may hold it).
    keepForLife(m_writer.exchange(nullptr, std::memory_order_acq_rel));
}

void Collector::prepareFork()
{
    Collector& c = instance();
    c.m_stateMutex.lock();
    // A flush thread still starting up allocates outside m_flushMutex (its stack, TLS): an allocator lock it
    // holds at fork() stays held in the child, where ASan's allocator (clang 14) then blocks the child's own
    // flush thread for ever. Wait for it to reach its loop, bounded as the flush below.
    if (c.m_hasFlushThread && c.m_flushThreadPid == ::getpid()) {
        for (int waited = 0; waited < 250 && !c.m_flushThreadReady.load(std::memory_order_acquire); ++waited)
            ::usleep(1000);
    }
    // A flush in progress ends first; bounded, so that nothing the flush waits on can hold fork() forever.
    c.m_forkHoldsFlush = false;
    for (int waited = 0; waited < 250 && !(c.m_forkHoldsFlush = c.m_flushMutex.try_lock()); ++waited)
        ::usleep(1000);
}

void Collector::parentAfterFork()
{
    Collector& c = instance();
    if (c.m_forkHoldsFlush)
        c.m_flushMutex.unlock();
    c.m_stateMutex.unlock();
}

void Collector::childAfterFork()
{
    Collector& c = instance();
    if (c.m_forkHoldsFlush)
        c.m_flushMutex.unlock();
    c.m_stateMutex.unlock();
    // The parent's writer, buffers and flush thread belong to the parent: the child leaves them be
    // (their locks may be held by threads that do not exist here), keeps them reachable, never freed
    // (kept_for_life.h), and opens its own file lazily.
    c.m_hasFlushThread = false;
    g_wakeFd.store(-1); // the parent's eventfd: a signal here must not wake the parent's thread
    if (c.m_wakeFd >= 0)
        ::close(c.m_wakeFd);
    c.m_wakeFd = -1;
    g_pendingSignal = 0;
    keepForLife(c.m_threadNames);
    c.m_threadNames = new ThreadNameBook(); // the parent's may be locked by a thread the child lacks
    // CUPTI state does not survive fork(); a child that inits CUDA sets it again.
    keepForLife(c.m_cudaHooks.exchange(nullptr));
    NativeStreamWriter* parentWriter = c.m_writer.exchange(nullptr);
    keepForLife(parentWriter);
    const bool wasRecording = parentWriter != nullptr;
    c.m_reopenAfterFork.store(wasRecording && !c.m_shutDown.load());
}

} // namespace gapscope::capture
