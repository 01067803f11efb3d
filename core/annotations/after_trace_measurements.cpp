// SPDX-License-Identifier: MIT
#include "core/annotations/after_trace_measurements.h"

#include "core/io/trace_file.h"

#include <filesystem>

namespace gapscope {

NoteMeasurements measureNotesAgainstAfterTraces(const Trace& trace, const std::string& traceFile,
    const std::vector<Annotation>& notes, const AnalysisOptions& options)
{
    NoteMeasurements results;
    const AnalysisOptions comparison = noteComparisonOptions(trace, options);
    std::map<std::string, IoResult<Trace>> afterTraces;
    for (const Annotation& note : notes) {
        if (note.afterTrace.empty())
            continue;
        std::filesystem::path path(note.afterTrace);
        if (path.is_relative())
            path = std::filesystem::path(traceFile).parent_path() / path;
        auto it = afterTraces.find(path.string());
        if (it == afterTraces.end())
            it = afterTraces.emplace(path.string(), loadTraceFile(path.string())).first;
        if (!it->second)
            results.errors[note.id] = it->second.error().toString();
        else
            results.measurements[note.id] = measureNoteAgainst(trace, it->second.value(), note, comparison);
    }
    return results;
}

} // namespace gapscope
