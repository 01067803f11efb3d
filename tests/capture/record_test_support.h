// SPDX-License-Identifier: MIT
#pragma once

// Helpers of the recording tests: run a test client under the collector and look at what it left.

#include "capture/launcher/program_recorder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gapscope::capture::test {

/// Records `program` with the collector built next to the tests, flushing every 20 ms.
inline RecordOptions clientOptions(const std::string& program, std::vector<std::string> arguments = {})
{
    RecordOptions options;
    options.program = program;
    options.arguments = std::move(arguments);
    options.injectionLibrary = GAPSCOPE_INJECT_LIBRARY;
    options.flushIntervalMs = 20;
    return options;
}

/// Collects what a recording reports while it runs.
class CollectingObserver final : public RecordObserver {
public:
    void onOutput(bool isStderr, std::string_view text) override { (isStderr ? err : out) += text; }
    void onProgress(const RecordProgress& progress) override { updates.push_back(progress); }
    void onNote(std::string_view text) override { notes.emplace_back(text); }
    std::string out;
    std::string err;
    std::vector<RecordProgress> updates;
    std::vector<std::string> notes;
};

/// Names of the events of a lane, in time order.
inline std::vector<std::string> namesOf(const Trace& trace, const Lane& lane)
{
    std::vector<std::string> names;
    for (const Event& e : lane.events)
        names.emplace_back(trace.name(e));
    return names;
}

/// The thread lane of a process with this name, or nullptr.
inline const Lane* threadNamed(const Trace& trace, ProcessIndex process, std::string_view name)
{
    for (const Lane& lane : trace.lanes()) {
        if (lane.kind == LaneKind::CpuThread && lane.process == process && lane.name == name)
            return &lane;
    }
    return nullptr;
}

/// The events of a kind on a lane, "name@depth" each, in time order.
inline std::vector<std::string> shapeOf(const Trace& trace, const Lane& lane, EventKind kind)
{
    std::vector<std::string> shape;
    for (const Event& e : lane.events) {
        if (e.kind == kind)
            shape.push_back(std::string(trace.name(e)) + "@" + std::to_string(e.depth));
    }
    return shape;
}

} // namespace gapscope::capture::test
