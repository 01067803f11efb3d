// SPDX-License-Identifier: MIT
#pragma once

// The text parts of the annotated picture: the header (trace, range, per device utilization and idle
// time by cause) and the legend of the colours. Both are flowing lines of text and colour swatches,
// measured and painted by the same code.

#include "app/export/annotated_picture.h"

#include <QColor>

#include <array>

namespace gapscope::picture {

/// The figures of one device over the picture's range.
struct DeviceSummary {
    QString label;
    TimeNs spanNs = 0;
    TimeNs busyNs = 0;
    std::size_t gapCount = 0;
    std::array<TimeNs, kGapCauseCount> idleByCause {};
    /// Idle time of the range outside the analysis window, where there are no gaps and so no causes (a view
    /// wider than the gpu window: before the first and after the last GPU activity). With it the causes add
    /// up to the idle time: spanNs - busyNs = sum(idleByCause) + outsideWindowNs.
    TimeNs outsideWindowNs = 0;
    /// The window the figures are over when it is not the picture's range (PictureRequest::ownWindows).
    std::optional<std::pair<TimeNs, TimeNs>> ownWindow;
    double utilization() const { return spanNs > 0 ? static_cast<double>(busyNs) / static_cast<double>(spanNs) : 0.0; }
};

/// Per device: the analysis figures when the range is the device's analysis window (or with
/// request.ownWindows), otherwise busy time (all GPU activity) and the device gaps clipped to the range, and
/// the rest of the idle time as outside the analysis window: every figure over the one range the header
/// states, or over the device's own window, which its line then states. In a comparison the devices come block
/// by block (Base, then New), each label starting with its block's side ("Base: GPU 0 ...").
std::vector<DeviceSummary> summarizeDevices(const PictureRequest& request);

/// One line per note of the request that names an after trace, in the notes' order: its before/after step p50,
/// the verdict of `gapscope diff`, the figure of its cause and the window of each run they were computed over, and
/// the proposed status; or why it was not measured. The header ends with these lines.
QStringList measuredNoteLines(const PictureRequest& request);

/// The text of the header, a string per line before wrapping: the trace and range, then each device's
/// line, the comparison's lines and the measured notes' lines, as painted.
QStringList headerLines(const PictureRequest& request);

/// Height of the header (or the legend) laid out at `width`.
int headerHeight(const PictureRequest& request, int width);
int legendHeight(const PictureRequest& request, int width);

void paintHeader(QPainter& painter, const PictureRequest& request, const QRect& rect);
void paintLegend(QPainter& painter, const PictureRequest& request, const QRect& rect);

/// The colour a gap band has over a white lane: what a reader matches the legend swatch against.
QColor bandOnWhite(GapCause cause);

} // namespace gapscope::picture
