// SPDX-License-Identifier: MIT
// `gapscope record [-o OUT] [--kinds LIST] [--delay S] [--duration S] [--runs N] [--] PROGRAM [ARGS...]`:
// runs PROGRAM under the collector, passes its output through, forwards Ctrl-C to it, and writes
// every process of the run into one native trace (.gapscope) that `gapscope OUT`, `gapscope report`
// and `gapscope convert` read. With --runs N it runs PROGRAM N times, one after the other, into the
// folder OUT: one trace per run and the runs manifest (core/experiment/runs_manifest.h) that `diff`
// reads. Tool output goes to stderr: stdout belongs to the program.

#include "cli/commands.h"

#include "capture/launcher/program_recorder.h"
#include "capture/launcher/record_kinds.h"
#include "capture/launcher/run_series.h"
#include "core/experiment/runs_manifest.h"
#include "core/io/native/native_trace_writer.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <ctime>
#include <filesystem>
#include <functional>

#include <unistd.h>

namespace gapscope::cli {

namespace {

std::atomic<capture::ProgramRecorder*> g_recorder { nullptr };
/// Ctrl-C during repeated runs also ends the series after the current run.
std::atomic<bool> g_stopSeries { false };

void onStopSignal(int)
{
    g_stopSeries.store(true);
    constexpr char message[] = "\ngapscope record: stopping the program (press Ctrl-C again to terminate it)\n";
    [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, message, sizeof(message) - 1);
    if (capture::ProgramRecorder* recorder = g_recorder.load())
        recorder->requestStop();
}

/// Forwards SIGINT and SIGTERM to the program while it runs (it has a process group of its own, so
/// the terminal's Ctrl-C reaches only us).
class StopSignalForwarding {
public:
    explicit StopSignalForwarding(capture::ProgramRecorder& recorder)
    {
        g_recorder.store(&recorder);
        struct sigaction action { };
        action.sa_handler = &onStopSignal;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESTART;
        ::sigaction(SIGINT, &action, &m_previousInt);
        ::sigaction(SIGTERM, &action, &m_previousTerm);
    }
    ~StopSignalForwarding()
    {
        ::sigaction(SIGINT, &m_previousInt, nullptr);
        ::sigaction(SIGTERM, &m_previousTerm, nullptr);
        g_recorder.store(nullptr);
    }
    StopSignalForwarding(const StopSignalForwarding&) = delete;
    StopSignalForwarding& operator=(const StopSignalForwarding&) = delete;

private:
    struct sigaction m_previousInt { };
    struct sigaction m_previousTerm { };
};

class NotesToStderr final : public capture::RecordObserver {
public:
    explicit NotesToStderr(std::ostream& err)
        : m_err(err)
    { }
    void onNote(std::string_view text) override { m_err << "gapscope record: " << text << "\n" << std::flush; }

private:
    std::ostream& m_err;
};

std::string defaultOutputName()
{
    const std::time_t now = std::time(nullptr);
    std::tm local {};
    localtime_r(&now, &local);
    char name[64];
    std::strftime(name, sizeof(name), "gapscope-%Y%m%d-%H%M%S", &local);
    return std::string(name) + native::kFileExtension;
}

std::optional<double> parseSeconds(const std::string& text)
{
    try {
        std::size_t used = 0;
        const double value = std::stod(text, &used);
        if (used == text.size() && value >= 0)
            return value;
    } catch (...) { }
    return std::nullopt;
}

/// One recording: the program run once under the collector, its trace written to `output`.
struct RecordedRun {
    int status = 0; // the program's exit status; 127: it could not start
    std::optional<capture::ProgramExit> exit;
    double wallSeconds = 0.0;
    std::string problem; // why there is no trace (could not start, could not gather or write), "" when there is
    std::vector<std::string> environment; // what the program got
    std::uint64_t events = 0;
};

RecordedRun recordOnce(
    const capture::RecordOptions& options, const std::string& output, bool printSummary, std::ostream& err)
{
    RecordedRun run;
    capture::ProgramRecorder recorder(options);
    if (auto error = recorder.start()) {
        run.status = 127;
        run.problem = *error;
        return run;
    }
    run.environment = recorder.environment();
    NotesToStderr notes(err);
    IoResult<capture::RecordResult> recorded = [&] {
        StopSignalForwarding forwarding(recorder);
        return recorder.wait(&notes);
    }();
    if (!recorded) {
        run.status = 1;
        run.problem = recorded.error().toString();
        return run;
    }
    capture::RecordResult& result = recorded.value();
    run.exit = result.exit;
    run.status = result.exit.status();
    run.wallSeconds = result.wallSeconds;
    run.events = result.trace.eventCount();
    NativeTraceWriter::Options writeOptions;
    writeOptions.clock = result.summary.clock;
    auto written = NativeTraceWriter::writeFile(result.trace, output, writeOptions);
    if (printSummary) {
        err << "\n" << capture::formatSummary(result.summary, result.exit, result.wallSeconds);
        constexpr std::size_t kWarningsShown = 10;
        for (std::size_t w = 0; w < result.trace.warnings().size() && w < kWarningsShown; ++w)
            err << "warning: " << result.trace.warnings()[w].toString() << "\n";
        if (result.trace.warnings().size() > kWarningsShown)
            err << "(" << result.trace.warnings().size() - kWarningsShown << " more warnings)\n";
    }
    if (!written)
        run.problem = written.error().toString();
    return run;
}

/// `--runs N`: the program N times into the folder `folder`, the manifest rewritten after each run so that an
/// interrupted series keeps what it recorded. Exit 0 when every run succeeded, 1 when one failed, 127 when the
/// program could not start at all.
int recordSeries(const capture::RecordOptions& options, std::size_t runs, const std::string& folder, std::ostream& err)
{
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error) {
        err << "gapscope record: cannot make the folder " << folder << ": " << error.message() << "\n";
        return 1;
    }
    RunsManifest manifest = capture::seriesManifest(options);
    g_stopSeries.store(false);
    for (std::size_t k = 1; k <= runs && !g_stopSeries.load(); ++k) {
        err << "gapscope record: run " << k << " of " << runs << "\n" << std::flush;
        ManifestRun entry = capture::beginSeriesRun(k);
        const std::string output = (std::filesystem::path(folder) / entry.file).string();
        const RecordedRun run = recordOnce(options, output, k == runs, err);
        if (k == 1)
            manifest.environmentChanges = capture::environmentChanges(run.environment);
        capture::endSeriesRun(entry, run.exit, run.wallSeconds, run.problem);
        err << "gapscope record: run " << k << " of " << runs << ": "
            << (run.exit ? run.exit->describe() : entry.failure) << ", " << run.wallSeconds << " s, " << run.events
            << " events" << (entry.failed ? " (failed)" : "") << "\n";
        manifest.runs.push_back(std::move(entry));
        if (auto written = writeRunsManifest(folder, manifest); !written) {
            err << "gapscope record: " << written.error().toString() << "\n";
            return 1;
        }
        if (run.status == 127 && k == 1) {
            err << "gapscope record: " << run.problem << "\n";
            return 127;
        }
    }
    err << capture::seriesSummaryLine(manifest, runs, folder) << "\n";
    const bool anyFailed
        = std::any_of(manifest.runs.begin(), manifest.runs.end(), [](const ManifestRun& run) { return run.failed; });
    return anyFailed ? 1 : 0;
}

/// What `gapscope record` was asked for.
struct RecordRequest {
    capture::RecordOptions options;
    std::string output;
    std::optional<std::size_t> runs;
    std::vector<std::string> program;
};

ArgumentSpec recordArguments(RecordRequest& request)
{
    ArgumentSpec spec("record", "runs a CUDA program under the collector and writes its trace");
    spec.value("-o,--output OUT",
        "the recording (default gapscope-YYYYmmdd-HHMMSS.gapscope in the current folder); with --runs, the folder",
        [&](const std::string& path) -> ArgumentCheck {
            request.output = path;
            return std::nullopt;
        });
    spec.value("--kinds LIST",
        "what to record, comma-separated: kernel, memcpy, memset, sync, runtime, driver, nvtx, overhead, or the "
        "groups cuda and all (default all)",
        [&](const std::string& text) -> ArgumentCheck {
            const auto kinds = capture::parseRecordKinds(text);
            if (!kinds)
                return UsageError { "--kinds: " + kinds.error().message };
            request.options.kinds = *kinds;
            return std::nullopt;
        });
    const auto seconds = [](const std::string& option, bool positive, const std::function<void(double)>& set) {
        return [option, positive, set](const std::string& text) -> ArgumentCheck {
            const auto value = parseSeconds(text);
            if (!value || (positive && *value == 0))
                return UsageError { option + " takes a number of seconds, not '" + text + "'" };
            set(*value);
            return std::nullopt;
        };
    };
    spec.value("--delay S", "start recording S seconds after the program starts",
        seconds("--delay", false, [&](double s) { request.options.delaySeconds = s; }));
    spec.value("--duration S", "record for S seconds, then stop the program (SIGINT)",
        seconds("--duration", true, [&](double s) { request.options.durationSeconds = s; }));
    spec.value("--runs N",
        "run PROGRAM N times, one after the other, with the same environment: DIR (-o) gets run-1.gapscope ... "
        "run-N.gapscope and gapscope-runs.json (program, arguments, environment changes, kinds, and each run's "
        "start, exit and wall time); a run that fails is named there and left out by diff. --kinds nvtx: the "
        "low-overhead runs (no CUPTI) that measure the profiler's cost (docs/experiments.md)",
        [&](const std::string& text) -> ArgumentCheck {
            const auto n = parseInteger(text);
            if (!n || *n < 1)
                return UsageError { "--runs takes a count >= 1, not '" + text + "'" };
            request.runs = static_cast<std::size_t>(*n);
            return std::nullopt;
        });
    spec.rest("[--] PROGRAM [ARGS...]", "the program and its own arguments (everything after PROGRAM is its own)",
        [&](std::vector<std::string> program) { request.program = std::move(program); });
    spec.form("--runs N -o DIR [--kinds LIST] [--] PROGRAM [ARGS...]   (N runs, one folder)");
    spec.footer("PROGRAM runs with your environment plus the collector's; every process it starts is recorded too. "
                "Ctrl-C stops it (again: SIGTERM, a third time: SIGKILL). Exits with the program's status.");
    return spec;
}

} // namespace

CommandHelp recordHelp()
{
    RecordRequest request;
    return recordArguments(request).help();
}

int runRecord(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    (void)out; // stdout is the program's
    RecordRequest request;
    ArgumentCheck problem = recordArguments(request).parse(args);
    if (!problem && request.program.empty())
        problem = UsageError { "no program given" };
    if (problem) {
        err << "gapscope record: " << problem->message << "\n" << usageHint(recordHelp());
        return 2;
    }
    capture::RecordOptions& options = request.options;
    std::string& output = request.output;
    const std::optional<std::size_t>& runs = request.runs;
    options.program = request.program.front();
    options.arguments.assign(request.program.begin() + 1, request.program.end());
    if (runs) {
        if (output.empty()) {
            err << "gapscope record: --runs needs -o DIR, the folder the runs go into\n";
            return 2;
        }
        return recordSeries(options, *runs, output, err);
    }
    if (output.empty())
        output = defaultOutputName();

    const RecordedRun run = recordOnce(options, output, true, err);
    if (!run.problem.empty()) {
        err << "gapscope record: " << run.problem << "\n";
        return run.status == 127 ? 127 : 1;
    }
    err << "Wrote " << output << " (" << run.events << " events); open it with: gapscope " << output << "\n";
    return run.status;
}

} // namespace gapscope::cli
