// SPDX-License-Identifier: MIT
#pragma once

// The measured figures of an annotation's range. Computed when a note is shown or exported, never
// stored: the note keeps what a person wrote, the trace keeps what happened.

#include "core/analysis/analysis.h"
#include "core/annotations/annotation.h"

#include <vector>

namespace gapscope {

struct AnnotationFigures {
    /// The range measured: the annotation's [start, end).
    TimeNs start = 0;
    TimeNs end = 0;
    /// One entry per device the note concerns, from analyze() over the explicit window [start, end).
    std::vector<DeviceFigures> devices;
};

/// Which devices a note concerns: those of its GPU-stream lanes and its gap; failing those, every device
/// of the processes of its thread lanes; failing those (no lanes, no gap), every device of the trace.
bool annotationConcernsDevice(const Trace& trace, const Annotation& annotation, DeviceIndex device);

/// Runs analyze() with `base` but the window set to the explicit range of the note, and keeps the devices
/// the note concerns. A zero-length range gives no devices.
AnnotationFigures measureAnnotation(const Trace& trace, const Annotation& annotation, const AnalysisOptions& base = {});

} // namespace gapscope
