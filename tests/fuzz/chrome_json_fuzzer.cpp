// SPDX-License-Identifier: MIT
// Fuzz target: Chrome / Kineto trace-event JSON from memory (ChromeTraceReader::parse), then the analysis.
// The same bytes are read twice, with the reader's default window and with a 64-byte one (every item then
// straddles window boundaries and is parsed again after a refill): both must give the same trace.

#include "core/io/chrome/chrome_trace_reader.h"
#include "tests/fuzz/fuzz_analysis.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

std::size_t eventCount(const gapscope::Trace& trace)
{
    std::size_t count = 0;
    for (const gapscope::Lane& lane : trace.lanes())
        count += lane.events.size();
    return count;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace gapscope;
    const std::string_view json(reinterpret_cast<const char*>(data), size);
    auto whole = ChromeTraceReader::parse(json, "fuzz.json");
    ChromeReadOptions tiny;
    tiny.windowBytes = 64;
    auto windowed = ChromeTraceReader::parse(json, "fuzz.json", tiny);
    fuzz::require(whole.ok() == windowed.ok());
    if (!whole.ok()) {
        fuzz::require(whole.error().byteOffset == windowed.error().byteOffset);
        return 0;
    }
    const Trace& trace = whole.value();
    fuzz::require(eventCount(trace) == eventCount(windowed.value()));
    fuzz::require(trace.skippedEvents() == windowed.value().skippedEvents());
    fuzz::exerciseAnalysis(trace);
    return 0;
}
