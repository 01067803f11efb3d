// SPDX-License-Identifier: MIT
#pragma once

// Every note that names an after trace, measured against it: what `gapscope export` (Markdown and picture) and
// the viewer's File › Export Image… both show, computed by this one function so that they cannot disagree.

#include "core/annotations/note_measurement.h"

#include <map>
#include <string>
#include <vector>

namespace gapscope {

/// The notes that name an after trace, measured against it (measureNoteAgainst()) or why they could not be, by id.
struct NoteMeasurements {
    std::map<std::string, NoteMeasurement> measurements;
    std::map<std::string, std::string> errors;
};

/// Measures each note of `notes` that names an after trace against it, with noteComparisonOptions(trace,
/// `options`); each after trace is loaded once. A path that is not absolute is taken from the folder of
/// `traceFile` (the trace the notes are on, as the sidecar stores it). A trace that cannot be read is an error
/// of each note naming it.
NoteMeasurements measureNotesAgainstAfterTraces(const Trace& trace, const std::string& traceFile,
    const std::vector<Annotation>& notes, const AnalysisOptions& options = {});

} // namespace gapscope
