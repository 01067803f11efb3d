// SPDX-License-Identifier: MIT
// Test client for a program that does not end neatly. It records two ranges
// and a mark, waits long enough for the collector's background flush (the tests set
// GAPSCOPE_FLUSH_INTERVAL_MS=20), opens one more range and then, by mode:
//
//   abort_client [abort]   std::abort()                       (SIGABRT)
//   abort_client segv      writes through a null pointer      (SIGSEGV)
//   abort_client kill      raise(SIGKILL)                     (nothing can run after it)
//   abort_client exit      200,000 "burst" ranges, then _exit(7) in the middle of the
//                          collector's flushing
//
// No exit handler runs, so the capture file ends at the last flush: it must load, with a warning,
// holding "before-abort:1", "before-abort:2" and the mark "about-to-abort" (and for `exit`, some of
// the burst, none of it twice).

#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <unistd.h>

namespace {

// A real fault, ended by the kernel's SIGSEGV: in the sanitizer build (scripts/ci_hardening.sh) neither
// UBSan's null check nor ASan's SIGSEGV handler may turn it into a report and exit code 1.
__attribute__((noinline, no_sanitize("address", "undefined"))) void writeThroughNull()
{
    std::signal(SIGSEGV, SIG_DFL);
    volatile int* nowhere = nullptr;
    *nowhere = 1;
}

} // namespace

int main(int argc, char** argv)
{
    const char* mode = argc > 1 ? argv[1] : "abort";
    nvtxRangePushA("before-abort:1");
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    nvtxRangePop();
    nvtxRangePushA("before-abort:2");
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    nvtxRangePop();
    nvtxMarkA("about-to-abort");
    std::this_thread::sleep_for(std::chrono::milliseconds(500)); // 25 flushes at 20 ms, even on a loaded machine
    nvtxRangePushA("never-closed");
    if (std::strcmp(mode, "segv") == 0) {
        writeThroughNull();
    } else if (std::strcmp(mode, "kill") == 0) {
        std::raise(SIGKILL);
    } else if (std::strcmp(mode, "exit") == 0) {
        for (int i = 0; i < 200000; ++i) {
            nvtxRangePushA("burst");
            nvtxRangePop();
        }
        ::_exit(7);
    }
    std::abort();
}
