// SPDX-License-Identifier: MIT
// Test client: records two ranges and a mark, waits long enough for the collector's background
// flush (the test sets GAPSCOPE_FLUSH_INTERVAL_MS=20), opens one more range and aborts. No exit
// handler runs, so the capture file ends at the last flush: it must load, with a warning, holding
// exactly "before-abort:1", "before-abort:2" and the mark "about-to-abort".

#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <cstdlib>
#include <thread>

int main()
{
    nvtxRangePushA("before-abort:1");
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    nvtxRangePop();
    nvtxRangePushA("before-abort:2");
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    nvtxRangePop();
    nvtxMarkA("about-to-abort");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    nvtxRangePushA("never-closed");
    std::abort();
}
