// SPDX-License-Identifier: MIT
#include "cli/window_figures_json.h"
#include "core/analysis/analysis.h"

#include <nlohmann/json.hpp>

#include <string>

namespace gapscope::cli {

using nlohmann::json;

namespace {

template <typename GapCount> json figuresJson(const BasicWindowFigures<GapCount>& f)
{
    json idleByCause = json::object();
    for (int c = 0; c < kGapCauseCount; ++c)
        idleByCause[std::string(gapCauseName(static_cast<GapCause>(c)))] = f.idleByCause[c];
    return { { "span_ns", f.spanNs }, { "busy_ns", f.busyNs }, { "idle_ns", f.idleNs },
        { "utilization", f.utilization }, { "gap_count", f.gapCount }, { "idle_by_cause_ns", idleByCause },
        { "exposed_ns",
            { { "compute", f.exposed.compute }, { "communication", f.exposed.communication },
                { "memcpy", f.exposed.memcpy }, { "idle", f.exposed.idle } } } };
}

} // namespace

json windowFiguresJson(const WindowFigures& figures)
{
    return figuresJson(figures);
}

json windowFiguresJson(const WindowFiguresDelta& delta)
{
    return figuresJson(delta);
}

} // namespace gapscope::cli
