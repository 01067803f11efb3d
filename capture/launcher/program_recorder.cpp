// SPDX-License-Identifier: MIT
#include "capture/launcher/program_recorder.h"

#include "capture/launcher/part_file_scanner.h"
#include "capture/launcher/program_lookup.h"

#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace gapscope::capture {

namespace {

std::int64_t realtimeNs()
{
    timespec ts {};
    clock_gettime(CLOCK_REALTIME, &ts);
    return std::int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

/// What the child reports through the exec pipe when it cannot start the program.
struct ChildFailure {
    int stage; // 0: chdir, 1: exec
    int error;
};

[[noreturn]] void failInChild(int pipeFd, int stage)
{
    const ChildFailure failure { stage, errno };
    [[maybe_unused]] const ssize_t written = ::write(pipeFd, &failure, sizeof(failure));
    ::_exit(127);
}

ProgramExit decodeStatus(int status)
{
    ProgramExit exit;
    if (WIFEXITED(status))
        exit.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        exit.signal = WTERMSIG(status);
    return exit;
}

} // namespace

ProgramRecorder::ProgramRecorder(RecordOptions options)
    : m_options(std::move(options))
{ }

ProgramRecorder::~ProgramRecorder()
{
    if (m_pid > 0 && !m_waited) {
        ::kill(-m_pid, SIGKILL);
        int status = 0;
        ::waitpid(m_pid, &status, 0);
    }
    for (int fd : { m_stdoutFd, m_stderrFd }) {
        if (fd >= 0)
            ::close(fd);
    }
    if (m_ownsPartsDirectory && !m_partsDirectory.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(m_partsDirectory, ec);
    }
}

std::string ProgramRecorder::environmentValue(const std::string& name) const
{
    const std::string prefix = name + "=";
    for (const std::string& entry : m_environment) {
        if (entry.starts_with(prefix))
            return entry.substr(prefix.size());
    }
    return {};
}

std::string ProgramRecorder::injectionToolName(const std::string& path)
{
    std::string lower = path;
    for (char& c : lower)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto has = [&lower](const char* text) { return lower.find(text) != std::string::npos; };
    if (has("nsight-systems") || has("nsys") || has("libtoolsinjection"))
        return "Nsight Systems";
    if (has("nsight-compute") || has("ncu") || has("libnvperf") || has("injection_64"))
        return "Nsight Compute";
    if (has("gapscope"))
        return "another GapScope collector";
    if (has("cupti"))
        return "a CUPTI-based tool";
    return "an unknown tool";
}

void ProgramRecorder::buildEnvironment(const std::string& library, std::int64_t startNs)
{
    m_environment.clear();
    m_warnings.clear();
    for (char** e = environ; e && *e; ++e)
        m_environment.emplace_back(*e);
    const auto set = [this](const std::string& name, const std::optional<std::string>& value) {
        const std::string prefix = name + "=";
        std::erase_if(m_environment, [&](const std::string& entry) { return entry.starts_with(prefix); });
        if (value)
            m_environment.push_back(prefix + *value);
    };
    // The user's changes first, so that the injection variables, which recording needs, win.
    for (const auto& [name, value] : m_options.environment)
        set(name, value);
    // Another tool's injection library (nsys sets both when it launches a program) is replaced, not
    // silently: only one library can be injected, and CUPTI takes one subscriber.
    for (const char* name : { kEnvCudaInjection, kEnvNvtxInjection }) {
        const std::string existing = environmentValue(name);
        if (!existing.empty() && existing != library) {
            m_warnings.push_back(std::string(name) + " was set to " + existing + " (" + injectionToolName(existing)
                + "): GapScope replaced it with its collector, so that tool records nothing in this run");
        }
    }
    set(kEnvCudaInjection, library);
    set(kEnvNvtxInjection, library);
    set(kEnvOutputDir, m_partsDirectory);
    set(kEnvKinds, std::to_string(m_options.kinds));
    set(kEnvFlushIntervalMs, std::to_string(m_options.flushIntervalMs));
    const std::int64_t from = startNs + static_cast<std::int64_t>(m_options.delaySeconds * 1e9);
    set(kEnvRecordFromNs, m_options.delaySeconds > 0 ? std::optional(std::to_string(from)) : std::nullopt);
    m_untilNs = m_options.durationSeconds ? from + static_cast<std::int64_t>(*m_options.durationSeconds * 1e9) : 0;
    set(kEnvRecordUntilNs, m_untilNs ? std::optional(std::to_string(m_untilNs)) : std::nullopt);
}

std::optional<std::string> ProgramRecorder::start()
{
    if (m_pid > 0)
        return "the program was already started";
    if (m_options.delaySeconds < 0 || (m_options.durationSeconds && *m_options.durationSeconds <= 0))
        return "the delay must be 0 or more and the duration more than 0 seconds";
    std::string error;
    std::string library = m_options.injectionLibrary;
    if (library.empty()) {
        auto found = findInjectionLibrary(error);
        if (!found)
            return error;
        library = *found;
    }
    if (!m_options.partsDirectory.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(m_options.partsDirectory, ec);
        if (ec)
            return "cannot create " + m_options.partsDirectory + ": " + ec.message();
        m_partsDirectory = std::filesystem::absolute(m_options.partsDirectory).string();
    } else {
        std::string pattern = (std::filesystem::temp_directory_path() / "gapscope-record-XXXXXX").string();
        if (!::mkdtemp(pattern.data()))
            return "cannot create a temporary folder in " + std::filesystem::temp_directory_path().string() + ": "
                + std::strerror(errno);
        m_partsDirectory = pattern;
        m_ownsPartsDirectory = true;
    }
    m_startNs = realtimeNs();
    buildEnvironment(library, m_startNs);
    const auto path = findProgram(m_options.program, m_options.workingDirectory, environmentValue("PATH"), error);
    if (!path)
        return error;

    // Everything the child needs is prepared here: between fork and exec only async-signal-safe calls.
    std::vector<std::string> arguments { m_options.program };
    arguments.insert(arguments.end(), m_options.arguments.begin(), m_options.arguments.end());
    std::vector<char*> argv;
    for (std::string& a : arguments)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<char*> envp;
    for (std::string& e : m_environment)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const bool capture = m_options.output == RecordOptions::Output::Capture;
    int outPipe[2] = { -1, -1 };
    int errPipe[2] = { -1, -1 };
    int execPipe[2] = { -1, -1 };
    if (::pipe2(execPipe, O_CLOEXEC) != 0
        || (capture && (::pipe2(outPipe, O_CLOEXEC) != 0 || ::pipe2(errPipe, O_CLOEXEC) != 0)))
        return std::string("cannot create pipes: ") + std::strerror(errno);
    const char* workingDirectory = m_options.workingDirectory.empty() ? nullptr : m_options.workingDirectory.c_str();

    const pid_t pid = ::fork();
    if (pid < 0)
        return std::string("cannot start the program: fork failed: ") + std::strerror(errno);
    if (pid == 0) {
        ::setpgid(0, 0);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        for (int sig : { SIGINT, SIGTERM, SIGQUIT, SIGPIPE, SIGCHLD })
            ::signal(sig, SIG_DFL);
        if (workingDirectory && ::chdir(workingDirectory) != 0)
            failInChild(execPipe[1], 0);
        if (capture) {
            const int devNull = ::open("/dev/null", O_RDONLY);
            if (devNull >= 0)
                ::dup2(devNull, 0);
            ::dup2(outPipe[1], 1);
            ::dup2(errPipe[1], 2);
        }
        ::execve(path->c_str(), argv.data(), envp.data());
        failInChild(execPipe[1], 1);
    }
    ::setpgid(pid, pid); // also here, so that the group exists before either side goes on
    m_pid = pid;
    m_group.store(pid);
    ::close(execPipe[1]);
    if (capture) {
        ::close(outPipe[1]);
        ::close(errPipe[1]);
        m_stdoutFd = outPipe[0];
        m_stderrFd = errPipe[0];
    }
    ChildFailure failure {};
    ssize_t got = 0;
    do
        got = ::read(execPipe[0], &failure, sizeof(failure));
    while (got < 0 && errno == EINTR);
    ::close(execPipe[0]);
    if (got == static_cast<ssize_t>(sizeof(failure))) {
        int status = 0;
        ::waitpid(pid, &status, 0);
        m_pid = -1;
        m_group.store(0);
        if (failure.stage == 0)
            return "cannot enter the working folder " + m_options.workingDirectory + ": "
                + std::strerror(failure.error);
        return "cannot start " + *path + ": " + std::strerror(failure.error);
    }
    return std::nullopt;
}

void ProgramRecorder::requestStop()
{
    const pid_t group = m_group.load();
    if (group <= 0)
        return;
    const int previous = m_stopRequests.fetch_add(1);
    ::kill(-group, previous == 0 ? SIGINT : previous == 1 ? SIGTERM : SIGKILL);
}

void ProgramRecorder::readOutput(int& fd, bool isStderr, RecordObserver* observer)
{
    char buffer[65536];
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n > 0) {
        if (observer)
            observer->onOutput(isStderr, std::string_view(buffer, static_cast<std::size_t>(n)));
        return;
    }
    if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        ::close(fd);
        fd = -1;
    }
}

IoResult<RecordResult> ProgramRecorder::wait(RecordObserver* observer)
{
    if (m_pid <= 0 || m_waited)
        return IoError { m_options.program, std::nullopt, "the program is not running" };
    if (observer) {
        observer->onStarted(m_pid);
        for (const std::string& warning : m_warnings)
            observer->onNote(warning);
    }
    using Clock = std::chrono::steady_clock;
    const auto started = Clock::now();
    auto lastProgress = started;
    auto groupGoneAt = Clock::time_point {};
    PartFileScanner scanner(m_partsDirectory);
    std::optional<ProgramExit> exit;
    bool notedRemaining = false;
    bool notedDuration = false;
    const auto reportProgress = [&] {
        if (!observer)
            return;
        const PartFileScanner::Totals totals = scanner.scan();
        observer->onProgress(
            RecordProgress { std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - started).count(),
                totals.events, totals.droppedRecords, totals.files });
    };
    while (true) {
        pollfd fds[2];
        nfds_t count = 0;
        for (int fd : { m_stdoutFd, m_stderrFd }) {
            if (fd >= 0)
                fds[count++] = pollfd { fd, POLLIN, 0 };
        }
        if (count > 0) {
            if (::poll(fds, count, 100) > 0) {
                for (nfds_t i = 0; i < count; ++i) {
                    if (fds[i].revents == 0)
                        continue;
                    if (fds[i].fd == m_stdoutFd)
                        readOutput(m_stdoutFd, false, observer);
                    else
                        readOutput(m_stderrFd, true, observer);
                }
            }
        } else {
            ::usleep(50'000);
        }
        if (!exit) {
            int status = 0;
            if (::waitpid(m_pid, &status, WNOHANG) == m_pid)
                exit = decodeStatus(status);
        }
        if (exit) {
            // The program's children (in its group) may outlive it and still be recording.
            const bool groupAlive = ::kill(-m_group.load(), 0) == 0 || errno == EPERM;
            if (groupAlive && !notedRemaining && observer) {
                observer->onNote("the program exited; processes it started are still running: waiting for them");
                notedRemaining = true;
            }
            if (!groupAlive) {
                if (groupGoneAt == Clock::time_point {})
                    groupGoneAt = Clock::now();
                // Output pipes may be held by a process that left the group: wait a little, not forever.
                const bool pipesOpen = m_stdoutFd >= 0 || m_stderrFd >= 0;
                if (!pipesOpen || Clock::now() - groupGoneAt > std::chrono::seconds(2))
                    break;
            }
        }
        if (m_untilNs != 0 && m_stopRequests.load() == 0 && realtimeNs() > m_untilNs + 300'000'000) {
            if (observer && !notedDuration)
                observer->onNote("the recording time is over: stopping the program (SIGINT)");
            notedDuration = true;
            requestStop();
        }
        if (Clock::now() - lastProgress >= std::chrono::milliseconds(250)) {
            lastProgress = Clock::now();
            reportProgress();
        }
    }
    m_waited = true;
    reportProgress();
    RecordResult result;
    result.exit = *exit;
    result.wallSeconds = std::chrono::duration<double>(Clock::now() - started).count();
    auto gathered = gatherRecording(m_partsDirectory, nvidiaDriverPresent(), m_pid, result.exit);
    if (!gathered)
        return gathered.error();
    result.trace = std::move(gathered.value().trace);
    result.summary = std::move(gathered.value().summary);
    result.summary.notes.insert(result.summary.notes.begin(), m_warnings.begin(), m_warnings.end());
    if (!m_ownsPartsDirectory)
        result.partsDirectory = m_partsDirectory;
    return result;
}

} // namespace gapscope::capture
