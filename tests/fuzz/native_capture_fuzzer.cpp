// SPDX-License-Identifier: MIT
// Fuzz target: the `.gapscope` capture reader on bytes in memory (NativeTraceReader::parse), then the
// analysis. Whatever it loads, it must say it loaded no more bytes than the file has.

#include "core/io/native/native_trace_reader.h"
#include "tests/fuzz/fuzz_analysis.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace gapscope;
    auto capture
        = NativeTraceReader::parse(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.gapscope");
    if (!capture.ok())
        return 0;
    fuzz::require(capture.value().info.bytesLoaded <= size);
    fuzz::exerciseAnalysis(capture.value().trace);
    return 0;
}
