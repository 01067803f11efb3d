// SPDX-License-Identifier: MIT
// Fuzz target: the Nsight Systems SQLite importer (NsysSqliteReader::readFile) on a database file holding the
// fuzz input (a memfd, so SQLite reads it through the same path as a user's export), then the analysis.

#include "core/io/nsys/nsys_sqlite_reader.h"
#include "tests/fuzz/fuzz_analysis.h"
#include "tests/fuzz/memory_file.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace gapscope;
    const fuzz::MemoryFile file(data, size);
    auto trace = NsysSqliteReader::readFile(file.path());
    if (trace.ok())
        fuzz::exerciseAnalysis(trace.value());
    return 0;
}
