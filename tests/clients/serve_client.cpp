// SPDX-License-Identifier: MIT
// Test client for the experiment tests: a toy LLM server that records, with NVTX only, how it serves requests,
// with every duration set by its arguments (no GPU). tests/capture/record_experiment_test.cpp records it with
// `gapscope record --runs N` and checks that `diff` finds what the arguments told it to do.
//
//   serve_client [--requests R] [--decodes K] [--prefill-us P] [--decode-us D] [--chunk-us C]
//                [--noise-pct X --noise-state FILE [--fail-run K]]
//
// One thread, one outer range "serve". Each of R requests needs P µs of prefill, done in chunks of C µs (ranges
// "prefill"); between two chunks the running batch takes a decode step of D µs (range "decode"), as chunked
// prefill does. After the last chunk the request's first token comes out of the next decode step (range
// "decode first token" for request 0, "decode" for the others), then K - 1 more decode steps follow. So, with
// n = ceil(P / C) chunks:
//   - the interval between two decode starts is D, or D + C when a chunk runs between them (D + P unchunked);
//   - time to first token (from the start of "serve" to the end of "decode first token") is P + n D.
// A larger C lowers time to first token and raises the decode interval's p95: the trade the seed's serving
// record describes.
//
// Run-to-run noise, known: with --noise-state FILE, the program counts its runs in FILE and scales every duration
// of run k by the k-th factor of 1, 1 - X %, 1 + X %, 1 - X/2 %, 1 + X/2 % (repeating), so that five runs of
// one setting spread over exactly +-X %. --fail-run K: the K-th run (1-based) exits with code 3 (a failed run).

#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include <sys/syscall.h>
#include <unistd.h>

namespace {

struct Settings {
    int requests = 4;
    int decodes = 6;
    double prefillUs = 30'000;
    double decodeUs = 15'000;
    double chunkUs = 30'000;
    double noisePercent = 0;
    std::string noiseState;
    int failRun = 0;
};

double scale = 1.0;

void work(const char* name, double us)
{
    nvtxRangePushA(name);
    std::this_thread::sleep_for(std::chrono::nanoseconds(static_cast<long long>(us * scale * 1000.0)));
    nvtxRangePop();
}

/// This run's number (1-based), counted in the state file; 0 without one.
int countRun(const Settings& s)
{
    if (s.noiseState.empty())
        return 0;
    int run = 0;
    {
        std::ifstream in(s.noiseState);
        in >> run;
    }
    std::ofstream(s.noiseState, std::ios::trunc) << run + 1 << "\n";
    return run + 1;
}

/// The factor of run `run`: the fixed sequence, 1 without a state file.
double runFactor(const Settings& s, int run)
{
    if (run == 0)
        return 1.0;
    const double x = s.noisePercent / 100.0;
    const std::array<double, 5> factors { 1.0, 1.0 - x, 1.0 + x, 1.0 - x / 2, 1.0 + x / 2 };
    return factors[static_cast<std::size_t>(run - 1) % factors.size()];
}

bool parse(int argc, char** argv, Settings& s)
{
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const char* value = argv[i + 1];
        if (flag == "--requests")
            s.requests = std::atoi(value);
        else if (flag == "--decodes")
            s.decodes = std::atoi(value);
        else if (flag == "--prefill-us")
            s.prefillUs = std::atof(value);
        else if (flag == "--decode-us")
            s.decodeUs = std::atof(value);
        else if (flag == "--chunk-us")
            s.chunkUs = std::atof(value);
        else if (flag == "--noise-pct")
            s.noisePercent = std::atof(value);
        else if (flag == "--noise-state")
            s.noiseState = value;
        else if (flag == "--fail-run")
            s.failRun = std::atoi(value);
        else
            return false;
    }
    return argc % 2 == 1 && s.requests > 0 && s.decodes > 0 && s.chunkUs > 0 && s.prefillUs > 0;
}

} // namespace

int main(int argc, char** argv)
{
    Settings s;
    if (!parse(argc, argv, s)) {
        std::fprintf(stderr,
            "usage: serve_client [--requests R] [--decodes K] [--prefill-us P] [--decode-us D] "
            "[--chunk-us C] [--noise-pct X --noise-state FILE [--fail-run K]]\n");
        return 2;
    }
    const int run = countRun(s);
    scale = runFactor(s, run);
    // The first NVTX call loads the collector: made here, so that its cost is not inside "serve" (whose start
    // is the window start that time to first token is measured from).
    nvtxNameOsThreadA(static_cast<std::uint32_t>(::syscall(SYS_gettid)), "server");
    // ...and it starts its writer: measured, the first 30 ms after that lost 1-12 ms to it on a loaded machine.
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
    nvtxRangePushA("serve");
    for (int r = 0; r < s.requests; ++r) {
        double remaining = s.prefillUs;
        while (remaining > 0) {
            const double chunk = std::min(s.chunkUs, remaining);
            work("prefill", chunk);
            remaining -= chunk;
            if (remaining > 0)
                work("decode", s.decodeUs); // the running batch goes on between chunks
        }
        work(r == 0 ? "decode first token" : "decode", s.decodeUs);
        for (int k = 1; k < s.decodes; ++k)
            work("decode", s.decodeUs);
    }
    nvtxRangePop();
    return run != 0 && run == s.failRun ? 3 : 0;
}
