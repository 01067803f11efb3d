// SPDX-License-Identifier: MIT
// Test client for the order in which NVTX starts the collector before CUDA does (as the CUDA test
// client and many programs do: an NVTX range around their set-up): the collector's start asks CUPTI
// for a timestamp, which on a machine with a driver may initialise it, and the driver then calls
// the collector's InitializeInjection on the same thread, inside the collector's construction.
//
// This program exports its own cuptiGetTimestamp (the collector's call binds to it: the executable
// comes first in the global lookup), whose first call does what the driver does there: it calls
// InitializeInjection of the library in CUDA_INJECTION64_PATH. Then it opens and closes one NVTX
// range. Prints "reentered InitializeInjection: R" and "done".

#include <nvtx3/nvToolsExt.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include <dlfcn.h>

extern "C" __attribute__((visibility("default"))) int cuptiGetTimestamp(std::uint64_t* timestamp)
{
    static bool reentered = false;
    if (!reentered) {
        reentered = true;
        const char* path = std::getenv("CUDA_INJECTION64_PATH");
        void* library = path ? ::dlopen(path, RTLD_NOW | RTLD_NOLOAD) : nullptr;
        using Initialize = int (*)();
        const auto initialize
            = library ? reinterpret_cast<Initialize>(::dlsym(library, "InitializeInjection")) : nullptr;
        std::printf("reentered InitializeInjection: %d\n", initialize ? initialize() : -1);
    }
    // CUPTI's clock on Linux.
    timespec now {};
    ::clock_gettime(CLOCK_REALTIME, &now);
    *timestamp = static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(now.tv_nsec);
    return 0; // CUPTI_SUCCESS
}

int main()
{
    nvtxRangePushA("setup"); // NVTX loads the collector first
    nvtxRangePop();
    std::printf("done\n");
    return 0;
}
