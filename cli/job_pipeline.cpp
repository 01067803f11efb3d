// SPDX-License-Identifier: MIT
#include "cli/job_pipeline.h"

#include "cli/commands.h"
#include "cli/job_report.h"
#include "cli/report_options.h"
#include "core/io/common/atomic_file.h"
#include "core/parallel_for.h"
#include "core/summary/summary_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <sstream>

namespace gapscope::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::optional<long long> parseCount(const std::string& text)
{
    long long value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size() || value < 0)
        return std::nullopt;
    return value;
}

bool isTraceFileName(const std::string& name)
{
    if (name.ends_with(".gapscope.json") || isSummaryFile(name) || name == "job.json")
        return false;
    return name.ends_with(".json") || name.ends_with(".json.gz") || name.ends_with(".gapscope");
}

/// The summary file name of a rank in the output folder: rank-00003.summary.json (or the trace's file name).
std::string summaryFileName(const RankSummary& s)
{
    if (s.rank) {
        char name[64];
        std::snprintf(name, sizeof name, "rank-%05d", *s.rank);
        return name + std::string(kSummaryFileExtension);
    }
    return fs::path(s.source).filename().string() + "-pid" + std::to_string(s.pid) + std::string(kSummaryFileExtension);
}

ArgumentSpec jobArguments(JobOptions& options)
{
    ArgumentSpec spec("job", "the ranks of a job summarized on a thread pool (or MPI) and matched into a job report");
    spec.analysisOptions(options.analysis);
    spec.flag("--json", "the job report as JSON instead of text", [&] { options.json = true; });
    spec.flag("--mpi", "summarize the ranks across MPI processes (mpirun -n N gapscope job --mpi ...)",
        [&] { options.mpi = true; });
    spec.value("-o DIR",
        "write the ranks' summaries (rank-00003.summary.json ...) and the report files into DIR (for report and diff)",
        [&](const std::string& folder) -> ArgumentCheck {
            options.outputDir = folder;
            return std::nullopt;
        });
    spec.count("--threads N", "threads summarizing the files (default: as many as the machine runs at once)",
        [&](std::size_t n) { options.threads = static_cast<unsigned>(n); });
    spec.count(
        "--top N", "collectives listed in the text report (default 10)", [&](std::size_t n) { options.top = n; });
    spec.positional("TRACES...|DIR",
        "the ranks' traces, or folders searched for them (or for their .summary.json files)",
        [&](const std::string& input) { options.inputs.push_back(input); });
    return spec;
}

} // namespace

ParseResult<JobOptions> parseJobOptions(const std::vector<std::string>& args)
{
    JobOptions options;
    ArgumentSpec spec = jobArguments(options);
    if (ArgumentCheck problem = spec.parse(args))
        return *problem;
    if (options.inputs.empty())
        return UsageError { "no trace or folder given" };
    return options;
}

CommandHelp jobHelp()
{
    JobOptions options;
    return jobArguments(options).help();
}

ParseResult<std::vector<std::string>> jobFiles(const std::vector<std::string>& inputs)
{
    std::vector<std::string> files;
    for (const std::string& input : inputs) {
        std::error_code ec;
        if (!fs::is_directory(input, ec)) {
            if (!fs::exists(input, ec))
                return UsageError { input + ": no such file or folder" };
            files.push_back(input);
            continue;
        }
        std::vector<std::string> traces;
        std::vector<std::string> summaries;
        for (auto it = fs::recursive_directory_iterator(input, ec); !ec && it != fs::recursive_directory_iterator();
             it.increment(ec)) {
            if (!it->is_regular_file(ec))
                continue;
            const std::string name = it->path().filename().string();
            if (isTraceFileName(name))
                traces.push_back(it->path().string());
            else if (isSummaryFile(name))
                summaries.push_back(it->path().string());
        }
        if (ec)
            return UsageError { input + ": " + ec.message() };
        std::vector<std::string>& found = traces.empty() ? summaries : traces;
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
    }
    if (files.empty())
        return UsageError { "no trace files found" };
    return files;
}

JobEntry summarizeJobFile(const std::string& path, const AnalysisOptions& analysis)
{
    const auto summaries = isSummaryFile(path) ? readSummaryFile(path) : summarizeTraceFile(path, analysis);
    if (!summaries)
        return { path, summaries.error().toString(), {} };
    return { path, {}, summariesToJson(summaries.value()) };
}

std::vector<JobEntry> summarizeOnThreads(
    const std::vector<std::string>& files, const AnalysisOptions& analysis, unsigned threads)
{
    std::vector<JobEntry> entries(files.size());
    parallelFor(files.size(), threadsOrCores(threads),
        [&](std::size_t i) { entries[i] = summarizeJobFile(files[i], analysis); });
    return entries;
}

namespace {

void packField(std::string_view field, std::string& bytes)
{
    const std::uint64_t size = field.size();
    bytes.append(reinterpret_cast<const char*>(&size), sizeof size);
    bytes.append(field);
}

bool unpackField(std::string_view& bytes, std::string_view& field)
{
    std::uint64_t size = 0;
    if (bytes.size() < sizeof size)
        return false;
    std::memcpy(&size, bytes.data(), sizeof size);
    bytes.remove_prefix(sizeof size);
    if (bytes.size() < size)
        return false;
    field = bytes.substr(0, size);
    bytes.remove_prefix(size);
    return true;
}

} // namespace

void packJobEntry(std::size_t index, const JobEntry& entry, std::string& bytes)
{
    packField(std::to_string(index), bytes);
    packField(entry.file, bytes);
    packField(entry.error, bytes);
    packField(entry.summaryJson, bytes);
}

bool unpackJobEntries(std::string_view bytes, std::vector<JobEntry>& entries)
{
    while (!bytes.empty()) {
        std::string_view index, file, error, summary;
        if (!unpackField(bytes, index) || !unpackField(bytes, file) || !unpackField(bytes, error)
            || !unpackField(bytes, summary))
            return false;
        const auto i = parseCount(std::string(index));
        if (!i || static_cast<std::size_t>(*i) >= entries.size())
            return false;
        entries[static_cast<std::size_t>(*i)] = { std::string(file), std::string(error), std::string(summary) };
    }
    return true;
}

int writeJobReport(std::vector<JobEntry> entries, const JobOptions& options, std::ostream& out, std::ostream& err)
{
    std::vector<RankSummary> summaries;
    std::vector<std::string> errors;
    for (JobEntry& entry : entries) {
        if (!entry.error.empty()) {
            errors.push_back(entry.error);
            continue;
        }
        auto read = summariesFromJson(entry.summaryJson, entry.file);
        std::string().swap(entry.summaryJson);
        if (!read) {
            errors.push_back(read.error().toString());
            continue;
        }
        for (RankSummary& s : read.value())
            summaries.push_back(std::move(s));
    }
    for (const std::string& e : errors)
        err << "gapscope job: " << e << "\n";
    sortByRank(summaries);
    const JobAnalysis job = analyzeSummaries(summaries);

    std::ostringstream text;
    text << "GapScope job report: window " << windowKindName(options.analysis.window.kind) << ", activity "
         << activitySetName(options.analysis.activity) << ", " << summaries.size() << " rank summar"
         << (summaries.size() == 1 ? "y" : "ies") << " from " << entries.size() << " file"
         << (entries.size() == 1 ? "" : "s") << "\n";
    for (const std::string& e : errors)
        text << "  ! unreadable: " << e << "\n";
    writeJobText(summaries, job, options.top, text);

    json doc { { "window", windowKindName(options.analysis.window.kind) },
        { "activity", activitySetName(options.analysis.activity) }, { "files", entries.size() }, { "errors", errors },
        { "job", jobToJson(summaries, job) } };
    out << (options.json ? doc.dump(2) + "\n" : text.str());

    if (options.outputDir) {
        std::error_code ec;
        fs::create_directories(*options.outputDir, ec);
        if (ec) {
            err << "gapscope job: " << *options.outputDir << ": " << ec.message() << "\n";
            return 1;
        }
        const auto write = [&](const std::string& name, const std::string& content) {
            const auto written = writeFileAtomically((fs::path(*options.outputDir) / name).string(), content);
            if (!written)
                err << "gapscope job: " << written.error().toString() << "\n";
            return written.ok();
        };
        bool ok = write("job.txt", text.str()) && write("job.json", doc.dump(2) + "\n");
        for (const RankSummary& s : summaries)
            ok = write(summaryFileName(s), summariesToJson({ s }) + "\n") && ok;
        if (!ok)
            return 1;
    }
    return errors.empty() ? 0 : 1;
}

} // namespace gapscope::cli
