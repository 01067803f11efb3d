// SPDX-License-Identifier: MIT
// Test client: threads that start and end, forks without exec, and (with "abort") an abort at the end:
// the collector's per-thread and per-process state under churn, for the sanitizer build
// (scripts/ci_hardening.sh) and any other. tests/capture/record_churn_test.cpp checks that a recording
// holds exactly this:
//
//   main thread "churn-main": main:round-R (R = 0, 1, 2) around each round, mark "main:done"
//   per round R, three threads "churn-R-T" (T = 0, 1, 2), started and joined in the round: each records
//     one range "work:R:T" and a mark "mark:R:T", then ends
//   after rounds 0 and 1: a fork without exec; the child starts one thread "forked-R" that records
//     "forked:R", joins it and leaves through exit()
//   churn_client abort: after "main:done", waits for the collector's flush (the test flushes every 20 ms),
//     opens "never-closed" and aborts: everything up to then is in the trace, the file not closed cleanly.

#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

constexpr int kRounds = 3;
constexpr int kThreadsPerRound = 3;
constexpr int kForkingRounds = 2;

void nameThisThread(const std::string& name)
{
    nvtxNameOsThreadA(static_cast<std::uint32_t>(::syscall(SYS_gettid)), name.c_str());
}

void range(const std::string& name)
{
    nvtxRangePushA(name.c_str());
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    nvtxRangePop();
}

void worker(int round, int index)
{
    const std::string suffix = std::to_string(round) + "-" + std::to_string(index);
    nameThisThread("churn-" + suffix);
    range("work:" + std::to_string(round) + ":" + std::to_string(index));
    nvtxMarkA(("mark:" + std::to_string(round) + ":" + std::to_string(index)).c_str());
}

int forkChild(int round)
{
    const pid_t pid = ::fork();
    if (pid < 0)
        return 2;
    if (pid == 0) {
        std::thread child([round] {
            nameThisThread("forked-" + std::to_string(round));
            range("forked:" + std::to_string(round));
        });
        child.join();
        std::exit(0);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}

} // namespace

int main(int argc, char** argv)
{
    const bool abortAtEnd = argc > 1 && std::strcmp(argv[1], "abort") == 0;
    nameThisThread("churn-main");
    for (int round = 0; round < kRounds; ++round) {
        nvtxRangePushA(("main:round-" + std::to_string(round)).c_str());
        std::vector<std::thread> threads;
        for (int index = 0; index < kThreadsPerRound; ++index)
            threads.emplace_back(worker, round, index);
        for (std::thread& thread : threads)
            thread.join();
        nvtxRangePop();
        if (round < kForkingRounds) {
            if (const int failed = forkChild(round))
                return failed;
        }
    }
    nvtxMarkA("main:done");
    if (abortAtEnd) {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        nvtxRangePushA("never-closed");
        std::abort();
    }
    return 0;
}
