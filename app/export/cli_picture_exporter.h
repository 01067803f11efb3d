// SPDX-License-Identifier: MIT
#pragma once

// `gapscope export --png OUT` (or OUT.pdf): the annotated picture drawn headless by the viewer's renderer.
// The executable installs it with cli::setPngExporter when built with Qt.

#include "app/export/annotated_picture.h"
#include "app/timeline/geometry/gap_overlay.h"
#include "app/timeline/geometry/timeline_index.h"
#include "cli/export_options.h"

#include <memory>

namespace gapscope::picture {

/// What the picture of `gapscope export` is drawn from. `request` points into the other members, so a
/// CliPicture stays where it was made (it is handed out by unique_ptr).
struct CliPicture {
    AnalysisResult analysis;
    timeline::TimelineIndex index;
    timeline::GapOverlay gaps;
    PictureRequest request;
};

/// Analyses the trace over options.window (device gaps only) and makes the request for the picture of
/// that window (the first to the last window range of any process; the whole trace when the window is
/// empty). Fails for a trace without events.
/// `measured`: the notes measured against their after traces (their lines in the header).
IoResult<std::unique_ptr<CliPicture>> prepareCliPicture(const Trace& trace, const std::vector<Annotation>& annotations,
    const cli::ExportOptions& options, const cli::NoteResults& measured = {});

/// Analyses the trace over options.window, draws the picture of that window with the annotations at
/// options.width x options.height and writes it to *options.png (PDF when options.pictureIsPdf).
/// Creates a QGuiApplication for the call when there is none, on the offscreen platform unless
/// QT_QPA_PLATFORM says otherwise, so it needs no display. Errors name the file.
IoResult<void> exportPictureForCli(const Trace& trace, const std::vector<Annotation>& annotations,
    const cli::ExportOptions& options, const cli::NoteResults& measured = {});

} // namespace gapscope::picture
