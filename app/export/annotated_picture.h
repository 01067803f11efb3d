// SPDX-License-Identifier: MIT
#pragma once

// The annotated screenshot (File › Export image…, `gapscope export --png`): a header with the trace, the
// range and its figures, the timeline lanes of that range with the gap bands and the notes' brackets
// and callouts, and a legend of the colours. Qt GUI only (QPainter on a QImage or a QPdfWriter), no
// widgets, so it runs headless and off the GUI thread.

#include "app/timeline/timeline_painter.h"
#include "core/annotations/annotation.h"
#include "core/annotations/note_measurement.h"
#include "core/io/common/io_error.h"

#include <QFont>
#include <QImage>
#include <QRect>
#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QPainter;

namespace gapscope::picture {

enum class PictureFormat { Png, Pdf };

/// The format a file name asks for: ".png" or ".pdf" (any case); nullopt for anything else.
std::optional<PictureFormat> pictureFormatFor(const std::string& path);

/// What to draw. The pointers are borrowed until the picture is painted; the caller keeps them alive
/// (and unchanged: painting may run on another thread).
struct PictureRequest {
    const Trace* trace = nullptr;
    const timeline::TimelineIndex* index = nullptr;
    const AnalysisResult* analysis = nullptr;
    const timeline::GapOverlay* gaps = nullptr;
    std::vector<Annotation> annotations;
    /// Notes measured against their after trace (by id): a line each in the header with the before/after figures,
    /// the verdict and the window they were computed over; and why the others naming one were not measured.
    std::map<std::string, NoteMeasurement> measurements;
    std::map<std::string, std::string> measurementErrors;
    /// The range shown, [start, end) on the trace clock. Precondition: end > start.
    TimeNs start = 0;
    TimeNs end = 1;
    /// Zero of the ruler and of the times in the header (the trace start).
    TimeNs origin = 0;
    /// The trace file's name, first in the header.
    QString traceName;
    /// What the range is ("gpu window", "view", "selected range"), said in the header.
    QString rangeName;
    /// The range is the extent of the analysis windows: each device's figures are over its own window (a
    /// comparison's or a job's processes each have theirs), not over the extent, where the time outside a
    /// process's window would count as its idle time.
    bool ownWindows = false;
    /// Lines a comparison's header ends with: the verdict line and the window it was computed over, as the
    /// Diff dock shows them.
    QStringList comparisonLines;
    int width = 1920;
    int height = 1080;
    /// The titled blocks of a comparison (LoadedTrace::blocks), laid out as the viewer does; empty otherwise.
    std::vector<timeline::ProcessBlock> blocks;
    /// Groups to fold (the viewer's state); nullopt: every group open, folded further only to fit.
    std::optional<timeline::CollapseState> collapse;
    /// Gaps shorter than this get no band (the viewer's "Gaps at least").
    TimeNs gapThreshold = 100'000;
};

/// Where everything goes for a request: pure geometry, so that tests can find the pixels of a lane, a
/// gap band or a callout in the painted picture.
struct PicturePlan {
    QRect header;
    /// The timeline; `scene` is in coordinates relative to its top-left corner.
    QRect timeline;
    QRect legend;
    std::shared_ptr<const timeline::LaneLayout> layout;
    timeline::TimelineScene scene;
    /// Lines of the header, laid out (text and cause swatches).
    int headerLines = 0;
};

/// From the first to the last window range of any process of an analysis; nullopt when every window is
/// empty (no GPU activity).
std::optional<std::pair<TimeNs, TimeNs>> windowExtent(const AnalysisResult& analysis);
/// "gpu window (first to last GPU activity)", "steps window (6 step(s))"...: the header's name of it.
QString windowRangeName(const AnalysisResult& analysis);

/// The fonts of the picture, in pixels, so that PNG and PDF look the same at any resolution.
QFont pictureFont();
QFont pictureTitleFont();

/// Lays out a request. Chooses lane heights and nesting rows so that every lane of the range fits
/// (folding the innermost rows of deep stacks first, then whole processes from the last one).
PicturePlan planPicture(const PictureRequest& request);

/// Paints the picture into [0, width) x [0, height) of `painter`.
void paintPicture(QPainter& painter, const PictureRequest& request, const PicturePlan& plan);

/// The picture as an image of request.width x request.height.
QImage renderPicture(const PictureRequest& request);

/// Writes the picture to `path` as `format`, or by the path's extension when nullopt: PNG, or PDF (one
/// page of the picture's aspect, the same drawing). Errors name the file.
IoResult<void> writePicture(
    const PictureRequest& request, const std::string& path, std::optional<PictureFormat> format = std::nullopt);

} // namespace gapscope::picture
