// SPDX-License-Identifier: MIT
#include "cli/command_usage.h"

#include <array>
#include <cstdlib>

namespace gapscope::cli {

namespace {

constexpr std::array kCommands {
    CommandUsage { "report", "the figures of one run: utilization, idle gaps with causes, steps, kernels",
        "gapscope report [--json] [--window gpu|trace|steps|T0:T1] [--warmup N]\n"
        "                [--activity all|kernels] [--launch-threshold-us N] [--top N]\n"
        "                [--step-pattern REGEX] [--gpu-only] [--load-range T0:T1] [--metric NAME=SPEC]... TRACE...\n"
        "gapscope report [--json] [--top N] RANK.summary.json...   (from `gapscope summarize` files)\n",
        "" },
    CommandUsage { "diff", "compares two runs (or several per side) and gives a verdict on step time",
        "gapscope diff [--json] [--window gpu|trace|steps|T0:T1] [--warmup N] [--activity all|kernels]\n"
        "              [--launch-threshold-us N] [--step-pattern REGEX] [--top N]\n"
        "              [--fail-if-slower PCT] [--note ID [--accept]] BASE NEW\n"
        "gapscope diff [OPTIONS] BASE... -- NEW...     (several runs per side)\n"
        "gapscope diff [--json] [--top N] BASE.summary.json... -- NEW.summary.json...\n"
        "gapscope diff [OPTIONS] [--metric NAME=SPEC]... [--timing-from DIR [--timing-from DIR]] BASE_DIR NEW_DIR\n",
        "A run is a trace file, a folder holding the per-rank files of one job, or the job's summaries: a\n"
        ".summary.json (gapscope summarize) or a folder of them (gapscope job -o DIR); summaries compare with\n"
        "summaries only, measured as they were summarized. A folder written by `gapscope record --runs N`\n"
        "holds N runs: its manifest gapscope-runs.json tells them apart (a folder without one is one run, its\n"
        "files the ranks of one job); failed runs are left out. --note ID measures the note ID of BASE's\n"
        "sidecar against NEW; --accept also sets its proposed status.\n"
        "  --metric NAME=SPEC  also judge this metric, on p50 and p95 (repeatable); SPEC: range:REGEX\n"
        "                    (durations of matching CPU/NVTX ranges), interval:REGEX (one match's start to\n"
        "                    the next on the same thread), first:REGEX (window start to the end of the first\n"
        "                    match), gpu:REGEX (kernel time per step), step. A metric that moved against the\n"
        "                    first one that moved is listed as a side effect.\n"
        "  --timing-from DIR  take the timings (verdict, metrics) from these runs, BASE's then NEW's (e.g. NVTX-\n"
        "                    only runs); kernels and gaps still come from BASE and NEW. NVTX-only runs against\n"
        "                    CUPTI runs print the profiler's overhead instead of a verdict.\n" },
    CommandUsage { "summarize", "one compact summary per rank, for `job`",
        "gapscope summarize [--window gpu|trace|steps|T0:T1] [--warmup N]\n"
        "                   [--activity all|kernels] [--launch-threshold-us N]\n"
        "                   [--step-pattern REGEX] [--metric NAME=SPEC]... TRACE... -o OUT.summary.json\n",
        "" },
    CommandUsage { "job", "the ranks of a job summarized on a thread pool (or MPI) and matched into a job report",
        "gapscope job [--json] [-o DIR] [--threads N] [--top N] [--mpi]\n"
        "             [--window gpu|trace|steps|T0:T1] [--warmup N] [--activity all|kernels]\n"
        "             [--launch-threshold-us N] [--step-pattern REGEX] TRACES...|DIR\n",
        "" },
    CommandUsage { "critical-path", "the critical path of a step: its time by category and name, and the slack off it",
        "gapscope critical-path [--json] [--step N | --window T0:T1] [--warmup N] [--step-pattern REGEX]\n"
        "                       [--top N] TRACE\n",
        "  Without --step or --window: the median step (or, without steps, the GPU window).\n"
        "  --step N names the step ...#N (ProfilerStep#N). See docs/critical-path.md.\n" },
    CommandUsage { "whatif", "the step times the graph predicts if ops took longer or shorter, or waits were gone",
        "gapscope whatif --scale 'REGEX=F'... [--drop-sync N] [--launch-delay-max-us N] [--json]\n"
        "                [--step N | --window T0:T1] [--warmup N] [--step-pattern REGEX] [--note ID] TRACE\n",
        "  --scale 'REGEX=F'        ops (GPU ops, CPU ranges with all inside them) whose name matches take F times\n"
        "                           as long; several rules multiply\n"
        "  --drop-sync N            the N-th host wait for the GPU of each window (0-based) is gone; repeatable\n"
        "  --launch-delay-max-us N  launch delays above N µs are cut to N\n"
        "  --note ID                write the prediction into note ID of TRACE's sidecar (diff --note checks it)\n"
        "  Without --step or --window: every counted step, and their p50.\n" },
    CommandUsage { "convert", "any trace GapScope reads to Chrome trace-event JSON", "gapscope convert IN OUT\n",
        "  IN:  a trace GapScope reads (.json, .json.gz, .gapscope, an Nsight Systems .sqlite export or\n"
        "       .nsys-rep report)\n"
        "  OUT: .json or .json.gz (Chrome trace-event JSON in the Kineto dialect)\n" },
    CommandUsage { "record", "runs a CUDA program under the collector and writes its trace",
        "gapscope record [-o OUT] [--kinds LIST] [--delay S] [--duration S] [--] PROGRAM [ARGS...]\n"
        "gapscope record --runs N -o DIR [--kinds LIST] [--] PROGRAM [ARGS...]   (N runs, one folder)\n",
        "  -o, --output OUT  the recording (default gapscope-YYYYmmdd-HHMMSS.gapscope in the current folder)\n"
        "  --kinds LIST      what to record, comma-separated: kernel, memcpy, memset, sync, runtime, driver,\n"
        "                    nvtx, overhead, or the groups cuda and all (default all)\n"
        "  --delay S         start recording S seconds after the program starts\n"
        "  --duration S      record for S seconds, then stop the program (SIGINT)\n"
        "  --runs N          run PROGRAM N times, one after the other, with the same environment: DIR gets\n"
        "                    run-1.gapscope ... run-N.gapscope and gapscope-runs.json (program, arguments,\n"
        "                    environment changes, kinds, and each run's start, exit and wall time); a run\n"
        "                    that fails is named there and left out by diff. --kinds nvtx: the low-overhead\n"
        "                    runs (no CUPTI) that measure the profiler's cost (docs/experiments.md)\n"
        "PROGRAM runs with your environment plus the collector's; every process it starts is recorded\n"
        "too. Ctrl-C stops it (again: SIGTERM, a third time: SIGKILL). Exits with the program's status.\n" },
    CommandUsage { "export", "the notes of a trace as a Markdown report, or its annotated picture",
        "gapscope export TRACE [--markdown OUT] [--png OUT] [--window gpu|trace|steps|T0:T1]\n"
        "                [--size WxH] [--warmup N] [--activity all|kernels] [--launch-threshold-us N]\n"
        "                [--step-pattern REGEX]\n",
        "  Annotations come from TRACE.gapscope.json (made in the viewer); OUT '-' is stdout.\n"
        "  --png OUT ending in .pdf writes the picture as a PDF page instead.\n" },
};

} // namespace

std::span<const CommandUsage> commandUsages()
{
    return kCommands;
}

const CommandUsage& commandUsage(std::string_view name)
{
    for (const CommandUsage& command : kCommands) {
        if (command.name == name)
            return command;
    }
    std::abort(); // a command without a usage is a programming error
}

std::string usageText(std::string_view name)
{
    // The forms' lines after the first shift past "usage: ", so that they stay aligned under the first.
    const CommandUsage& command = commandUsage(name);
    std::string text = "usage: ";
    for (std::size_t begin = 0; begin < command.forms.size();) {
        const std::size_t end = command.forms.find('\n', begin);
        if (begin > 0)
            text += "       ";
        text += command.forms.substr(begin, end - begin + 1);
        begin = end + 1;
    }
    text += command.details;
    return text;
}

} // namespace gapscope::cli
