// SPDX-License-Identifier: MIT
// Test client for a disk that fills while recording. It limits the size of
// the files it writes (RLIMIT_FSIZE, as a full disk or a quota would), with SIGXFSZ ignored so that
// the limit shows as a failed write (EFBIG), as ENOSPC does on a full disk. Then:
//
//   "before-fill" (a range), 400 ms for the collector to flush it, then 200,000 "fill" ranges: far
//   more than the limit lets the collector write; then it prints "done" and exits with 0.
//
// The program must keep running to its end; the collector stops writing and says so.

#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <sys/resource.h>

int main(int argc, char** argv)
{
    // fill_client [LIMIT]: 0 sets no limit (the test puts the recording on a small tmpfs instead).
    const rlim_t limit = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 256 * 1024;
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit fileSize { limit, limit };
    if (limit != 0 && ::setrlimit(RLIMIT_FSIZE, &fileSize) != 0)
        return 2;
    nvtxRangePushA("before-fill");
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    nvtxRangePop();
    std::this_thread::sleep_for(std::chrono::milliseconds(400)); // flushed, even on a loaded machine
    for (int i = 0; i < 200000; ++i) {
        nvtxRangePushA("fill");
        nvtxRangePop();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::printf("done\n");
    return 0;
}
