// SPDX-License-Identifier: MIT
#pragma once

// The hypotheses report: one Markdown section per annotation with its record and the figures measured
// over its range, so that a colleague can read the reasoning and the numbers without GapScope.

#include "core/analysis/analysis.h"
#include "core/annotations/annotation.h"
#include "core/annotations/note_measurement.h"

#include <map>
#include <string>
#include <vector>

namespace gapscope {

struct MarkdownReportOptions {
    /// Shown in the title (the trace's file name).
    std::string traceName;
    /// Where the notes came from (the sidecar path), shown under the title; empty: not shown.
    std::string notesSource;
    /// Activity set, launch threshold, step pattern; the window is replaced by each note's range.
    AnalysisOptions analysis;
    /// Notes measured against their after trace (Annotation::afterTrace), by note id: their section shows the
    /// before/after figures and the verdict (measureNoteAgainst()).
    std::map<std::string, NoteMeasurement> measurements;
    /// Notes whose after trace could not be measured, by note id: why (e.g. the file cannot be read).
    std::map<std::string, std::string> measurementErrors;
};

/// The report. Times are shown from the start of the trace (Trace::timeSpan()) and in trace-clock ns.
/// Per note: status, range, lanes, the gap it came from, created/modified, the seven record fields
/// (empty ones marked as not filled in), and per device of the note (annotation_figures.h) a table of
/// window, busy, idle, utilization, gap count, idle by cause and exposed time; for a note with an after trace,
/// the before/after table, the verdict and the proposed status (options.measurements).
std::string writeMarkdownReport(
    const Trace& trace, const std::vector<Annotation>& annotations, const MarkdownReportOptions& options);

/// Where the report of a trace's notes goes by default: next to the trace, named after it without its trace
/// suffixes ("run/worker0.123.pt.trace.json.gz" -> "run/worker0.123-hypotheses.md").
std::string defaultHypothesesReportPath(const std::string& tracePath);

} // namespace gapscope
