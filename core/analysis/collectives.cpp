// SPDX-License-Identifier: MIT
// Matching collectives across the ranks of one job, and their skew (DESIGN.md §4 "Collectives and skew").
#include "core/analysis/collectives.h"
#include "core/analysis/nearest_rank.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace gapscope {

namespace {

/// The kernels of one collective end together on every rank (within 7 µs on the param DLRM job); an end spread
/// above this says that the match paired different collectives.
constexpr TimeNs kSuspectEndSpreadNs = 1'000'000;

struct MatchKey {
    std::uint32_t name = 0;
    std::uint32_t group = 0;
    std::int64_t seq = 0;
    friend bool operator<(const MatchKey& a, const MatchKey& b)
    {
        return std::tie(a.name, a.group, a.seq) < std::tie(b.name, b.group, b.seq);
    }
};

std::string inputName(const JobRankInput& input, std::size_t index)
{
    return input.source.empty() ? "input " + std::to_string(index + 1) : input.source;
}

/// The world size most inputs give (the first input's among equals); none if no input gives one.
std::optional<int> jobWorldSize(const std::vector<JobRankInput>& inputs)
{
    std::map<int, std::size_t> votes;
    for (const JobRankInput& input : inputs) {
        if (input.worldSize)
            ++votes[*input.worldSize];
    }
    std::optional<int> best;
    for (const JobRankInput& input : inputs) {
        if (input.worldSize && (!best || votes[*input.worldSize] > votes[*best]))
            best = *input.worldSize;
    }
    return best;
}

/// Measured time of `parts` inside [from, to).
TimeNs overlap(const std::vector<Interval>& parts, TimeNs from, TimeNs to)
{
    TimeNs total = 0;
    for (const Interval& part : parts)
        total += std::max<TimeNs>(0, std::min(part.end, to) - std::max(part.start, from));
    return total;
}

} // namespace

std::string_view collectiveMatchingName(CollectiveMatching matching)
{
    return matching == CollectiveMatching::BySequence ? "sequence" : "order";
}

TimeNs MatchedCollective::firstArrival() const
{
    std::optional<TimeNs> first;
    for (const auto& arrival : arrivals) {
        if (arrival && (!first || *arrival < *first))
            first = arrival;
    }
    return first.value_or(0);
}

std::string formatRankList(const std::vector<int>& ranks)
{
    std::string text;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        if (!text.empty())
            text += ", ";
        text += std::to_string(ranks[i]);
        if (j > i)
            text += "-" + std::to_string(ranks[j]);
        i = j + 1;
    }
    return text;
}

namespace {

/// Which inputs make up the job: one per rank, all of one world size. Fills job.ranks, job.missingRanks and the
/// problems of the inputs left out; returns the input of each rank, in rank order.
std::map<int, std::size_t> selectRanks(const std::vector<JobRankInput>& inputs, JobAnalysis& job)
{
    std::map<int, std::size_t> byRank;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const JobRankInput& input = inputs[i];
        const std::string name = inputName(input, i);
        if (!input.rank) {
            job.problems.push_back(name + ": no rank (distributedInfo.rank, or a launcher's rank variable): left out");
            continue;
        }
        if (input.worldSize && job.worldSize && *input.worldSize != *job.worldSize) {
            job.problems.push_back(name + ": rank " + std::to_string(*input.rank) + " of a job of "
                + std::to_string(*input.worldSize) + " ranks, not of this job of " + std::to_string(*job.worldSize)
                + ": another job, left out");
            continue;
        }
        if (*input.rank < 0 || (job.worldSize && *input.rank >= *job.worldSize)) {
            job.problems.push_back(name + ": rank " + std::to_string(*input.rank) + " outside a job of "
                + (job.worldSize ? std::to_string(*job.worldSize) : std::string("?")) + " ranks: left out");
            continue;
        }
        const auto [it, inserted] = byRank.emplace(*input.rank, i);
        if (!inserted) {
            job.problems.push_back(name + ": rank " + std::to_string(*input.rank) + " again (already from "
                + inputName(inputs[it->second], it->second) + "): left out");
        }
    }
    for (const auto& [rank, index] : byRank)
        job.ranks.push_back(rank);
    if (job.worldSize) {
        for (int r = 0; r < *job.worldSize; ++r) {
            if (!byRank.contains(r))
                job.missingRanks.push_back(r);
        }
        if (!job.missingRanks.empty()) {
            job.problems.push_back("missing rank" + std::string(job.missingRanks.size() > 1 ? "s " : " ")
                + formatRankList(job.missingRanks) + " (" + std::to_string(job.ranks.size()) + " of "
                + std::to_string(*job.worldSize) + " present): figures are for the ranks present");
        }
    }
    return byRank;
}

/// How to match: by sequence when every occurrence carries (group, collective, seq), else by order.
CollectiveMatching chooseMatching(const std::vector<const JobRankInput*>& analysed)
{
    bool everySequenced = true;
    bool anyOccurrence = false;
    for (const JobRankInput* input : analysed) {
        for (const CollectiveOccurrence& o : *input->collectives) {
            anyOccurrence = true;
            everySequenced = everySequenced && o.seq && !o.collective.empty();
        }
    }
    return anyOccurrence && everySequenced ? CollectiveMatching::BySequence : CollectiveMatching::ByOrder;
}

/// Every occurrence of the analysed ranks under its match key.
struct KeyedOccurrences {
    /// Interned names (collective, group or kernel), so that a key is three numbers: a thousand ranks of a
    /// thousand collectives each are a million keys to place.
    std::vector<std::string_view> names;
    std::vector<MatchKey> keys;
    /// Per key, its occurrences as (analysed rank, occurrence), in rank order.
    std::vector<std::vector<std::pair<std::uint32_t, const CollectiveOccurrence*>>> keyed;
    /// The keys in the order of (name, group, seq) as text, which breaks ties of first arrival.
    std::vector<std::uint32_t> keyOrder;
};

KeyedOccurrences keyOccurrences(const std::vector<const JobRankInput*>& analysed, CollectiveMatching matching)
{
    KeyedOccurrences out;
    std::unordered_map<std::string_view, std::uint32_t> nameIds;
    const auto intern = [&](const std::string& name) {
        const auto [it, inserted] = nameIds.emplace(name, static_cast<std::uint32_t>(out.names.size()));
        if (inserted)
            out.names.push_back(name);
        return it->second;
    };
    std::map<MatchKey, std::uint32_t> keyIndex;
    std::vector<std::int64_t> order;
    for (std::size_t r = 0; r < analysed.size(); ++r) {
        std::fill(order.begin(), order.end(), 0);
        for (const CollectiveOccurrence& o : *analysed[r]->collectives) {
            MatchKey key;
            if (matching == CollectiveMatching::BySequence) {
                key = { intern(o.collective), intern(o.group), *o.seq };
            } else {
                const std::uint32_t name = intern(o.kernel);
                if (name >= order.size())
                    order.resize(name + 1, 0);
                key = { name, 0, order[name]++ };
            }
            const auto [it, inserted] = keyIndex.emplace(key, static_cast<std::uint32_t>(out.keys.size()));
            if (inserted) {
                out.keys.push_back(key);
                out.keyed.emplace_back();
            }
            out.keyed[it->second].emplace_back(static_cast<std::uint32_t>(r), &o);
        }
    }
    out.keyOrder.resize(out.keys.size());
    for (std::uint32_t k = 0; k < out.keys.size(); ++k)
        out.keyOrder[k] = k;
    const auto& names = out.names;
    const auto& keys = out.keys;
    std::sort(out.keyOrder.begin(), out.keyOrder.end(), [&](std::uint32_t a, std::uint32_t b) {
        return std::tie(names[keys[a].name], names[keys[a].group], keys[a].seq)
            < std::tie(names[keys[b].name], names[keys[b].group], keys[b].seq);
    });
    return out;
}

/// The collectives that several ranks reached, with their arrivals and skew, into job.collectives (by first
/// arrival), and each rank's matched, unmatched, wait and times-last counts into job.perRank. Returns the skews
/// of each collective name.
std::map<std::string_view, std::vector<TimeNs>> matchCollectives(
    const KeyedOccurrences& occurrencesByKey, std::size_t rankCount, JobAnalysis& job)
{
    const auto& names = occurrencesByKey.names;
    const auto& keys = occurrencesByKey.keys;
    std::map<std::string_view, std::vector<TimeNs>> skewsByName;
    for (const std::uint32_t k : occurrencesByKey.keyOrder) {
        const auto& occurrences = occurrencesByKey.keyed[k];
        const bool several = occurrences.front().first != occurrences.back().first;
        if (!several) {
            job.perRank[occurrences.front().first].unmatched += occurrences.size();
            continue;
        }
        MatchedCollective matched;
        matched.name = std::string(names[keys[k].name]);
        matched.group = keys[k].group == 0 && job.matching == CollectiveMatching::ByOrder
            ? std::string()
            : std::string(names[keys[k].group]);
        matched.seq = keys[k].seq;
        matched.arrivals.resize(rankCount);
        matched.ends.resize(rankCount);
        for (const auto& [r, o] : occurrences) {
            matched.arrivals[r] = matched.arrivals[r] ? std::min(*matched.arrivals[r], o->start) : o->start;
            matched.ends[r] = matched.ends[r] ? std::max(*matched.ends[r], o->end) : o->end;
        }
        TimeNs minArrival = 0, maxArrival = 0, minEnd = 0, maxEnd = 0;
        bool first = true;
        for (std::size_t r = 0; r < rankCount; ++r) {
            if (!matched.arrivals[r])
                continue;
            const TimeNs arrival = *matched.arrivals[r];
            const TimeNs end = *matched.ends[r];
            if (first || arrival > maxArrival)
                matched.lastRank = job.ranks[r];
            minArrival = first ? arrival : std::min(minArrival, arrival);
            maxArrival = first ? arrival : std::max(maxArrival, arrival);
            minEnd = first ? end : std::min(minEnd, end);
            maxEnd = first ? end : std::max(maxEnd, end);
            first = false;
        }
        matched.skewNs = maxArrival - minArrival;
        matched.endSpreadNs = maxEnd - minEnd;
        std::uint32_t previous = ~0u;
        for (const auto& [r, o] : occurrences) {
            RankSkewFigures& figures = job.perRank[r];
            ++figures.matched;
            figures.exposedWaitNs += overlap(o->exposed, *matched.arrivals[r], maxArrival);
            if (r == previous)
                continue;
            previous = r;
            figures.waitNs += maxArrival - *matched.arrivals[r];
            figures.timesLast += job.ranks[r] == matched.lastRank ? 1 : 0;
        }
        skewsByName[names[keys[k].name]].push_back(matched.skewNs);
        job.collectives.push_back(std::move(matched));
    }
    std::stable_sort(job.collectives.begin(), job.collectives.end(),
        [](const MatchedCollective& a, const MatchedCollective& b) { return a.firstArrival() < b.firstArrival(); });
    return skewsByName;
}

/// What the matches add up to: the warning about collectives that end far apart, each rank's exposed wait and
/// transfer, the total wait, the straggler and the skew statistics per collective name.
void summarizeMatches(std::map<std::string_view, std::vector<TimeNs>>& skewsByName, JobAnalysis& job)
{
    std::size_t farApart = 0;
    for (const MatchedCollective& c : job.collectives)
        farApart += c.endSpreadNs > kSuspectEndSpreadNs ? 1 : 0;
    if (farApart > 0) {
        job.problems.push_back(std::to_string(farApart) + " of " + std::to_string(job.collectives.size())
            + " matched collectives end more than 1 ms apart across ranks: the match may pair different collectives "
              "(files that hold only samples or parts of each rank's kernels?)");
    }
    for (RankSkewFigures& figures : job.perRank) {
        figures.exposedWaitNs = std::min(figures.exposedWaitNs, figures.exposedCommunicationNs);
        figures.exposedTransferNs = figures.exposedCommunicationNs - figures.exposedWaitNs;
        job.totalWaitNs += figures.waitNs;
        if (!job.collectives.empty() && figures.timesLast > 0
            && (!job.straggler || figures.timesLast > job.straggler->timesLast)) {
            job.straggler = Straggler { figures.rank, figures.timesLast,
                static_cast<double>(figures.timesLast) / static_cast<double>(job.collectives.size()) };
        }
    }
    for (auto& [name, skews] : skewsByName) {
        CollectiveSkewStats stats;
        stats.name = std::string(name);
        stats.count = skews.size();
        stats.maxNs = *std::max_element(skews.begin(), skews.end());
        stats.p50Ns = nearestRankPercentile(skews, 0.50);
        stats.p95Ns = nearestRankPercentile(skews, 0.95);
        job.skewByName.push_back(std::move(stats));
    }
}

} // namespace

JobAnalysis analyzeJob(const std::vector<JobRankInput>& inputs)
{
    JobAnalysis job;
    job.worldSize = jobWorldSize(inputs);
    const std::map<int, std::size_t> byRank = selectRanks(inputs, job);
    std::vector<const JobRankInput*> analysed;
    analysed.reserve(byRank.size());
    for (const auto& [rank, index] : byRank)
        analysed.push_back(&inputs[index]);
    job.matching = chooseMatching(analysed);
    job.perRank.resize(analysed.size());
    for (std::size_t r = 0; r < analysed.size(); ++r) {
        RankSkewFigures& figures = job.perRank[r];
        figures.rank = job.ranks[r];
        figures.input = byRank.at(job.ranks[r]);
        figures.exposedCommunicationNs = analysed[r]->exposedCommunicationNs;
    }
    auto skewsByName = matchCollectives(keyOccurrences(analysed, job.matching), analysed.size(), job);
    summarizeMatches(skewsByName, job);
    return job;
}

} // namespace gapscope
