// SPDX-License-Identifier: MIT
// A library with its own copy of NVTX (NVTX is header-only and keeps hidden state per shared
// object): NVTX calls the collector's InitializeInjectionNvtx2 again for it.

#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <thread>

__attribute__((visibility("default"))) void libraryWork(const char* name)
{
    nvtxRangePushA(name);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    nvtxRangePop();
}
