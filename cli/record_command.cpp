// SPDX-License-Identifier: MIT
// `gapscope record [-o OUT] [--kinds LIST] [--delay S] [--duration S] [--] PROGRAM [ARGS...]`:
// runs PROGRAM under the collector, passes its output through, forwards Ctrl-C to it, and writes
// every process of the run into one native trace (.gapscope) that `gapscope OUT`, `gapscope report`
// and `gapscope convert` read. Tool output goes to stderr: stdout belongs to the program.

#include "cli/command_usage.h"
#include "cli/commands.h"

#include "capture/launcher/program_recorder.h"
#include "capture/launcher/record_kinds.h"
#include "core/io/native/native_trace_writer.h"

#include <atomic>
#include <csignal>
#include <ctime>

#include <unistd.h>

namespace gapscope::cli {

namespace {

std::atomic<capture::ProgramRecorder*> g_recorder { nullptr };

void onStopSignal(int)
{
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

} // namespace

int runRecord(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    (void)out; // stdout is the program's
    capture::RecordOptions options;
    std::string output;
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
    if (output.empty())
        output = defaultOutputName();

    capture::ProgramRecorder recorder(options);
    if (auto error = recorder.start()) {
        err << "gapscope record: " << *error << "\n";
        return 127;
    }
    NotesToStderr notes(err);
    IoResult<capture::RecordResult> recorded = [&] {
        StopSignalForwarding forwarding(recorder);
        return recorder.wait(&notes);
    }();
    if (!recorded) {
        err << "gapscope record: " << recorded.error().toString() << "\n";
        return 1;
    }
    capture::RecordResult& result = recorded.value();
    NativeTraceWriter::Options writeOptions;
    writeOptions.clock = result.summary.clock;
    auto written = NativeTraceWriter::writeFile(result.trace, output, writeOptions);
    err << "\n" << capture::formatSummary(result.summary, result.exit, result.wallSeconds);
    constexpr std::size_t kWarningsShown = 10;
    for (std::size_t w = 0; w < result.trace.warnings().size() && w < kWarningsShown; ++w) {
        const ImportWarning& warning = result.trace.warnings()[w];
        err << "warning: " << warning.toString() << "\n";
    }
    if (result.trace.warnings().size() > kWarningsShown)
        err << "(" << result.trace.warnings().size() - kWarningsShown << " more warnings)\n";
    if (!written) {
        err << "gapscope record: " << written.error().toString() << "\n";
        return 1;
    }
    err << "Wrote " << output << " (" << result.trace.eventCount() << " events); open it with: gapscope " << output
        << "\n";
    return result.exit.status();
}

} // namespace gapscope::cli
