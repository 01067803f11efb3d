// SPDX-License-Identifier: MIT
#include "capture/launcher/recording_summary.h"

#include "capture/launcher/part_file_scanner.h"
#include "core/io/native/native_trace_reader.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <tuple>

namespace gapscope::capture {

std::string ProgramExit::describe() const
{
    if (exitCode)
        return "exited with code " + std::to_string(*exitCode);
    if (signal) {
        const char* name = ::strsignal(*signal);
        return "was ended by signal " + std::to_string(*signal) + (name ? std::string(" (") + name + ")" : "");
    }
    return "ended in an unknown way";
}

namespace {

/// Time covered by a lane's Overhead events, overlaps counted once (events are sorted by start).
TimeNs overheadCovered(const EventVector& events, std::uint64_t& count)
{
    TimeNs covered = 0;
    TimeNs reach = INT64_MIN;
    for (const Event& e : events) {
        if (e.kind != EventKind::Overhead)
            continue;
        ++count;
        const TimeNs from = std::max(e.start, reach);
        if (e.end > from)
            covered += e.end - from;
        reach = std::max(reach, e.end);
    }
    return covered;
}

/// N of "...<pid>-N.gapscope", 0 for "...<pid>.gapscope".
int nameSuffix(const std::string& file, std::int64_t pid)
{
    const std::string marker = std::to_string(pid) + "-";
    const auto at = file.rfind(marker);
    if (at == std::string::npos)
        return 0;
    return std::atoi(file.c_str() + at + marker.size());
}

} // namespace

IoResult<GatheredRecording> gatherRecording(const std::string& directory, bool driverPresent, std::int64_t programPid,
    const std::optional<ProgramExit>& programExit)
{
    struct Loaded {
        NativeTraceReader::UnfinishedCapture capture;
        std::string file;
    };
    std::vector<Loaded> loaded;
    RecordingSummary summary;
    for (const std::string& file : PartFileScanner::partFiles(directory)) {
        auto capture = NativeTraceReader::readUnfinished(file); // finished once, after appending
        if (!capture) {
            summary.unreadableFiles.push_back(capture.error().toString());
            continue;
        }
        loaded.push_back({ std::move(capture.value()), file });
    }
    if (loaded.empty()) {
        if (!summary.unreadableFiles.empty()) {
            return IoError { directory, std::nullopt,
                "no capture file of the run could be read: " + summary.unreadableFiles.front() };
        }
        return IoError { directory, std::nullopt,
            "nothing was recorded: no process of the program used CUDA or NVTX, so nothing loaded the collector "
            "(GapScope "
            "records CUDA activity and NVTX ranges, not a program's CPU time: mark its CPU work with NVTX ranges, or "
            "open a PyTorch profiler trace for its CPU ops)" };
    }
    // Ranks first in rank order, then the others by pid: the order a person reads a job in. Files
    // of one pid (a program that replaced itself with exec) in the order they were created: the
    // collector names them "...<pid>.gapscope", then "...<pid>-1.gapscope", "-2", ...
    const auto key = [](const Loaded& l) {
        const auto& p = l.capture.info.processes;
        const int rank = !p.empty() && p.front().rank ? *p.front().rank : INT32_MAX;
        const std::int64_t pid = p.empty() ? 0 : p.front().pid;
        return std::make_tuple(rank, pid, nameSuffix(l.file, pid), l.file);
    };
    std::sort(loaded.begin(), loaded.end(), [&](const Loaded& a, const Loaded& b) { return key(a) < key(b); });

    GatheredRecording result;
    TraceBuilder merged;
    summary.clock = loaded.front().capture.info.clock;
    for (Loaded& l : loaded) {
        const NativeFileInfo& info = l.capture.info;
        std::vector<std::uint64_t> eventsOfProcess(l.capture.trace.processes().size());
        // Lanes come sorted by start only once finished: sort a copy of each lane's overhead.
        for (const Lane& lane : l.capture.trace.lanes()) {
            eventsOfProcess[lane.process.value] += lane.events.size();
            EventVector overhead;
            for (const Event& e : lane.events) {
                ++summary.eventsByKind[static_cast<std::size_t>(e.kind)];
                if (e.kind == EventKind::Overhead)
                    overhead.push_back(e);
            }
            std::sort(
                overhead.begin(), overhead.end(), [](const Event& a, const Event& b) { return a.start < b.start; });
            summary.collectorOverheadNs += overheadCovered(overhead, summary.overheadEvents);
        }
        for (const NativeProcessInfo& p : info.processes) {
            RecordedProcess recorded;
            recorded.pid = p.pid;
            recorded.rank = p.rank;
            recorded.name = l.capture.trace.processes()[p.process.value].name;
            recorded.commandLine = p.commandLine;
            recorded.file = l.file;
            recorded.events = eventsOfProcess[p.process.value];
            recorded.cuptiActive = p.cuptiActive;
            recorded.cuptiDetail = p.cuptiDetail;
            recorded.collectorErrors = p.collectorErrors;
            recorded.collectorNotes = p.collectorNotes;
            recorded.closedCleanly = info.closedCleanly;
            summary.processes.push_back(std::move(recorded));
        }
        summary.droppedRecords += l.capture.trace.droppedRecords();
        summary.skippedRecords += l.capture.trace.skippedEvents();
        merged.append(std::move(l.capture.trace));
    }
    result.trace = std::move(merged).finish();
    if (const auto span = result.trace.timeSpan())
        summary.spanNs = span->second - span->first;

    const bool anyCuda = std::any_of(summary.processes.begin(), summary.processes.end(),
        [](const RecordedProcess& p) { return p.cuptiActive.value_or(false); });
    const bool anyTried = std::any_of(summary.processes.begin(), summary.processes.end(),
        [](const RecordedProcess& p) { return p.cuptiActive.has_value(); });
    if (!anyCuda) {
        if (!driverPresent)
            summary.notes.push_back(
                "No NVIDIA driver was found on this machine: only NVTX and CPU ranges were recorded.");
        else if (!anyTried)
            summary.notes.push_back("The program never initialised CUDA, so the CUDA driver never loaded the "
                                    "collector: only NVTX and CPU ranges were recorded.");
        else
            summary.notes.push_back("CUPTI could not record CUDA activity (see the collector errors): only NVTX and "
                                    "CPU ranges were recorded.");
    }
    // A process entry followed by another of the same pid is a program image that exec() replaced.
    const auto replacedByExec = [&summary](const RecordedProcess& p) {
        const auto self = std::find_if(
            summary.processes.begin(), summary.processes.end(), [&p](const RecordedProcess& q) { return &q == &p; });
        return std::any_of(
            std::next(self), summary.processes.end(), [&p](const RecordedProcess& q) { return q.pid == p.pid; });
    };
    for (const RecordedProcess& p : summary.processes) {
        const bool writeFailed = std::any_of(p.collectorErrors.begin(), p.collectorErrors.end(),
            [](const std::string& e) { return e.starts_with("writing the capture file failed"); });
        if (writeFailed) {
            summary.notes.push_back("The collector of process " + std::to_string(p.pid)
                + " could not write its capture file any more (the disk filled or a file size limit was reached): it "
                  "stopped recording there and the program went on; the trace ends at that point.");
        } else if (!p.closedCleanly && replacedByExec(p)) {
            summary.notes.push_back("Process " + std::to_string(p.pid)
                + " replaced its program with exec() (no fork): the file of the program before it ends at its last "
                  "flush, and the new program has a file of its own.");
        } else if (!p.closedCleanly) {
            const std::string how
                = p.pid == programPid && programExit ? programExit->describe() : "ended (crash, abort, kill or _exit)";
            summary.notes.push_back("Process " + std::to_string(p.pid) + (p.pid == programPid ? " (the program) " : " ")
                + how
                + " before the collector closed its file: the trace holds what was flushed until then; what "
                  "came after its last flush is missing.");
        }
    }
    if (summary.droppedRecords > 0) {
        summary.notes.push_back("CUPTI dropped " + std::to_string(summary.droppedRecords)
            + " activity records for lack of buffer space: the GPU timeline has holes.");
    }
    result.summary = std::move(summary);
    return result;
}

std::string formatSummary(const RecordingSummary& summary, const ProgramExit& exit, double wallSeconds)
{
    std::string out;
    char line[512];
    std::snprintf(line, sizeof(line), "The program %s after %.2f s.\n", exit.describe().c_str(), wallSeconds);
    out += line;
    out += "Processes: " + std::to_string(summary.processes.size()) + "\n";
    for (const RecordedProcess& p : summary.processes) {
        std::snprintf(line, sizeof(line), "  pid %lld%s  %-24s %10llu records  CUDA: %s\n",
            static_cast<long long>(p.pid), p.rank ? (" rank " + std::to_string(*p.rank)).c_str() : "", p.name.c_str(),
            static_cast<unsigned long long>(p.events),
            !p.cuptiActive       ? "not initialised"
                : *p.cuptiActive ? "recorded"
                                 : "failed");
        out += line;
        if (!p.cuptiDetail.empty())
            out += "    CUPTI: " + p.cuptiDetail + "\n";
        for (const std::string& error : p.collectorErrors)
            out += "    collector error: " + error + "\n";
        for (const std::string& note : p.collectorNotes)
            out += "    collector note: " + note + "\n";
    }
    out += "Records by kind:";
    std::uint64_t total = 0;
    for (int k = 0; k < kEventKindCount; ++k) {
        const std::uint64_t n = summary.eventsByKind[static_cast<std::size_t>(k)];
        total += n;
        if (n > 0)
            out += " " + std::string(eventKindName(static_cast<EventKind>(k))) + " " + std::to_string(n) + ",";
    }
    if (out.back() == ',')
        out.pop_back();
    out += total == 0 ? " none\n" : " (total " + std::to_string(total) + ")\n";
    out += "Dropped records: " + std::to_string(summary.droppedRecords);
    if (summary.skippedRecords > 0)
        out += "; skipped records (no timestamps): " + std::to_string(summary.skippedRecords);
    out += "\n";
    // Overhead records are time spent on the program's threads and the collector's own, against the
    // time the program ran: the share of its wall time the recording cost, at most.
    const double overheadMs = static_cast<double>(summary.collectorOverheadNs) / 1e6;
    const double percent = wallSeconds > 0 ? overheadMs / 1e3 / wallSeconds * 100.0 : 0.0;
    std::snprintf(line, sizeof(line),
        "Collector overhead: %.3f ms in %llu overhead records (%.2f %% of the %.2f s the program ran), "
        "on the lane \"%s\"\n",
        overheadMs, static_cast<unsigned long long>(summary.overheadEvents), percent, wallSeconds,
        native::kCollectorLaneName);
    out += line;
    for (const std::string& file : summary.unreadableFiles)
        out += "Unreadable capture file: " + file + "\n";
    for (const std::string& note : summary.notes)
        out += "Note: " + note + "\n";
    return out;
}

} // namespace gapscope::capture
