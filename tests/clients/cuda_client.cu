// SPDX-License-Identifier: MIT
// CUDA test client for the GPU checks (built with nvcc for sm_80 and sm_90, see
// tests/gpu/run_gpu_checks.sh). Modes:
//
//   cuda_client [shape]          a known timeline, checked by tests/capture/gpu_record_test.cpp:
//     copies     cudaMemcpy HtoD pageable (8 MB, default stream), cudaMemcpyAsync HtoD pinned (s1),
//                cudaMemcpyAsync DtoH pinned (s2), cudaMemsetAsync (s1)
//     host gap   a 10 us kernel on s1, a 5 ms host sleep, a 10 us kernel on s2: a `host` gap of ~5 ms
//     sync gap   a 2 ms kernel on s1, cudaDeviceSynchronize, 3 ms of host work, a 10 us kernel on s2:
//                a `sync` gap of ~3 ms
//     burst      a 2 ms kernel on s1, then 200 empty kernels on s1 launched while it runs: `launch` gaps
//     stream sync a 10 us kernel on s2 and cudaStreamSynchronize(s2): a "Stream Sync" record on
//                 every CUPTI 13.0 (cudaDeviceSynchronize gives "Context Sync" records from 13.0 Update 1 on)
//     then cudaDeviceReset (the collector flushes there). 206 kernels: 203 on s1, 3 on s2.
//   cuda_client empty-loop N     N empty kernels back to back, then a sync
//   cuda_client kernel-loop N US N kernels of US microseconds each, then a sync
//   cuda_client graph            a graph of 10 empty kernels captured from a stream, launched 5 times
//   cuda_client threads          two host threads, each launching 50 empty kernels on a stream of its own
//   cuda_client fork             forks before touching CUDA; parent and child each launch 20 kernels
//
// The loops print one JSON line: {"mode":..., "launches":N, "seconds":wall time of the loop}.

#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

#define CHECK(call)                                                                                                    \
    do {                                                                                                               \
        const cudaError_t status_ = (call);                                                                            \
        if (status_ != cudaSuccess) {                                                                                  \
            std::fprintf(stderr, "cuda_client: %s failed: %s\n", #call, cudaGetErrorString(status_));                  \
            std::exit(2);                                                                                              \
        }                                                                                                              \
    } while (0)

__global__ void emptyKernel() { }

/// Spins for `ns` nanoseconds of the GPU's global timer.
__global__ void spinKernel(unsigned long long ns)
{
    unsigned long long start = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    unsigned long long now = start;
    while (now - start < ns)
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
}

void hostWork(std::chrono::microseconds duration)
{
    const auto end = std::chrono::steady_clock::now() + duration;
    volatile unsigned long long sink = 0;
    while (std::chrono::steady_clock::now() < end)
        sink = sink + 1;
}

int shape()
{
    nvtxNameOsThreadA(static_cast<unsigned>(::syscall(SYS_gettid)), "cuda-main");
    CHECK(cudaFree(nullptr)); // create the context outside the measured phases
    cudaStream_t s1;
    cudaStream_t s2;
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    constexpr std::size_t kBytes = 8u << 20;
    void* device = nullptr;
    void* pinned = nullptr;
    CHECK(cudaMalloc(&device, kBytes));
    CHECK(cudaMallocHost(&pinned, kBytes));
    std::vector<char> pageable(kBytes, 1);

    nvtxRangePushA("copies");
    CHECK(cudaMemcpy(device, pageable.data(), kBytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyAsync(device, pinned, kBytes, cudaMemcpyHostToDevice, s1));
    CHECK(cudaMemcpyAsync(pinned, device, kBytes, cudaMemcpyDeviceToHost, s2));
    CHECK(cudaMemsetAsync(device, 0, kBytes, s1));
    CHECK(cudaDeviceSynchronize());
    nvtxRangePop();

    nvtxRangePushA("host gap");
    spinKernel<<<1, 1, 0, s1>>>(10'000);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    spinKernel<<<1, 1, 0, s2>>>(10'000);
    CHECK(cudaDeviceSynchronize());
    nvtxRangePop();

    nvtxRangePushA("sync gap");
    spinKernel<<<1, 1, 0, s1>>>(2'000'000);
    CHECK(cudaDeviceSynchronize());
    nvtxRangePushA("host work");
    hostWork(std::chrono::milliseconds(3));
    nvtxRangePop();
    spinKernel<<<1, 1, 0, s2>>>(10'000);
    CHECK(cudaDeviceSynchronize());
    nvtxRangePop();

    nvtxRangePushA("stream sync");
    spinKernel<<<1, 1, 0, s2>>>(10'000);
    CHECK(cudaStreamSynchronize(s2));
    nvtxRangePop();

    nvtxRangePushA("burst");
    spinKernel<<<1, 1, 0, s1>>>(2'000'000);
    for (int i = 0; i < 200; ++i)
        emptyKernel<<<1, 1, 0, s1>>>();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    nvtxRangePop();

    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(device));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaDeviceReset());
    return 0;
}

int loop(const char* mode, int launches, unsigned long long kernelNs)
{
    CHECK(cudaFree(nullptr));
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    // Warm up: module loading and the first launch are not what is measured.
    for (int i = 0; i < 100; ++i)
        spinKernel<<<1, 1, 0, stream>>>(kernelNs);
    CHECK(cudaStreamSynchronize(stream));
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; ++i) {
        if (kernelNs == 0)
            emptyKernel<<<1, 1, 0, stream>>>();
        else
            spinKernel<<<1, 1, 0, stream>>>(kernelNs);
    }
    CHECK(cudaStreamSynchronize(stream));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(cudaGetLastError());
    std::printf("{\"mode\":\"%s\",\"launches\":%d,\"kernel_us\":%.1f,\"seconds\":%.6f}\n", mode, launches,
        static_cast<double>(kernelNs) / 1000.0, seconds);
    CHECK(cudaStreamDestroy(stream));
    return 0;
}

int graph()
{
    CHECK(cudaFree(nullptr));
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cudaGraph_t captured;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    for (int i = 0; i < 10; ++i)
        emptyKernel<<<1, 1, 0, stream>>>();
    CHECK(cudaStreamEndCapture(stream, &captured));
    cudaGraphExec_t executable;
    CHECK(cudaGraphInstantiate(&executable, captured, 0));
    for (int i = 0; i < 5; ++i)
        CHECK(cudaGraphLaunch(executable, stream));
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaGraphExecDestroy(executable));
    CHECK(cudaGraphDestroy(captured));
    CHECK(cudaStreamDestroy(stream));
    return 0;
}

void launchFifty()
{
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (int i = 0; i < 50; ++i)
        emptyKernel<<<1, 1, 0, stream>>>();
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaStreamDestroy(stream));
}

int threads()
{
    CHECK(cudaFree(nullptr));
    std::thread a(launchFifty);
    std::thread b(launchFifty);
    a.join();
    b.join();
    return 0;
}

int forked()
{
    // Before CUDA is initialised: a child of a process that initialised CUDA may not use it.
    const pid_t pid = ::fork();
    if (pid < 0)
        return 3;
    CHECK(cudaFree(nullptr));
    for (int i = 0; i < 20; ++i)
        spinKernel<<<1, 1>>>(10'000);
    CHECK(cudaDeviceSynchronize());
    if (pid == 0)
        return 0;
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 4;
}

} // namespace

int main(int argc, char** argv)
{
    const char* mode = argc > 1 ? argv[1] : "shape";
    if (std::strcmp(mode, "shape") == 0)
        return shape();
    if (std::strcmp(mode, "empty-loop") == 0 && argc > 2)
        return loop(mode, std::atoi(argv[2]), 0);
    if (std::strcmp(mode, "kernel-loop") == 0 && argc > 3)
        return loop(mode, std::atoi(argv[2]), std::strtoull(argv[3], nullptr, 10) * 1000ull);
    if (std::strcmp(mode, "graph") == 0)
        return graph();
    if (std::strcmp(mode, "threads") == 0)
        return threads();
    if (std::strcmp(mode, "fork") == 0)
        return forked();
    std::fprintf(stderr, "usage: cuda_client [shape | empty-loop N | kernel-loop N US | graph | threads | fork]\n");
    return 2;
}
