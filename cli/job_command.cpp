// SPDX-License-Identifier: MIT
// `gapscope job`: summarizes each rank's file on a thread pool (or, with --mpi, across MPI ranks: job_mpi.cpp),
// matches the collectives of the ranks and writes the job report.
#include "cli/commands.h"
#include "cli/job_pipeline.h"

namespace gapscope::cli {

int runJob(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const auto options = parseJobOptions(args);
    if (!options) {
        err << "gapscope job: " << options.error().message << "\n" << usageHint(jobHelp());
        return 2;
    }
    const auto files = jobFiles(options->inputs);
    if (!files) {
        err << "gapscope job: " << files.error().message << "\n";
        return 1;
    }
    if (options->mpi)
        return runJobMpi(options.value(), files.value(), out, err);
    return writeJobReport(
        summarizeOnThreads(files.value(), options->analysis, options->threads), options.value(), out, err);
}

#ifndef GAPSCOPE_HAVE_MPI
int runJobMpi(const JobOptions&, const std::vector<std::string>&, std::ostream&, std::ostream& err)
{
    err << "gapscope job: --mpi: this gapscope was built without MPI (install libopenmpi-dev and rebuild; "
           "without --mpi the job runs on this machine's threads)\n";
    return 2;
}
#endif

} // namespace gapscope::cli
