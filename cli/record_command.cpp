// SPDX-License-Identifier: MIT
// `gapscope record [-o OUT] [--kinds LIST] [--delay S] [--duration S] [--runs N] [--] PROGRAM [ARGS...]`:
// runs PROGRAM under the collector, passes its output through, forwards Ctrl-C to it, and writes
// every process of the run into one native trace (.gapscope) that `gapscope OUT`, `gapscope report`
// and `gapscope convert` read. With --runs N it runs PROGRAM N times, one after the other, into the
// folder OUT: one trace per run and the runs manifest (core/experiment/runs_manifest.h) that `diff`
// reads. Tool output goes to stderr: stdout belongs to the program.

#include "cli/command_usage.h"
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

} // namespace

int runRecord(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    (void)out; // stdout is the program's
    capture::RecordOptions options;
    std::string output;
    std::optional<std::size_t> runs;
    std::size_t i = 0;
    for (; i < args.size(); ++i) {
        const std::string& arg = args[i];
        const bool hasValue = i + 1 < args.size();
        if (arg == "--") {
            ++i;
            break;
        }
        if ((arg == "-o" || arg == "--output") && hasValue) {
            output = args[++i];
        } else if (arg == "--kinds" && hasValue) {
            const auto kinds = capture::parseRecordKinds(args[++i]);
            if (!kinds) {
                err << "gapscope record: --kinds: " << kinds.error().message << "\n";
                return 2;
            }
            options.kinds = *kinds;
        } else if ((arg == "--delay" || arg == "--duration") && hasValue) {
            const auto seconds = parseSeconds(args[++i]);
            if (!seconds || (arg == "--duration" && *seconds == 0)) {
                err << "gapscope record: " << arg << " takes a number of seconds, not '" << args[i] << "'\n";
                return 2;
            }
            if (arg == "--delay")
                options.delaySeconds = *seconds;
            else
                options.durationSeconds = *seconds;
        } else if (arg == "--runs" && hasValue) {
            const std::string& text = args[++i];
            std::size_t used = 0;
            long long n = 0;
            try {
                n = std::stoll(text, &used);
            } catch (...) { }
            if (used != text.size() || n < 1) {
                err << "gapscope record: --runs takes a count >= 1, not '" << text << "'\n";
                return 2;
            }
            runs = static_cast<std::size_t>(n);
        } else if (arg == "-h" || arg == "--help") {
            err << usageText("record");
            return 0;
        } else if (arg.starts_with("-")) {
            err << "gapscope record: unknown option or missing value: " << arg << "\n" << usageText("record");
            return 2;
        } else {
            break; // the program; everything after it is its own
        }
    }
    if (i >= args.size()) {
        err << "gapscope record: no program given\n" << usageText("record");
        return 2;
    }
    options.program = args[i];
    options.arguments.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
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
