// SPDX-License-Identifier: MIT
// `gapscope job --mpi`: each MPI rank summarizes its share of the files (file i goes to MPI rank i mod size), the
// summaries travel to MPI rank 0 as JSON text (MPI_Gatherv), and rank 0 writes the job report exactly as the
// thread-pool run does (job_pipeline.h). Built only when CMake finds MPI (GAPSCOPE_HAVE_MPI).
#include "cli/job_pipeline.h"

#include <mpi.h>

#include <limits>

namespace gapscope::cli {

namespace {

/// MPI_Init on the way in, MPI_Finalize on every way out.
class MpiSession {
public:
    MpiSession()
    {
        int initialized = 0;
        MPI_Initialized(&initialized);
        if (!initialized)
            m_owned = MPI_Init(nullptr, nullptr) == MPI_SUCCESS;
        MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
        MPI_Comm_size(MPI_COMM_WORLD, &m_size);
    }
    ~MpiSession()
    {
        if (m_owned)
            MPI_Finalize();
    }
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;
    int rank() const { return m_rank; }
    int size() const { return m_size; }

private:
    bool m_owned = false;
    int m_rank = 0;
    int m_size = 1;
};

} // namespace

int runJobMpi(const JobOptions& options, const std::vector<std::string>& files, std::ostream& out, std::ostream& err)
{
    MpiSession mpi;
    // This rank's share, packed as bytes (job_pipeline.h).
    std::string text;
    for (std::size_t i = static_cast<std::size_t>(mpi.rank()); i < files.size();
         i += static_cast<std::size_t>(mpi.size()))
        packJobEntry(i, summarizeJobFile(files[i], options.analysis), text);
    if (text.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        err << "gapscope job: MPI rank " << mpi.rank() << ": summaries over 2 GiB\n";
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    const int length = static_cast<int>(text.size());
    std::vector<int> lengths(mpi.rank() == 0 ? static_cast<std::size_t>(mpi.size()) : 0);
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> offsets(lengths.size());
    long long total = 0;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
        offsets[r] = static_cast<int>(total);
        total += lengths[r];
    }
    if (total > std::numeric_limits<int>::max()) {
        err << "gapscope job: the gathered summaries exceed 2 GiB\n";
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    std::string gathered(static_cast<std::size_t>(total), '\0');
    MPI_Gatherv(
        text.data(), length, MPI_CHAR, gathered.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
    if (mpi.rank() != 0)
        return 0;

    std::vector<JobEntry> entries(files.size());
    if (!unpackJobEntries(gathered, entries)) {
        err << "gapscope job: the gathered summaries are cut short\n";
        return 1;
    }
    std::string().swap(gathered);
    return writeJobReport(std::move(entries), options, out, err);
}

} // namespace gapscope::cli
