// SPDX-License-Identifier: MIT
#pragma once

#include "cli/argument_parser.h"

#include "core/analysis/analysis.h"
#include "core/annotations/annotation.h"
#include "core/annotations/note_measurement.h"
#include "core/io/common/io_error.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gapscope::cli {

/// The parsed command line of `gapscope export TRACE [--markdown OUT] [--png OUT] [--window ...] [--size WxH]`.
struct ExportOptions {
    std::string trace;
    /// Markdown report of the sidecar's annotations ("-": standard output).
    std::optional<std::string> markdown;
    /// Annotated screenshot.
    std::optional<std::string> png;
    /// The screenshot is a PDF page rather than a PNG: --png OUT with OUT ending in ".pdf" (any case).
    bool pictureIsPdf = false;
    /// The range the picture shows: gpu (default), trace, steps or an explicit T0:T1.
    WindowSpec window;
    int width = 1920;
    int height = 1080;
    /// Activity set, launch threshold, step pattern for the figures (the report's window is each note's range).
    AnalysisOptions analysis;
};

/// Parses `export` arguments: the options, or why they are wrong.
ParseResult<ExportOptions> parseExportOptions(const std::vector<std::string>& args);

/// The notes that name an after trace, measured against it (measureNoteAgainst()) or why they could not be, by id.
struct NoteResults {
    std::map<std::string, NoteMeasurement> measurements;
    std::map<std::string, std::string> errors;
};

/// Draws the picture of `gapscope export --png`: the lanes over options.window, the gap bands, the
/// annotations' callouts and a header (with the measured notes' before/after figures), at options.width x
/// options.height, written to *options.png.
using PngExporter = std::function<IoResult<void>(const Trace& trace, const std::vector<Annotation>& annotations,
    const ExportOptions& options, const NoteResults& measured)>;
/// Installs the renderer. The viewer's renderer needs Qt, which gapscope_cli does not link, so the
/// executable registers it at start-up when it is built with the viewer; without it --png fails clearly.
void setPngExporter(PngExporter exporter);
bool hasPngExporter();

} // namespace gapscope::cli
