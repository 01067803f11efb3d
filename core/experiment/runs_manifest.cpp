// SPDX-License-Identifier: MIT
#include "core/experiment/runs_manifest.h"

#include "core/io/common/atomic_file.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace gapscope {

using nlohmann::json;

namespace {

/// The kinds names that mean CUPTI (capture/launcher/record_kinds.h; `all` holds them).
constexpr std::string_view kCudaKindNames[]
    = { "all", "cuda", "kernel", "memcpy", "memset", "sync", "runtime", "driver", "overhead" };

json runToJson(const ManifestRun& run)
{
    json j = json::object();
    j["file"] = run.file;
    j["start_time"] = run.startTime;
    j["start_ns"] = run.startNs;
    j["exit_code"] = run.exitCode ? json(*run.exitCode) : json(nullptr);
    j["signal"] = run.signal ? json(*run.signal) : json(nullptr);
    j["wall_s"] = run.wallSeconds;
    j["failed"] = run.failed;
    j["failure"] = run.failure;
    return j;
}

} // namespace

bool RunsManifest::nvtxOnly() const
{
    std::stringstream list(kinds);
    std::string name;
    while (std::getline(list, name, ',')) {
        for (std::string_view cuda : kCudaKindNames) {
            if (name == cuda)
                return false;
        }
    }
    return true;
}

std::vector<std::string> RunsManifest::goodRunFiles() const
{
    std::vector<std::string> files;
    for (const ManifestRun& run : runs) {
        if (!run.failed && !run.file.empty())
            files.push_back(run.file);
    }
    return files;
}

std::string runsManifestToJson(const RunsManifest& manifest)
{
    json j = json::object();
    j["gapscope_runs_version"] = manifest.version;
    j["program"] = manifest.program;
    j["arguments"] = manifest.arguments;
    json environment = json::array();
    for (const auto& [name, value] : manifest.environmentChanges)
        environment.push_back({ { "name", name }, { "value", value ? json(*value) : json(nullptr) } });
    j["environment_changes"] = std::move(environment);
    j["kinds"] = manifest.kinds;
    json runs = json::array();
    for (const ManifestRun& run : manifest.runs)
        runs.push_back(runToJson(run));
    j["runs"] = std::move(runs);
    return j.dump(2) + "\n";
}

IoResult<RunsManifest> parseRunsManifest(std::string_view text, const std::string& file)
{
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return IoError { file, std::nullopt, "not a JSON object: not a runs manifest" };
    const auto problem = [&](const std::string& what) {
        return IoError { file, std::nullopt, "runs manifest: " + what };
    };
    if (!j.contains("gapscope_runs_version") || !j["gapscope_runs_version"].is_number_integer())
        return problem("no gapscope_runs_version");
    RunsManifest m;
    m.version = j["gapscope_runs_version"].get<int>();
    if (m.version > kRunsManifestVersion)
        return problem("version " + std::to_string(m.version) + " is newer than this GapScope reads ("
            + std::to_string(kRunsManifestVersion) + ")");
    try {
        m.program = j.value("program", std::string());
        m.arguments = j.value("arguments", std::vector<std::string>());
        for (const json& change : j.value("environment_changes", json::array())) {
            const json& value = change.at("value");
            m.environmentChanges.emplace_back(change.at("name").get<std::string>(),
                value.is_null() ? std::nullopt : std::optional<std::string>(value.get<std::string>()));
        }
        m.kinds = j.value("kinds", std::string("all"));
        if (!j.contains("runs") || !j["runs"].is_array())
            return problem("no runs array");
        for (const json& r : j["runs"]) {
            ManifestRun run;
            run.file = r.value("file", std::string());
            run.startTime = r.value("start_time", std::string());
            run.startNs = r.value("start_ns", std::int64_t { 0 });
            if (r.contains("exit_code") && !r["exit_code"].is_null())
                run.exitCode = r["exit_code"].get<int>();
            if (r.contains("signal") && !r["signal"].is_null())
                run.signal = r["signal"].get<int>();
            run.wallSeconds = r.value("wall_s", 0.0);
            run.failed = r.value("failed", false);
            run.failure = r.value("failure", std::string());
            m.runs.push_back(std::move(run));
        }
    } catch (const json::exception& error) {
        return problem(std::string("a value of the wrong type: ") + error.what());
    }
    return m;
}

IoResult<void> writeRunsManifest(const std::string& folder, const RunsManifest& manifest)
{
    const std::string path = (std::filesystem::path(folder) / kRunsManifestName).string();
    auto file = AtomicFile::create(path);
    if (!file)
        return file.error();
    file.value().stream() << runsManifestToJson(manifest);
    return file.value().commit();
}

IoResult<std::optional<RunsManifest>> readRunsManifest(const std::string& folder)
{
    const std::string path = (std::filesystem::path(folder) / kRunsManifestName).string();
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        return std::optional<RunsManifest> {};
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return IoError { path, std::nullopt, "cannot open the runs manifest" };
    std::stringstream text;
    text << in.rdbuf();
    auto parsed = parseRunsManifest(text.str(), path);
    if (!parsed)
        return parsed.error();
    return std::optional<RunsManifest>(std::move(parsed.value()));
}

} // namespace gapscope
