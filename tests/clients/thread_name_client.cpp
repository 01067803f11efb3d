// SPDX-License-Identifier: MIT
// Test client for thread names: threads that end long before the program does.
//
//   thread "loader"   names itself with pthread_setname_np, pushes "load:0", "load:1", "load:2" and
//                     exits; the main thread then waits 300 ms (several flushes and /proc scans of
//                     the collector, which no longer see the loader) before it ends.
//   thread "late"     pushes "rename:work" under the name "early", renames itself "late" and
//                     exits: the lane carries the name the thread had last.
//
// tests/capture/record_threads_test.cpp checks that both lanes carry these names.

#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <thread>

#include <pthread.h>

namespace {

void sleepMs(int ms)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

void loader()
{
    pthread_setname_np(pthread_self(), "loader");
    for (const char* name : { "load:0", "load:1", "load:2" }) {
        nvtxRangePushA(name);
        sleepMs(2);
        nvtxRangePop();
    }
}

void renamer()
{
    pthread_setname_np(pthread_self(), "early");
    nvtxRangePushA("rename:work");
    sleepMs(2);
    nvtxRangePop();
    pthread_setname_np(pthread_self(), "late");
}

} // namespace

int main()
{
    nvtxMarkA("main:start");
    std::thread(loader).join();
    std::thread(renamer).join();
    sleepMs(300);
    nvtxMarkA("main:end");
    return 0;
}
