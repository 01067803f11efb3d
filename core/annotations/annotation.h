// SPDX-License-Identifier: MIT
#pragma once

// An annotation: a written, falsifiable hypothesis tied to a time range of a trace. Plain data, no Qt;
// the figures of its range are never stored here but measured when shown (annotation_figures.h).

#include "core/model/trace.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

enum class AnnotationStatus : std::uint8_t { Open, Supported, Refuted, Inconclusive };

/// "open", "supported", "refuted", "inconclusive": the names the sidecar and the report use.
std::string_view annotationStatusName(AnnotationStatus status);
std::optional<AnnotationStatus> annotationStatusFromName(std::string_view name);
/// The colour a status is drawn in ("#rrggbb"), so that brackets say at a glance which notes are settled.
std::string_view annotationStatusColour(AnnotationStatus status);

/// A lane named by what stays true between loads of the same trace (LaneIndex does not): a host thread
/// is (pid, tid); a GPU stream is (pid, device ordinal, stream id).
struct LaneIdentity {
    enum class Kind : std::uint8_t { Thread, Stream };
    Kind kind = Kind::Thread;
    std::int64_t pid = 0;
    std::int64_t tid = 0; // Thread only
    int deviceId = 0; // Stream only
    std::int64_t stream = 0; // Stream only

    static LaneIdentity thread(std::int64_t pid, std::int64_t tid) { return { Kind::Thread, pid, tid, 0, 0 }; }
    static LaneIdentity gpuStream(std::int64_t pid, int deviceId, std::int64_t stream)
    {
        return { Kind::Stream, pid, 0, deviceId, stream };
    }
    friend bool operator==(const LaneIdentity&, const LaneIdentity&) = default;
};

/// The identity of a lane of a trace. Precondition: `lane` is a valid index.
LaneIdentity laneIdentity(const Trace& trace, LaneIndex lane);
/// The lane with that identity in this trace, if it has one.
std::optional<LaneIndex> findLane(const Trace& trace, const LaneIdentity& identity);
/// "pid 123 thread 456" / "pid 123 GPU 0 stream 7".
std::string describeLane(const LaneIdentity& identity);

/// The idle gap an annotation was created from, by stable identity. `stream` is set for a stream gap.
struct GapOrigin {
    std::int64_t pid = 0;
    int deviceId = 0;
    std::optional<std::int64_t> stream;
    TimeNs start = 0;
    TimeNs end = 0;
    /// The cause the analysis gave when the note was made ("host", "sync", ...): the analysis may change.
    std::string cause;
    friend bool operator==(const GapOrigin&, const GapOrigin&) = default;
};

/// The fields of an optimization record (docs/definitions.md), in the order an experiment fills them.
struct OptimizationRecord {
    std::string problem;
    std::string baseline;
    std::string hypothesis;
    std::string change;
    std::string correctnessCheck;
    std::string performanceChange;
    std::string sideEffects;
    friend bool operator==(const OptimizationRecord&, const OptimizationRecord&) = default;
};

/// One `--scale 'REGEX=F'` rule of a what-if (what_if.h), as the prediction keeps it.
struct PredictedScale {
    std::string pattern;
    double factor = 1.0;
    friend bool operator==(const PredictedScale&, const PredictedScale&) = default;
};

/// What a what-if of the BASE trace predicts the change will do to the step time, written before the change is
/// made so that the measurement can check it (predicted_change.h). `measuredP50Ns`/`predictedP50Ns` are the p50 of
/// the windows it was computed over: `windowCount` steps (warm-up `warmupSteps` left out) from `windowStartNs` to
/// `windowEndNs`, or one explicit window.
struct PredictedChange {
    std::vector<PredictedScale> scales;
    /// Host waits left out, by index in each window (what_if.h WhatIfChanges::dropSyncs).
    std::vector<std::int64_t> droppedSyncs;
    std::optional<TimeNs> launchDelayCapNs;
    /// true: one window per counted step; false: one explicit window.
    bool steps = true;
    int warmupSteps = 0;
    std::int64_t windowCount = 0;
    TimeNs windowStartNs = 0;
    TimeNs windowEndNs = 0;
    TimeNs measuredP50Ns = 0;
    TimeNs predictedP50Ns = 0;
    /// ISO 8601 UTC, when the prediction was made.
    std::string made;

    TimeNs changeNs() const { return predictedP50Ns - measuredP50Ns; }
    friend bool operator==(const PredictedChange&, const PredictedChange&) = default;
};

struct Annotation {
    /// Stable, unique within a sidecar; AnnotationStore::add() assigns one when empty.
    std::string id;
    /// [start, end) in ns on the trace clock.
    TimeNs start = 0;
    TimeNs end = 0;
    /// Lanes the note concerns; empty: the whole trace.
    std::vector<LaneIdentity> lanes;
    std::optional<GapOrigin> gap;
    std::string title;
    OptimizationRecord record;
    AnnotationStatus status = AnnotationStatus::Open;
    /// The trace of the run with the change (the "after" of the experiment), as the user named it: absolute, or
    /// relative to the folder of the trace the note is on. Empty: not measured against one yet
    /// (note_measurement.h).
    std::string afterTrace;
    /// The step-time change a what-if predicted for the note's change, if one was recorded.
    std::optional<PredictedChange> prediction;
    /// "#rrggbb".
    std::string colour = "#e69f00";
    /// ISO 8601 UTC, "2024-05-01T12:34:56Z".
    std::string created;
    std::string modified;
    /// Keys of this annotation's JSON object that this version does not know (written by a newer
    /// GapScope), as a JSON object text; written back unchanged. Empty when there are none.
    std::string unknownFieldsJson;

    TimeNs duration() const { return end - start; }
    friend bool operator==(const Annotation&, const Annotation&) = default;
};

/// True for "#rrggbb" (hex digits of either case).
bool isValidColour(std::string_view colour);

/// ISO 8601 UTC with second precision: "2024-05-01T12:34:56Z".
std::string formatIsoUtc(std::chrono::system_clock::time_point time);
/// A fresh random id in the UUID version 4 text form ("0f8e...-4...-...").
std::string newAnnotationId();

} // namespace gapscope
