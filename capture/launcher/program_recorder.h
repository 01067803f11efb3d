// SPDX-License-Identifier: MIT
#pragma once

#include "capture/collector_env.h"
#include "capture/launcher/recording_summary.h"
#include "core/io/common/io_error.h"

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gapscope::capture {

struct RecordOptions {
    std::string program;
    std::vector<std::string> arguments;
    /// The program's current folder; empty: the launcher's.
    std::string workingDirectory;
    /// Changes on top of the launcher's own environment, in order: a value sets, nullopt unsets.
    std::vector<std::pair<std::string, std::optional<std::string>>> environment;
    /// RecordKind bits.
    std::uint32_t kinds = kAllRecordKinds;
    /// Record from this long after the start...
    double delaySeconds = 0.0;
    /// ...for this long, then stop the program (SIGINT to its process group). nullopt: until it ends.
    std::optional<double> durationSeconds;
    /// The collector library; empty: findInjectionLibrary().
    std::string injectionLibrary;
    /// Where the per-process files go; empty: a new temporary folder, removed once gathered.
    std::string partsDirectory;
    int flushIntervalMs = kDefaultFlushIntervalMs;
    enum class Output {
        Inherit, // the program writes to the launcher's stdout and stderr (the command line)
        Capture, // its output goes to RecordObserver::onOutput (a GUI)
    };
    Output output = Output::Inherit;
};

struct RecordProgress {
    std::int64_t elapsedNs = 0;
    std::uint64_t records = 0; // events the collectors have written so far
    std::uint64_t droppedRecords = 0;
    std::size_t processes = 0; // per-process files so far
};

/// Hears about a recording while it runs. Called on the thread that runs ProgramRecorder::wait().
class RecordObserver {
public:
    virtual ~RecordObserver() = default;
    virtual void onStarted(pid_t /*pid*/) { }
    /// Output of the program (Output::Capture only), in pieces as they come.
    virtual void onOutput(bool /*isStderr*/, std::string_view /*text*/) { }
    /// About four times a second.
    virtual void onProgress(const RecordProgress& /*progress*/) { }
    /// Something the user should know while waiting ("the program exited; 2 processes of its group remain").
    virtual void onNote(std::string_view /*text*/) { }
};

struct RecordResult {
    ProgramExit exit;
    double wallSeconds = 0.0;
    /// Every process of the run, in one finished trace.
    Trace trace;
    RecordingSummary summary;
    /// Set when the per-process files were kept (RecordOptions::partsDirectory given).
    std::string partsDirectory;
};

/// Runs a program under the collector and gathers what it recorded (the launcher; docs/collector.md).
/// Qt-free: the command line drives it directly; a GUI runs wait() on a worker thread and calls
/// requestStop() from its Stop button.
///
///     ProgramRecorder recorder(options);
///     if (auto error = recorder.start()) ...        // program missing / not executable / no collector
///     auto result = recorder.wait(&observer);       // blocks until the program's process group is gone
///
/// The program starts in a process group of its own, with the injection environment
/// (CUDA_INJECTION64_PATH, NVTX_INJECTION64_PATH, GAPSCOPE_*) added to the caller's environment,
/// so that everything it starts (mpirun, torchrun, DataLoader workers) is recorded too.
class ProgramRecorder {
public:
    explicit ProgramRecorder(RecordOptions options);
    /// A program still running is killed (SIGKILL to its group); a temporary parts folder is removed.
    ~ProgramRecorder();
    ProgramRecorder(const ProgramRecorder&) = delete;
    ProgramRecorder& operator=(const ProgramRecorder&) = delete;

    /// Starts the program. Returns an error message when it cannot be started.
    std::optional<std::string> start();
    pid_t pid() const { return m_pid; }

    /// Asks the program to stop: SIGINT to its process group, SIGTERM on the second call, SIGKILL
    /// on the third. Thread-safe and async-signal-safe (a SIGINT handler may call it).
    void requestStop();

    /// Waits until the program and every process of its group have ended, reporting output and
    /// progress, then gathers the per-process files into one trace. Call once, after start().
    IoResult<RecordResult> wait(RecordObserver* observer = nullptr);

    /// The environment the program gets (after start()), "NAME=value" strings.
    const std::vector<std::string>& environment() const { return m_environment; }
    /// What start() had to override (another tool's CUDA_INJECTION64_PATH or NVTX_INJECTION64_PATH);
    /// also given to the observer and put first in the summary's notes.
    const std::vector<std::string>& warnings() const { return m_warnings; }

    /// The tool an injection library path belongs to ("Nsight Systems", ...), for the warning.
    static std::string injectionToolName(const std::string& path);

private:
    void buildEnvironment(const std::string& library, std::int64_t startNs);
    std::string environmentValue(const std::string& name) const;
    void readOutput(int& fd, bool isStderr, RecordObserver* observer);

    RecordOptions m_options;
    std::vector<std::string> m_environment;
    std::vector<std::string> m_warnings;
    std::string m_partsDirectory;
    bool m_ownsPartsDirectory = false;
    pid_t m_pid = -1;
    std::atomic<pid_t> m_group { 0 };
    std::atomic<int> m_stopRequests { 0 };
    int m_stdoutFd = -1;
    int m_stderrFd = -1;
    std::int64_t m_startNs = 0;
    std::int64_t m_untilNs = 0; // 0: no duration
    bool m_waited = false;
};

} // namespace gapscope::capture
