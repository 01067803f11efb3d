// SPDX-License-Identifier: MIT
// Writes a synthetic Kineto trace (tests/bench/kineto_trace_generator.h) of any size to a file, streaming, so
// that traces larger than memory can be made for measurements:
//
//   gapscope_make_kineto_trace OUT.json GPU_OPS [STREAMS [THREADS]]     (OUT.json.gz: gzip level 1)
//
// 2,000,000 GPU ops make a 10 M-event, ~3.2 GB file (README, "Measured performance").

#include "tests/bench/kineto_trace_generator.h"

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv)
{
    if (argc < 3 || argc > 5) {
        std::fprintf(stderr, "usage: gapscope_make_kineto_trace OUT.json[.gz] GPU_OPS [STREAMS [THREADS]]\n");
        return 2;
    }
    const std::string out = argv[1];
    char* end = nullptr;
    const unsigned long long gpuOps = std::strtoull(argv[2], &end, 10);
    if (*end != '\0' || gpuOps == 0) {
        std::fprintf(stderr, "gapscope_make_kineto_trace: GPU_OPS must be a positive integer, not '%s'\n", argv[2]);
        return 2;
    }
    gapscope::bench::KinetoTraceSpec spec;
    spec.gpuEvents = static_cast<std::size_t>(gpuOps);
    spec.streams = argc > 3 ? std::atoi(argv[3]) : 4;
    spec.threads = argc > 4 ? std::atoi(argv[4]) : 2;
    if (spec.streams <= 0 || spec.threads <= 0) {
        std::fprintf(stderr, "gapscope_make_kineto_trace: STREAMS and THREADS must be positive\n");
        return 2;
    }
    const bool gzip = out.size() > 3 && out.compare(out.size() - 3, 3, ".gz") == 0;
    gapscope::bench::KinetoTraceStats stats;
    if (!gapscope::bench::writeKinetoJsonFile(out, spec, gzip, &stats)) {
        std::fprintf(stderr, "gapscope_make_kineto_trace: cannot write %s\n", out.c_str());
        return 1;
    }
    std::printf("%s: %zu traceEvents (%zu GPU ops: %zu kernels, %zu memcpys, %zu memsets), %zu bytes of JSON\n",
        out.c_str(), stats.events, stats.gpuEvents, stats.kernels, stats.memcpys, stats.memsets, stats.bytes);
    return 0;
}
