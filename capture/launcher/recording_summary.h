// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/common/io_error.h"
#include "core/io/native/native_format.h"
#include "core/model/trace.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gapscope::capture {

/// How the program ended.
struct ProgramExit {
    std::optional<int> exitCode; // it called exit()
    std::optional<int> signal; // a signal ended it
    /// The shell's convention: the exit code, or 128 + the signal.
    int status() const { return exitCode ? *exitCode : signal ? 128 + *signal : 1; }
    std::string describe() const;
};

struct RecordedProcess {
    std::int64_t pid = 0;
    std::optional<int> rank;
    std::string name;
    std::string commandLine;
    std::string file;
    std::uint64_t events = 0;
    /// nullopt: CUDA never loaded the collector in this process (no driver, or no CUDA use).
    std::optional<bool> cuptiActive;
    std::string cuptiDetail;
    std::vector<std::string> collectorErrors;
    /// What the collector said without it being an error (a clock other than CLOCK_REALTIME, a
    /// signal it flushed for, another CUPTI client that took its buffers).
    std::vector<std::string> collectorNotes;
    /// False when the process crashed or was killed before the collector closed its file.
    bool closedCleanly = false;
};

/// What `gapscope record` says when the program ends.
struct RecordingSummary {
    std::vector<RecordedProcess> processes;
    std::array<std::uint64_t, kEventKindCount> eventsByKind {};
    std::uint64_t droppedRecords = 0;
    std::uint64_t skippedRecords = 0;
    /// Time covered by the Overhead events (the collector's flushes and CUPTI's own overhead
    /// records), each instant counted once: CUPTI's buffer flush inside the collector's flush is
    /// not counted twice. The program's own costs CUPTI reports (JIT, module loading) are not in it.
    TimeNs collectorOverheadNs = 0;
    std::uint64_t overheadEvents = 0;
    /// First to last event of the recording.
    TimeNs spanNs = 0;
    /// "only NVTX and CPU ranges were recorded" and the like.
    std::vector<std::string> notes;
    /// Per-process files that could not be read at all.
    std::vector<std::string> unreadableFiles;
    /// The clock of the recording's timestamps.
    native::ClockId clock = native::ClockId::Unknown;
};

/// A whole recording: every per-process file of the run in one finished trace.
struct GatheredRecording {
    Trace trace;
    RecordingSummary summary;
};

/// Reads every native file in `directory` (one per process of the run), appends them into one
/// trace ordered by rank then pid, and summarizes it. `driverPresent` decides the note given when
/// no process recorded CUDA activity. `programPid` and `programExit` (when known) let the note about
/// a file that was not closed say how the program ended. Fails only when there is no readable file.
IoResult<GatheredRecording> gatherRecording(const std::string& directory, bool driverPresent,
    std::int64_t programPid = 0, const std::optional<ProgramExit>& programExit = std::nullopt);

/// The summary as the command line prints it: processes, records by kind, dropped records, the
/// collector's own overhead, notes, and the program's exit.
std::string formatSummary(const RecordingSummary& summary, const ProgramExit& exit, double wallSeconds);

} // namespace gapscope::capture
