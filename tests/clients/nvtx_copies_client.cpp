// SPDX-License-Identifier: MIT
// Test client with two copies of NVTX in one process: its own and libgapscope_nvtx_copy.so's. The
// collector's NVTX entry point runs once per copy; its hooks must go in once.
//
//   main thread:   "main:outer" (own copy) around "library:main" (the library's copy)
//   a thread:      "library:thread" (library copy), then it exits
//   a forked child (no exec): "library:child" (library copy), then exit()
//
// tests/capture/record_threads_test.cpp checks that each range is recorded exactly once.

#include <nvtx3/nvToolsExt.h>

#include <thread>

#include <sys/wait.h>
#include <unistd.h>

void libraryWork(const char* name);

int main()
{
    nvtxRangePushA("main:outer");
    libraryWork("library:main");
    nvtxRangePop();
    std::thread(libraryWork, "library:thread").join();
    const pid_t pid = ::fork();
    if (pid == 0) {
        libraryWork("library:child");
        std::exit(0);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}
