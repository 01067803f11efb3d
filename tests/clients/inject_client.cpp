// SPDX-License-Identifier: MIT
// Test client that does what the CUDA driver does with CUDA_INJECTION64_PATH: it loads the library
// and calls its InitializeInjection -- twice, as a driver initialised again would. On a machine
// without an NVIDIA driver this drives the collector's CUDA start-up as far as CUPTI lets it: CUPTI
// refuses the subscription, and the collector must enable nothing, say why, and let the program
// run on. Prints "InitializeInjection: R R" (both return values).

#include <cstdio>
#include <cstdlib>

#include <dlfcn.h>

int main()
{
    const char* path = std::getenv("CUDA_INJECTION64_PATH");
    void* library = path ? ::dlopen(path, RTLD_NOW | RTLD_LOCAL) : nullptr;
    if (!library) {
        std::fprintf(stderr, "inject_client: cannot load %s\n", path ? path : "(CUDA_INJECTION64_PATH unset)");
        return 2;
    }
    using Initialize = int (*)();
    const auto initialize = reinterpret_cast<Initialize>(::dlsym(library, "InitializeInjection"));
    if (!initialize) {
        std::fprintf(stderr, "inject_client: no InitializeInjection in %s\n", path);
        return 3;
    }
    const int first = initialize();
    const int second = initialize();
    std::printf("InitializeInjection: %d %d\n", first, second);
    return 0;
}
