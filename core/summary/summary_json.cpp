// SPDX-License-Identifier: MIT
#include "core/summary/summary_json.h"
#include "core/io/common/atomic_file.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <fstream>
#include <map>
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

/// The collectives as one text table: rows separated by ';', each "kernel collective group seq device start_ns
/// duration_ns [exposed...]" separated by spaces, the three names as indices into `names` (0: ""), seq "-" when
/// none, exposed as offsets from start (s0 e0 s1 e1 ...). A thousand ranks of a thousand collectives are read in a
/// fraction of the time the same as JSON arrays take (nlohmann reads about 35 MB/s of numbers here).
std::string collectivesTable(const std::vector<CollectiveOccurrence>& collectives, json& names)
{
    std::map<std::string_view, std::size_t> index { { "", 0 } };
    names = json::array({ "" });
    const auto id = [&](const std::string& name) {
        const auto [it, inserted] = index.emplace(name, index.size());
        if (inserted)
            names.push_back(name);
        return it->second;
    };
    std::string table;
    char buffer[32];
    const auto number = [&](std::int64_t value) {
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
        table.append(buffer, end);
    };
    for (const CollectiveOccurrence& c : collectives) {
        if (!table.empty())
            table += ';';
        number(static_cast<std::int64_t>(id(c.kernel)));
        table += ' ';
        number(static_cast<std::int64_t>(id(c.collective)));
        table += ' ';
        number(static_cast<std::int64_t>(id(c.group)));
        table += ' ';
        if (c.seq)
            number(*c.seq);
        else
            table += '-';
        for (const std::int64_t value : { static_cast<std::int64_t>(c.device), c.start, c.end - c.start }) {
            table += ' ';
            number(value);
        }
        for (const Interval& part : c.exposed) {
            table += ' ';
            number(part.start - c.start);
            table += ' ';
            number(part.end - c.start);
        }
    }
    return table;
}

json metricsJson(const std::vector<RankMetric>& metrics)
{
    json list = json::array();
    for (const RankMetric& m : metrics)
        list.push_back({ { "name", m.name }, { "spec", m.spec }, { "values_ns", m.valuesNs } });
    return list;
}

json rankJson(const RankSummary& s)
{
    json devices = json::array();
    for (const DeviceSummary& d : s.devices)
        devices.push_back(deviceJson(d));
    json names;
    std::string collectives = collectivesTable(s.collectives, names);
    json gaps = json::array();
    for (const RankGapSummary& g : s.longestGaps) {
        gaps.push_back({ { "device", g.device }, { "start_ns", g.start }, { "end_ns", g.end },
            { "cause", gapCauseName(g.cause) }, { "evidence", g.evidence } });
    }
    return json { { "source", s.source }, { "pid", s.pid }, { "process_name", s.processName },
        { "rank", optionalInt(s.rank) }, { "world_size", optionalInt(s.worldSize) },
        { "window", windowKindName(s.window) }, { "activity", activitySetName(s.activity) },
        { "skipped_events", s.skippedEvents }, { "devices", devices }, { "launch_threshold_ns", s.launchThresholdNs },
        { "steps",
            { { "count", s.steps }, { "warmup", s.warmupSteps }, { "p50_ns", s.stepP50Ns }, { "p95_ns", s.stepP95Ns },
                { "durations_ns", s.stepDurationsNs } } },
        { "collective_names", names }, { "collectives", collectives }, { "longest_gaps", gaps },
        { "metrics", metricsJson(s.metrics) } };
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
    // A summary file does not store the utilization: it is busy / span, as the analysis made it.
    d.utilization = utilizationOf(d.busyNs, d.spanNs);
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

void readCollectives(const json& names, const std::string& table, std::vector<CollectiveOccurrence>& out)
{
    std::vector<SharedName> strings;
    for (const json& name : names)
        strings.emplace_back(name.get<std::string>());
    const char* p = table.data();
    const char* const end = p + table.size();
    const auto number = [&](std::int64_t& value) {
        while (p < end && *p == ' ')
            ++p;
        const auto [next, ec] = std::from_chars(p, end, value);
        if (ec != std::errc())
            throw std::invalid_argument("collectives: not a number at character " + std::to_string(p - table.data()));
        p = next;
    };
    const auto name = [&]() -> const SharedName& {
        std::int64_t index = 0;
        number(index);
        if (index < 0 || static_cast<std::size_t>(index) >= strings.size())
            throw std::invalid_argument("collectives: name index " + std::to_string(index) + " out of range");
        return strings[static_cast<std::size_t>(index)];
    };
    while (p < end) {
        CollectiveOccurrence c;
        c.kernel = name();
        c.collective = name();
        c.group = name();
        while (p < end && *p == ' ')
            ++p;
        if (p < end && *p == '-') {
            ++p;
        } else {
            std::int64_t seq = 0;
            number(seq);
            c.seq = seq;
        }
        std::int64_t device = 0, duration = 0;
        number(device);
        number(c.start);
        number(duration);
        c.device = static_cast<int>(device);
        c.end = c.start + duration;
        while (p < end && *p != ';') {
            std::int64_t from = 0, to = 0;
            number(from);
            number(to);
            c.exposed.push_back({ c.start + from, c.start + to });
        }
        if (p < end)
            ++p; // ';'
        out.push_back(std::move(c));
    }
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
    // Added in version 1 after its first release: older summaries have neither.
    if (const auto durations = steps.find("durations_ns"); durations != steps.end())
        s.stepDurationsNs = durations->get<std::vector<TimeNs>>();
    if (const auto metrics = j.find("metrics"); metrics != j.end()) {
        for (const json& m : *metrics)
            s.metrics.push_back({ m.at("name").get<std::string>(), m.at("spec").get<std::string>(),
                m.at("values_ns").get<std::vector<TimeNs>>() });
    }
    if (const auto threshold = j.find("launch_threshold_ns"); threshold != j.end())
        s.launchThresholdNs = threshold->get<TimeNs>();
    readCollectives(j.at("collective_names"), j.at("collectives").get_ref<const std::string&>(), s.collectives);
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

IoResult<void> writeSummaryFile(const std::string& path, const std::vector<RankSummary>& summaries)
{
    return writeFileAtomically(path, summariesToJson(summaries) + "\n");
}

bool isSummaryFile(std::string_view path)
{
    return path.ends_with(kSummaryFileExtension);
}

} // namespace gapscope
