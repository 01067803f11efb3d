// SPDX-License-Identifier: MIT
// Test client that runs until it is stopped: records the mark "started", says "ready" on stdout,
// then sleeps (at most a minute). The stop and --duration tests end it with SIGINT or SIGTERM.
//
//   long_client own-handler   installs its own SIGINT handler first, which says "caught" and
//                             leaves with _exit(3): the collector must leave that handler alone.

#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <thread>

#include <unistd.h>

namespace {

void onInterrupt(int)
{
    const char text[] = "caught\n";
    [[maybe_unused]] const ssize_t written = ::write(1, text, sizeof(text) - 1);
    ::_exit(3);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc > 1 && std::strcmp(argv[1], "own-handler") == 0)
        std::signal(SIGINT, &onInterrupt);
    nvtxMarkA("started");
    std::printf("ready\n");
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::seconds(60));
    return 0;
}
