// SPDX-License-Identifier: MIT
#pragma once

// The sidecar format: `<trace>.gapscope.json`, a JSON object
//     { "format": "gapscope-annotations", "version": 1, "trace": "<trace file name>", "annotations": [...] }
// Each annotation is a flat object: id, start, end (ns on the trace clock), lanes ([{pid, tid}] or
// [{pid, device, stream}]), gap ({pid, device, stream?, start, end, cause}), title, problem, baseline,
// hypothesis, change, correctnessCheck, performanceChange, sideEffects, afterTrace (optional: the trace of the
// run with the change, note_measurement.h), prediction (optional: what a what-if predicted, {scale: [{pattern,
// factor}], dropSyncs, launchDelayMaxNs?, window: {kind, warmup, count, start, end}, measuredP50Ns,
// predictedP50Ns, changeNs, made}, predicted_change.h), status, colour, created, modified.
// Changes that only add keys keep version 1 (afterTrace and prediction were added so: older builds keep them as unknown
// keys and write them back; older sidecars, without them, load as before): readers keep the top-level and
// per-annotation keys they do not know and write them back (keys added inside "lanes", "gap" or "prediction" entries
// are not kept).

#include "core/annotations/annotation.h"
#include "core/io/common/io_error.h"

#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

inline constexpr std::string_view kAnnotationFormatName = "gapscope-annotations";
inline constexpr int kAnnotationFormatVersion = 1;

/// The content of one sidecar.
struct AnnotationDocument {
    std::vector<Annotation> annotations;
    /// File name of the trace, for a person who opens the sidecar; not used to find anything.
    std::string traceName;
    /// Top-level keys this version does not know, as a JSON object text ("" when none).
    std::string unknownFieldsJson;
};

/// Parses a sidecar. Every error names `file` and the byte offset of the problem: where the JSON breaks,
/// or the key or object that holds a wrong value. A newer format version is refused, never half-read.
IoResult<AnnotationDocument> parseAnnotationDocument(std::string_view text, const std::string& file);

/// The sidecar text (indented, keys in a fixed order, ending with a newline).
std::string serializeAnnotationDocument(const AnnotationDocument& document);

} // namespace gapscope
