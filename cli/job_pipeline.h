// SPDX-License-Identifier: MIT
#pragma once

// The steps of `gapscope job` that the thread-pool run and the MPI run share: which files make up the job, the
// summary of one file as text (what a worker hands back: the same bytes whether it crossed MPI or not), and the
// report of the gathered summaries. So the two runs write the same report, byte for byte.

#include "cli/argument_parser.h"
#include "core/analysis/analysis.h"

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope::cli {

struct JobOptions {
    AnalysisOptions analysis;
    bool json = false;
    bool mpi = false;
    /// Threads summarizing files (0: as many as the machine runs at once).
    unsigned threads = 0;
    /// Collectives listed in the text report.
    std::size_t top = 10;
    /// Where the summaries and the report files go (none: the report goes to stdout only).
    std::optional<std::string> outputDir;
    std::vector<std::string> inputs;
};

/// Parses `job` arguments: the options, or why they are wrong.
ParseResult<JobOptions> parseJobOptions(const std::vector<std::string>& args);

/// The files of the job: each named file, and in each named folder (recursively) its trace files (`.json`,
/// `.json.gz`, `.gapscope`; not the notes' `.gapscope.json`, not `.summary.json`), or its summaries when it holds
/// no trace; sorted within a folder. An error when an input does not exist, a folder cannot be read, or nothing is
/// found.
ParseResult<std::vector<std::string>> jobFiles(const std::vector<std::string>& inputs);

/// What a worker hands back for one file: its summary document as JSON text (summary_json.h), or why there is
/// none. Text, so that the MPI run and the thread-pool run give rank 0 the same bytes.
struct JobEntry {
    std::string file;
    std::string error;
    std::string summaryJson;
};

/// One file's entry. A summary file is read, any other is loaded, analysed and summarized.
JobEntry summarizeJobFile(const std::string& path, const AnalysisOptions& analysis);

/// The entries of `files` summarized on `threads` threads, in file order.
std::vector<JobEntry> summarizeOnThreads(
    const std::vector<std::string>& files, const AnalysisOptions& analysis, unsigned threads);

/// Entries packed into bytes for MPI (each: index, file, error, summary, as length-prefixed fields) and back.
void packJobEntry(std::size_t index, const JobEntry& entry, std::string& bytes);
/// Unpacks every entry of `bytes` into `entries` at its index; false when the bytes are cut short.
bool unpackJobEntries(std::string_view bytes, std::vector<JobEntry>& entries);

/// Reads the entries (in file order; each text is released once read), matches the job and writes the report to
/// `out` (text or JSON), and with an output folder one `.summary.json` per rank and `job.txt`/`job.json` there.
/// Returns the exit code: 1 when a file had no summary (the report covers the rest).
int writeJobReport(std::vector<JobEntry> entries, const JobOptions& options, std::ostream& out, std::ostream& err);

/// `job --mpi`: see job_mpi.cpp; without MPI at build time it says so and returns 2.
int runJobMpi(const JobOptions& options, const std::vector<std::string>& files, std::ostream& out, std::ostream& err);

} // namespace gapscope::cli
