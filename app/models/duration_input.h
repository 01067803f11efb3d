// SPDX-License-Identifier: MIT
#pragma once

// Durations typed by people ("10 ms", "2.5us", "250 ns", "1 s"): what the Gaps dock's threshold field reads.

#include "core/model/event.h"

#include <QString>

#include <optional>

namespace gapscope::models {

/// Parses a duration with an optional unit: ns, µs (also "us" and "μs"), ms or s; spaces anywhere; a
/// plain number is `defaultUnitNs` (µs: 1000). Nullopt for anything else or a negative duration.
std::optional<TimeNs> parseDurationInput(const QString& text, TimeNs defaultUnitNs = 1000);

} // namespace gapscope::models
