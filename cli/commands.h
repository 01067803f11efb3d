// SPDX-License-Identifier: MIT
#pragma once

#include "cli/argument_parser.h"

#include <ostream>
#include <string>
#include <vector>

namespace gapscope::cli {

/// Each command takes its arguments (without the subcommand name), writes results to `out`
/// and problems to `err`, and returns the process exit code.
int runReport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// `diff BASE NEW` or `diff BASE... -- NEW...`: compares runs and gives a verdict on step time (diff_options.h).
/// Exit 0, 1 when a run cannot be read, 2 for bad options, 3 when --fail-if-slower trips.
int runDiff(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runConvert(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// `export TRACE --markdown OUT | --png OUT`: the annotations' report or picture (export_options.h).
int runExport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// `record [-o OUT] [--kinds LIST] [--delay S] [--duration S] [--] PROGRAM [ARGS...]`: runs a program
/// under the collector and writes its native trace; returns the program's exit status.
int runRecord(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// `summarize [analysis options] TRACE... -o OUT.summary.json`: one compact summary per rank (core/summary/).
int runSummarize(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// `job [--json] [-o DIR] [--threads N] [--mpi] TRACES...|DIR`: the ranks' summaries matched into a job report
/// (job_pipeline.h).
int runJob(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// Each command's help, made from the declarations its parser reads with (argument_parser.h).
CommandHelp reportHelp();
CommandHelp diffHelp();
CommandHelp summarizeHelp();
CommandHelp jobHelp();
CommandHelp convertHelp();
CommandHelp exportHelp();
CommandHelp recordHelp();
CommandHelp criticalPathHelp();
CommandHelp whatIfHelp();

/// `critical-path TRACE [--step N | --window T0:T1] [--json]`: the critical path of a step (docs/critical-path.md).
int runCriticalPath(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// `whatif TRACE --scale 'REGEX=F'... [--step N | --window T0:T1] [--json]`: predicted against measured step time.
int runWhatIf(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace gapscope::cli
