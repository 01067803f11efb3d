// SPDX-License-Identifier: MIT
#include "capture/launcher/run_series.h"

#include "capture/launcher/record_kinds.h"
#include "core/io/native/native_format.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>

extern char** environ;

namespace gapscope::capture {

namespace {

/// "2026-12-03T15:04:05.123Z" and the same instant in ns since the epoch (CLOCK_REALTIME).
std::pair<std::string, std::int64_t> utcNow()
{
    const auto now = std::chrono::system_clock::now();
    const std::int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count();
    const std::time_t seconds = static_cast<std::time_t>(ns / 1'000'000'000);
    std::tm utc {};
    gmtime_r(&seconds, &utc);
    char text[64];
    const std::size_t used = std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%S", &utc);
    std::snprintf(text + used, sizeof(text) - used, ".%03dZ", static_cast<int>(ns / 1'000'000 % 1000));
    return { text, ns };
}

} // namespace

RunsManifest seriesManifest(const RecordOptions& options)
{
    RunsManifest manifest;
    manifest.program = options.program;
    manifest.arguments = options.arguments;
    manifest.kinds = recordKindsText(options.kinds);
    return manifest;
}

ManifestRun beginSeriesRun(std::size_t k)
{
    ManifestRun run;
    run.file = "run-" + std::to_string(k) + std::string(native::kFileExtension);
    std::tie(run.startTime, run.startNs) = utcNow();
    return run;
}

void endSeriesRun(
    ManifestRun& run, const std::optional<ProgramExit>& exit, double wallSeconds, const std::string& problem)
{
    if (exit) {
        run.exitCode = exit->exitCode;
        run.signal = exit->signal;
    }
    run.wallSeconds = wallSeconds;
    if (!problem.empty()) {
        run.failed = true;
        run.failure = problem;
        if (!exit)
            run.file.clear(); // nothing ran or nothing was gathered: no trace was written
    } else if (exit && exit->status() != 0) {
        run.failed = true;
        run.failure = exit->describe();
    }
}

std::vector<std::pair<std::string, std::optional<std::string>>> environmentChanges(
    const std::vector<std::string>& programEnvironment)
{
    std::map<std::string, std::string> own;
    for (char** entry = environ; entry && *entry; ++entry) {
        const std::string text = *entry;
        const auto equals = text.find('=');
        if (equals != std::string::npos)
            own[text.substr(0, equals)] = text.substr(equals + 1);
    }
    std::vector<std::pair<std::string, std::optional<std::string>>> changes;
    std::map<std::string, bool> seen;
    for (const std::string& text : programEnvironment) {
        const auto equals = text.find('=');
        if (equals == std::string::npos)
            continue;
        const std::string name = text.substr(0, equals);
        seen[name] = true;
        const auto found = own.find(name);
        if (found == own.end() || found->second != text.substr(equals + 1))
            changes.emplace_back(name, text.substr(equals + 1));
    }
    for (const auto& [name, value] : own) {
        if (!seen.count(name))
            changes.emplace_back(name, std::nullopt);
    }
    return changes;
}

std::string seriesSummaryLine(const RunsManifest& manifest, std::size_t requested, const std::string& folder)
{
    std::string line = "Recorded " + std::to_string(manifest.runs.size()) + " of " + std::to_string(requested)
        + " runs into " + folder + " (manifest " + std::string(kRunsManifestName) + ")";
    std::vector<std::string> failures;
    for (std::size_t k = 0; k < manifest.runs.size(); ++k) {
        if (manifest.runs[k].failed)
            failures.push_back("run " + std::to_string(k + 1) + " (" + manifest.runs[k].failure + ")");
    }
    if (failures.empty())
        return line + "; compare two such folders with: gapscope diff BASE_DIR NEW_DIR";
    line += "; " + std::to_string(failures.size()) + " failed, left out of comparisons:";
    for (const std::string& f : failures)
        line += " " + f + ";";
    return line;
}

} // namespace gapscope::capture
