// SPDX-License-Identifier: MIT
// Fuzz target: a `.json.gz` trace as a user opens it (ChromeTraceReader::readFile on a file holding the
// fuzz input: gzip detected by its magic, inflated as it streams, every member of a multi-member file),
// then the analysis. The seeds are real gzip traces, so most mutations hit the inflater and its errors.

#include "core/io/chrome/chrome_trace_reader.h"
#include "tests/fuzz/fuzz_analysis.h"
#include "tests/fuzz/memory_file.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace gapscope;
    const fuzz::MemoryFile file(data, size);
    ChromeReadOptions options;
    options.windowBytes = 4096; // small, so that inflated content is read in many refills
    auto trace = ChromeTraceReader::readFile(file.path(), options);
    if (trace.ok())
        fuzz::exerciseAnalysis(trace.value());
    return 0;
}
