// SPDX-License-Identifier: MIT
// Test client that runs until it is stopped: records the mark "started", says "ready" on stdout,
// then sleeps (at most a minute). The stop and --duration tests end it with SIGINT.

#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <cstdio>
#include <thread>

int main()
{
    nvtxMarkA("started");
    std::printf("ready\n");
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::seconds(60));
    return 0;
}
