// SPDX-License-Identifier: MIT
#pragma once

// Text about one thing on the timeline (an event, a gap, a selected range) for the tooltip and the
// details panel. Links to other events are `event:LANE:INDEX` URLs the panel turns into selections.

#include "core/analysis/analysis.h"

#include <QString>

#include <optional>
#include <utility>

namespace gapscope::models {

/// "+12.345 ms" relative to the trace start (formatRelativeTime).
QString relativeTime(TimeNs t, TimeNs origin);
QString durationText(TimeNs ns);
QString laneDescription(const Trace& trace, LaneIndex lane);
/// "rank 1 GPU 0" (or "GPU 0" when the process has no rank): how a device is named in every list.
QString deviceName(const Trace& trace, DeviceIndex device);

/// A few lines: name, kind, start, duration, lane (plain text for QToolTip).
QString eventTooltip(const Trace& trace, EventRef ref, TimeNs origin);
/// The details panel for one event: timing, place, correlation and launch, copy bandwidth, grid and
/// block, every other argument.
QString eventDetailsHtml(const Trace& trace, EventRef ref, TimeNs origin);
/// The details panel for a gap: cause as a hypothesis, its evidence with links, what to try.
QString gapDetailsHtml(const Trace& trace, const AnalysisResult& result, std::size_t gap, TimeNs origin);
/// The details panel for a selected range, from an analysis over the explicit window [t0, t1).
QString rangeDetailsHtml(
    const Trace& trace, const AnalysisResult& rangeResult, std::pair<TimeNs, TimeNs> range, TimeNs origin);
/// One line for the Gaps dock: what overlapped the gap (its evidence summary, worked out now).
QString gapEvidenceLine(const Trace& trace, const Gap& gap, TimeNs launchThresholdNs = 30'000);

/// Parses an `event:LANE:INDEX` link.
std::optional<EventRef> eventFromLink(const QString& link, const Trace& trace);
QString eventLink(EventRef ref);

} // namespace gapscope::models
