// SPDX-License-Identifier: MIT
#pragma once

// Collectives and skew (DESIGN.md §4): the collective kernels of each rank, matched across the ranks of one job,
// with each one's arrival skew, last arriver, per-rank waits and end spread, and the job's per-rank and per-name
// figures. The matching reads only each rank's list of collectives (what a rank summary holds), so a job of many
// ranks never needs every rank's events in one process.

#include "core/analysis/interval_set.h"
#include "core/model/trace.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace gapscope {

/// An immutable name that copies share: a job's million collective occurrences name a handful of kernels, and a
/// string each would be most of the memory of a thousand ranks' summaries.
class SharedName {
public:
    SharedName() = default;
    SharedName(std::string name)
        : m_name(name.empty() ? nullptr : std::make_shared<const std::string>(std::move(name)))
    { }
    const std::string& str() const
    {
        static const std::string empty;
        return m_name ? *m_name : empty;
    }
    operator const std::string&() const { return str(); }
    bool empty() const { return !m_name; }
    friend bool operator==(const SharedName& a, std::string_view b) { return std::string_view(a.str()) == b; }
    friend bool operator==(const SharedName& a, const SharedName& b) { return a.str() == b.str(); }
    friend std::ostream& operator<<(std::ostream& out, const SharedName& name) { return out << name.str(); }

private:
    std::shared_ptr<const std::string> m_name;
};

/// One collective kernel on one rank.
struct CollectiveOccurrence {
    /// The kernel's name.
    SharedName kernel;
    /// What the trace says about the collective (Kineto `record_param_comms` / `nccl:*` args, or the kernel's
    /// own): "Collective name", "Process Group Name" (or "Process Group ID"), "Seq". Empty / none when absent.
    SharedName collective;
    SharedName group;
    std::optional<std::int64_t> seq;
    int device = 0;
    TimeNs start = 0;
    TimeNs end = 0;
    /// The parts of [start, end) in which no compute (non-communication kernel or memset) ran on its device:
    /// where the collective's time is exposed communication (DESIGN.md §4 "Exposed time"). Ascending, disjoint.
    std::vector<Interval> exposed;
};

/// Whether a kernel is a collective by its name: it starts with `nccl` or `rccl` (any case).
bool isCollectiveKernelName(std::string_view name);

/// The collective kernels of one process (by name, or marked by the trace's args), in start order, with what
/// the trace's args say about each and its exposed parts.
std::vector<CollectiveOccurrence> findCollectives(const Trace& trace, ProcessIndex process);

/// One rank as the job analysis reads it (a view of a rank summary; the occurrences must outlive the analysis).
struct JobRankInput {
    std::optional<int> rank;
    /// distributedInfo.world_size (or the launcher's), when known.
    std::optional<int> worldSize;
    /// The file(s) the rank came from, for messages.
    std::string source;
    /// The rank's exposed communication time (all its devices, over its window).
    TimeNs exposedCommunicationNs = 0;
    const std::vector<CollectiveOccurrence>* collectives = nullptr;
};

enum class CollectiveMatching : std::uint8_t {
    /// By (process group, collective name, sequence number), as every occurrence carried them.
    BySequence,
    /// By (kernel name, k-th occurrence in start order) per rank.
    ByOrder,
};
std::string_view collectiveMatchingName(CollectiveMatching matching); // "sequence", "order"

/// One collective matched across ranks. Vectors are indexed like JobAnalysis::ranks; none where a rank has no
/// occurrence of it.
struct MatchedCollective {
    /// Collective name (BySequence) or kernel name (ByOrder).
    std::string name;
    /// Process group (BySequence), empty otherwise.
    std::string group;
    /// Sequence number (BySequence) or the occurrence's 0-based order among its name's on each rank (ByOrder).
    std::int64_t seq = 0;
    std::vector<std::optional<TimeNs>> arrivals;
    std::vector<std::optional<TimeNs>> ends;
    /// max arrival - min arrival.
    TimeNs skewNs = 0;
    /// The rank that arrived last (the lowest such rank on a tie).
    int lastRank = 0;
    /// max end - min end: small when the match is right.
    TimeNs endSpreadNs = 0;
    TimeNs firstArrival() const;
};

struct RankSkewFigures {
    int rank = 0;
    /// Index of this rank's entry in the analysis's input.
    std::size_t input = 0;
    /// Occurrences matched with at least one other rank, and those that were not.
    std::size_t matched = 0;
    std::size_t unmatched = 0;
    /// Sum over matched collectives of (max arrival - own arrival).
    TimeNs waitNs = 0;
    std::size_t timesLast = 0;
    /// Exposed communication split: `wait` is the part inside [own arrival, max arrival) of each matched
    /// collective's exposed parts; transfer = exposed communication - wait.
    TimeNs exposedCommunicationNs = 0;
    TimeNs exposedWaitNs = 0;
    TimeNs exposedTransferNs = 0;
};

/// Skew of the matched collectives of one name: nearest-rank p50/p95 and max.
struct CollectiveSkewStats {
    std::string name;
    std::size_t count = 0;
    TimeNs p50Ns = 0;
    TimeNs p95Ns = 0;
    TimeNs maxNs = 0;
};

struct Straggler {
    int rank = 0;
    std::size_t timesLast = 0;
    /// timesLast / matched collectives.
    double share = 0.0;
};

struct JobAnalysis {
    /// The ranks analysed, ascending.
    std::vector<int> ranks;
    /// The job's world size (the one most inputs give), when known.
    std::optional<int> worldSize;
    /// Ranks below the world size that no input holds.
    std::vector<int> missingRanks;
    /// Inputs left out, each with why ("FILE: rank 3 again (already from OTHER): left out"), missing ranks, and
    /// matched collectives whose kernels end more than 1 ms apart (a sign that the match paired different ones).
    std::vector<std::string> problems;
    CollectiveMatching matching = CollectiveMatching::ByOrder;
    /// Collectives on at least two ranks, by first arrival (then name, group, seq).
    std::vector<MatchedCollective> collectives;
    /// One per entry of `ranks`.
    std::vector<RankSkewFigures> perRank;
    /// By collective name.
    std::vector<CollectiveSkewStats> skewByName;
    /// The rank most often last (the lowest on a tie); none without matched collectives.
    std::optional<Straggler> straggler;
    TimeNs totalWaitNs = 0;
};

/// Matches the ranks' collectives and measures skew (DESIGN.md §4). Inputs without a rank, of another world
/// size than most, with a rank at or above the world size, or repeating a rank already given, are left out
/// and named in `problems`; the rest are analysed.
JobAnalysis analyzeJob(const std::vector<JobRankInput>& inputs);

/// "0-3, 5, 7-9".
std::string formatRankList(const std::vector<int>& ranks);

} // namespace gapscope
