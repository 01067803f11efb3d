// SPDX-License-Identifier: MIT
#include "cli/job_report.h"

#include "cli/text_columns.h"
#include "core/model/labels.h"
#include "core/model/time_format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace gapscope::cli {

using nlohmann::json;

namespace {

std::string shortName(const std::string& name, std::size_t width)
{
    const std::size_t cut = name.find('(');
    std::string text = cut == std::string::npos ? name : name.substr(0, cut);
    if (text.size() > width)
        text = text.substr(0, width - 3) + "...";
    return text;
}

double utilization(const RankSummary& s)
{
    return utilizationOf(s.busyNs(), s.spanNs());
}

} // namespace

JobAnalysis analyzeSummaries(const std::vector<RankSummary>& summaries)
{
    std::vector<JobRankInput> inputs;
    inputs.reserve(summaries.size());
    for (const RankSummary& s : summaries)
        inputs.push_back(s.jobInput());
    return analyzeJob(inputs);
}

void writeJobText(const std::vector<RankSummary>& summaries, const JobAnalysis& job, std::size_t top, std::ostream& out)
{
    out << "Job: " << job.ranks.size() << " rank" << (job.ranks.size() == 1 ? "" : "s");
    if (!job.ranks.empty())
        out << " (" << formatRankList(job.ranks) << ")";
    if (job.worldSize)
        out << " of a world of " << *job.worldSize;
    out << "; " << job.collectives.size() << " collectives matched by "
        << (job.matching == CollectiveMatching::BySequence ? "(process group, collective, sequence number)"
                                                           : "(kernel name, order of occurrence)")
        << "\n";
    for (const std::string& problem : job.problems)
        out << "  ! " << problem << "\n";
    if (job.straggler) {
        out << "  straggler    rank " << job.straggler->rank << ", last in " << job.straggler->timesLast << " of "
            << job.collectives.size() << " collectives (" << percentText(job.straggler->share) << ")\n";
    } else {
        out << "  straggler    none (no collective matched across ranks)\n";
    }
    out << "  total wait   " << formatDuration(job.totalWaitNs) << " (ranks' GPUs inside collectives waiting for "
        << "the last arriver)\n";

    out << "\n  " << pad("rank", 6) << pad("util", 9) << pad("idle", 11);
    for (int c = 0; c < kGapCauseCount; ++c)
        out << pad(std::string(gapCauseName(static_cast<GapCause>(c))), 11);
    out << pad("wait", 11) << pad("last", 6) << pad("matched", 9) << pad("exposed comm", 13) << pad("transfer", 11)
        << pad("in wait", 11) << "file\n";
    for (const RankSkewFigures& r : job.perRank) {
        const RankSummary& s = summaries[r.input];
        out << "  " << pad(std::to_string(r.rank), 6) << pad(percentText(utilization(s)), 9)
            << pad(formatDuration(s.idleNs()), 11);
        const auto byCause = s.idleByCause();
        for (int c = 0; c < kGapCauseCount; ++c)
            out << pad(formatDuration(byCause[c]), 11);
        out << pad(formatDuration(r.waitNs), 11) << pad(std::to_string(r.timesLast), 6)
            << pad(std::to_string(r.matched) + (r.unmatched ? "+" + std::to_string(r.unmatched) : ""), 9)
            << pad(formatDuration(r.exposedCommunicationNs), 13) << pad(formatDuration(r.exposedTransferNs), 11)
            << pad(formatDuration(r.exposedWaitNs), 11) << s.source << "\n";
    }

    out << "\n  Skew by collective\n";
    if (job.skewByName.empty())
        out << "    none\n";
    else
        out << "    " << pad("count", 7) << pad("p50", 11) << pad("p95", 11) << pad("max", 11) << "name\n";
    for (const CollectiveSkewStats& stats : job.skewByName) {
        out << "    " << pad(std::to_string(stats.count), 7) << pad(formatDuration(stats.p50Ns), 11)
            << pad(formatDuration(stats.p95Ns), 11) << pad(formatDuration(stats.maxNs), 11) << shortName(stats.name, 80)
            << "\n";
    }

    std::vector<std::size_t> order(job.collectives.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
        [&](std::size_t a, std::size_t b) { return job.collectives[a].skewNs > job.collectives[b].skewNs; });
    if (order.size() > top)
        order.resize(top);
    out << "\n  Collectives with the largest skew (arrival = kernel start on the rank's GPU)\n";
    if (order.empty())
        out << "    none\n";
    else
        out << "    " << pad("skew", 11) << pad("last", 6) << pad("end spread", 12) << pad("first arrival", 25)
            << "collective\n";
    for (const std::size_t i : order) {
        const MatchedCollective& c = job.collectives[i];
        std::string name = shortName(c.name, 60);
        if (!c.group.empty())
            name += " group " + c.group;
        name += (job.matching == CollectiveMatching::BySequence ? " seq " : " #") + std::to_string(c.seq);
        out << "    " << pad(formatDuration(c.skewNs), 11) << pad(std::to_string(c.lastRank), 6)
            << pad(formatDuration(c.endSpreadNs), 12) << pad(std::to_string(c.firstArrival()) + " ns", 25) << name
            << "\n";
    }
}

json jobToJson(const std::vector<RankSummary>& summaries, const JobAnalysis& job)
{
    json collectives = json::array();
    for (const MatchedCollective& c : job.collectives) {
        json arrivals = json::array();
        for (const auto& arrival : c.arrivals)
            arrivals.push_back(arrival ? json(*arrival) : json(nullptr));
        collectives.push_back({ { "name", c.name }, { "group", c.group.empty() ? json(nullptr) : json(c.group) },
            { "seq", c.seq }, { "arrivals_ns", arrivals }, { "skew_ns", c.skewNs }, { "last_rank", c.lastRank },
            { "end_spread_ns", c.endSpreadNs } });
    }
    json perRank = json::array();
    for (const RankSkewFigures& r : job.perRank) {
        const RankSummary& s = summaries[r.input];
        json idleByCause = json::object();
        const auto byCause = s.idleByCause();
        for (int c = 0; c < kGapCauseCount; ++c)
            idleByCause[std::string(gapCauseName(static_cast<GapCause>(c)))] = byCause[c];
        perRank.push_back({ { "rank", r.rank }, { "file", s.source }, { "span_ns", s.spanNs() },
            { "busy_ns", s.busyNs() }, { "idle_ns", s.idleNs() }, { "utilization", utilization(s) },
            { "idle_by_cause_ns", idleByCause }, { "wait_ns", r.waitNs }, { "times_last", r.timesLast },
            { "matched", r.matched }, { "unmatched", r.unmatched },
            { "exposed_communication_ns",
                { { "total", r.exposedCommunicationNs }, { "transfer", r.exposedTransferNs },
                    { "wait", r.exposedWaitNs } } } });
    }
    json skew = json::array();
    for (const CollectiveSkewStats& stats : job.skewByName) {
        skew.push_back({ { "name", stats.name }, { "count", stats.count }, { "p50_ns", stats.p50Ns },
            { "p95_ns", stats.p95Ns }, { "max_ns", stats.maxNs } });
    }
    json straggler = nullptr;
    if (job.straggler) {
        straggler = { { "rank", job.straggler->rank }, { "times_last", job.straggler->timesLast },
            { "share", job.straggler->share } };
    }
    return json { { "ranks", job.ranks }, { "world_size", job.worldSize ? json(*job.worldSize) : json(nullptr) },
        { "missing_ranks", job.missingRanks }, { "problems", job.problems },
        { "matching", collectiveMatchingName(job.matching) }, { "collectives", collectives }, { "per_rank", perRank },
        { "skew_by_collective", skew }, { "straggler", straggler }, { "total_wait_ns", job.totalWaitNs } };
}

} // namespace gapscope::cli
