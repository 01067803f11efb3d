// SPDX-License-Identifier: MIT
#include "core/summary/summary_json.h"
#include "core/io/common/atomic_file.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace gapscope {

using nlohmann::json;

namespace {

json optionalInt(const std::optional<int>& value)
{
    return value ? json(*value) : json(nullptr);
}

json deviceJson(const DeviceSummary& d)
{
    json idleByCause = json::object();
    for (int c = 0; c < kGapCauseCount; ++c)
        idleByCause[std::string(gapCauseName(static_cast<GapCause>(c)))] = d.idleByCause[c];
    return json { { "id", d.id }, { "name", d.name }, { "window_start_ns", d.windowStart },
        { "window_end_ns", d.windowEnd }, { "span_ns", d.spanNs }, { "busy_ns", d.busyNs }, { "idle_ns", d.idleNs },
        { "gap_count", d.gapCount }, { "idle_by_cause_ns", idleByCause },
        { "exposed_ns",
            { { "compute", d.exposed.compute }, { "communication", d.exposed.communication },
                { "memcpy", d.exposed.memcpy }, { "idle", d.exposed.idle } } },
        { "bin_start_ns", d.binStart }, { "bin_width_ns", d.binWidthNs }, { "busy_per_bin_ns", d.busyPerBin } };
}

json collectiveJson(const CollectiveOccurrence& c)
{
    json exposed = json::array();
    for (const Interval& part : c.exposed)
        exposed.push_back({ part.start, part.end });
    return json { { "kernel", c.kernel }, { "collective", c.collective }, { "group", c.group },
        { "seq", c.seq ? json(*c.seq) : json(nullptr) }, { "device", c.device }, { "start_ns", c.start },
        { "end_ns", c.end }, { "exposed_ns", exposed } };
}

json rankJson(const RankSummary& s)
{
    json devices = json::array();
    for (const DeviceSummary& d : s.devices)
        devices.push_back(deviceJson(d));
    json collectives = json::array();
    for (const CollectiveOccurrence& c : s.collectives)
        collectives.push_back(collectiveJson(c));
    json gaps = json::array();
    for (const GapSummary& g : s.longestGaps) {
        gaps.push_back({ { "device", g.device }, { "start_ns", g.start }, { "end_ns", g.end },
            { "cause", gapCauseName(g.cause) }, { "evidence", g.evidence } });
    }
    return json { { "source", s.source }, { "pid", s.pid }, { "process_name", s.processName },
        { "rank", optionalInt(s.rank) }, { "world_size", optionalInt(s.worldSize) },
        { "window", windowKindName(s.window) }, { "activity", activitySetName(s.activity) },
        { "skipped_events", s.skippedEvents }, { "devices", devices },
        { "steps",
            { { "count", s.steps }, { "warmup", s.warmupSteps }, { "p50_ns", s.stepP50Ns },
                { "p95_ns", s.stepP95Ns } } },
        { "collectives", collectives }, { "longest_gaps", gaps } };
}

/// Reading: a missing or mistyped key throws json::exception, which summariesFromJson() reports with the file.
std::optional<int> readOptionalInt(const json& value)
{
    return value.is_null() ? std::nullopt : std::optional<int>(value.get<int>());
}

template <typename Enum, int Count, typename NameOf> Enum enumFromName(const std::string& name, NameOf nameOf)
{
    for (int i = 0; i < Count; ++i) {
        if (nameOf(static_cast<Enum>(i)) == name)
            return static_cast<Enum>(i);
    }
    throw std::invalid_argument("unknown value \"" + name + "\"");
}

DeviceSummary readDevice(const json& j)
{
    DeviceSummary d;
    d.id = j.at("id").get<int>();
    d.name = j.at("name").get<std::string>();
    d.windowStart = j.at("window_start_ns").get<TimeNs>();
    d.windowEnd = j.at("window_end_ns").get<TimeNs>();
    d.spanNs = j.at("span_ns").get<TimeNs>();
    d.busyNs = j.at("busy_ns").get<TimeNs>();
    d.idleNs = j.at("idle_ns").get<TimeNs>();
    d.gapCount = j.at("gap_count").get<std::size_t>();
    for (int c = 0; c < kGapCauseCount; ++c)
        d.idleByCause[c]
            = j.at("idle_by_cause_ns").at(std::string(gapCauseName(static_cast<GapCause>(c)))).get<TimeNs>();
    const json& exposed = j.at("exposed_ns");
    d.exposed = { exposed.at("compute").get<TimeNs>(), exposed.at("communication").get<TimeNs>(),
        exposed.at("memcpy").get<TimeNs>(), exposed.at("idle").get<TimeNs>() };
    d.binStart = j.at("bin_start_ns").get<TimeNs>();
    d.binWidthNs = j.at("bin_width_ns").get<TimeNs>();
    d.busyPerBin = j.at("busy_per_bin_ns").get<std::vector<TimeNs>>();
    return d;
}

CollectiveOccurrence readCollective(const json& j)
{
    CollectiveOccurrence c;
    c.kernel = j.at("kernel").get<std::string>();
    c.collective = j.at("collective").get<std::string>();
    c.group = j.at("group").get<std::string>();
    if (!j.at("seq").is_null())
        c.seq = j.at("seq").get<std::int64_t>();
    c.device = j.at("device").get<int>();
    c.start = j.at("start_ns").get<TimeNs>();
    c.end = j.at("end_ns").get<TimeNs>();
    for (const json& part : j.at("exposed_ns"))
        c.exposed.push_back({ part.at(0).get<TimeNs>(), part.at(1).get<TimeNs>() });
    return c;
}

RankSummary readRank(const json& j)
{
    RankSummary s;
    s.source = j.at("source").get<std::string>();
    s.pid = j.at("pid").get<std::int64_t>();
    s.processName = j.at("process_name").get<std::string>();
    s.rank = readOptionalInt(j.at("rank"));
    s.worldSize = readOptionalInt(j.at("world_size"));
    s.window = enumFromName<WindowKind, 4>(j.at("window").get<std::string>(), windowKindName);
    s.activity = enumFromName<ActivitySet, 2>(j.at("activity").get<std::string>(), activitySetName);
    s.skippedEvents = j.at("skipped_events").get<std::uint64_t>();
    for (const json& d : j.at("devices"))
        s.devices.push_back(readDevice(d));
    const json& steps = j.at("steps");
    s.steps = steps.at("count").get<std::size_t>();
    s.warmupSteps = steps.at("warmup").get<std::size_t>();
    s.stepP50Ns = steps.at("p50_ns").get<TimeNs>();
    s.stepP95Ns = steps.at("p95_ns").get<TimeNs>();
    for (const json& c : j.at("collectives"))
        s.collectives.push_back(readCollective(c));
    for (const json& g : j.at("longest_gaps")) {
        s.longestGaps.push_back(
            { g.at("device").get<int>(), g.at("start_ns").get<TimeNs>(), g.at("end_ns").get<TimeNs>(),
                enumFromName<GapCause, kGapCauseCount>(g.at("cause").get<std::string>(), gapCauseName),
                g.at("evidence").get<std::string>() });
    }
    return s;
}

} // namespace

std::string summariesToJson(const std::vector<RankSummary>& summaries, int indent)
{
    json ranks = json::array();
    for (const RankSummary& s : summaries)
        ranks.push_back(rankJson(s));
    const json doc { { "format", "gapscope-summary" }, { "version", kSummaryFormatVersion }, { "ranks", ranks } };
    return doc.dump(indent);
}

IoResult<std::vector<RankSummary>> summariesFromJson(std::string_view text, const std::string& file)
{
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        return IoError { file, e.byte > 0 ? std::optional<std::uint64_t>(e.byte - 1) : std::nullopt,
            "not a summary: invalid JSON" };
    }
    if (!doc.is_object() || doc.value("format", std::string()) != "gapscope-summary")
        return IoError { file, std::nullopt, "not a GapScope summary (no \"format\": \"gapscope-summary\")" };
    const int version = doc.value("version", 0);
    if (version > kSummaryFormatVersion)
        return IoError { file, std::nullopt,
            "summary format version " + std::to_string(version) + " was written by a newer GapScope" };
    std::vector<RankSummary> summaries;
    try {
        for (const json& rank : doc.at("ranks"))
            summaries.push_back(readRank(rank));
    } catch (const std::exception& e) {
        return IoError { file, std::nullopt,
            "rank entry " + std::to_string(summaries.size() + 1) + " of the summary: " + e.what() };
    }
    return summaries;
}

IoResult<std::vector<RankSummary>> readSummaryFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return IoError { path, std::nullopt, "cannot open the file" };
    std::ostringstream text;
    text << in.rdbuf();
    return summariesFromJson(text.str(), path);
}

IoResult<bool> writeSummaryFile(const std::string& path, const std::vector<RankSummary>& summaries)
{
    return writeFileAtomically(path, summariesToJson(summaries) + "\n");
}

bool isSummaryFile(std::string_view path)
{
    return path.ends_with(kSummaryFileExtension);
}

} // namespace gapscope
