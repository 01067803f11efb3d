// SPDX-License-Identifier: MIT
#pragma once

// Paints a timeline scene with QPainter, on a widget or an offscreen image (the benchmark). Reads the
// model, the layout and cached draw lists; decides nothing about navigation.

#include "app/timeline/geometry/draw_list.h"
#include "app/timeline/geometry/gap_overlay.h"
#include "app/timeline/geometry/lane_layout.h"

#include <QColor>
#include <QRect>
#include <QString>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

class QPainter;

namespace gapscope::timeline {

struct StepMark {
    TimeNs start = 0;
    TimeNs end = 0;
    QString label;
    bool warmup = false;
};

/// An annotation as the timeline draws it: a bracket over [start, end) in the strip between the ruler
/// and the lanes, and with TimelineScene::annotationCallouts a box with its title and hypothesis.
struct AnnotationMark {
    /// Annotation::id, so that clicks on a bracket find the note.
    QString id;
    TimeNs start = 0;
    TimeNs end = 0;
    QString title;
    QString hypothesis;
    /// The colour of the note's status (annotationStatusColour).
    QColor colour;
    bool selected = false;
    /// The processes [first, end) whose rows the range's guide lines run down (in a comparison the notes are
    /// BASE's: BASE's block, so that they do not run through NEW's); nullopt: every row.
    std::optional<std::pair<std::uint32_t, std::uint32_t>> processes;
};

/// Everything one frame shows. Pointers are borrowed for the duration of paint().
struct TimelineScene {
    const Trace* trace = nullptr;
    const TimelineIndex* index = nullptr;
    const LaneLayout* layout = nullptr;
    const AnalysisResult* analysis = nullptr;
    const GapOverlay* gaps = nullptr;
    /// The time axis of the lanes area (its width is the widget width minus the label column).
    TimeAxis axis;
    /// Zero of the ruler (the trace start).
    TimeNs origin = 0;
    int width = 0;
    int height = 0;
    int scrollY = 0;
    int labelWidth = 240;
    int rulerHeight = 34;
    /// Gaps shorter than this get no band.
    TimeNs gapThreshold = 0;
    std::optional<std::size_t> selectedGap;
    std::optional<EventRef> selectedEvent;
    std::optional<EventRef> hoveredEvent;
    /// Launch call -> GPU op arrows to draw.
    std::vector<std::pair<EventRef, EventRef>> flows;
    std::optional<std::pair<TimeNs, TimeNs>> rangeSelection;
    std::vector<StepMark> steps;
    /// By StringId: events whose name is marked are outlined (the search's matches); null: none.
    const std::vector<bool>* highlightNames = nullptr;
    /// By DeviceIndex: devices whose gap bands are all drawn selected (a Diff dock device row); null: none.
    const std::vector<bool>* selectedDevices = nullptr;
    /// The widget has the keyboard focus: a frame around the lanes says so.
    bool focused = false;
    /// Drawn as brackets in a strip under the ruler (annotation_layer.h); the lanes start below it.
    std::vector<AnnotationMark> annotations;
    /// Also draw a callout box (title and hypothesis) for each annotation in view (exported pictures).
    bool annotationCallouts = false;
};

class TimelinePainter {
public:
    /// The steps strip at the bottom of the ruler.
    static constexpr int kStepStripHeight = 14;

    /// Paints the whole frame. `cache` must be set to scene.axis (DrawListCache::setAxis) by the caller.
    void paint(QPainter& painter, const TimelineScene& scene, DrawListCache& cache) const;

    /// Screen rectangle of the lanes area, and the mapping between screen and content/axis coordinates.
    /// The lanes start below the ruler and the annotation strip (annotationStripHeight).
    static QRect lanesRect(const TimelineScene& scene);
    /// Screen y of the top of the lanes area: rulerHeight + annotationStripHeight(scene).
    static int lanesTop(const TimelineScene& scene);
    static int contentYToScreen(const TimelineScene& scene, int contentY)
    {
        return contentY - scene.scrollY + lanesTop(scene);
    }
    static int screenYToContent(const TimelineScene& scene, int screenY)
    {
        return screenY - lanesTop(scene) + scene.scrollY;
    }
    static double axisXToScreen(const TimelineScene& scene, double x) { return x + scene.labelWidth; }
    static double screenXToAxis(const TimelineScene& scene, double x) { return x - scene.labelWidth; }
    /// Screen rectangle of an event (one depth row of its lane), if its lane is laid out.
    static std::optional<QRect> eventRect(const TimelineScene& scene, EventRef ref);
    /// The text of a row's label. A utilization lane's says its device's utilization over the analysis
    /// window and names the window ("utilization 60.57 % (gpu window)").
    static QString rowLabel(const TimelineScene& scene, const LayoutRow& row);

private:
    void paintLanes(QPainter& painter, const TimelineScene& scene, DrawListCache& cache) const;
    void paintLaneItems(
        QPainter& painter, const TimelineScene& scene, const LayoutRow& row, int top, const LaneDrawList& list) const;
    void paintUtilization(
        QPainter& painter, const TimelineScene& scene, const LayoutRow& row, int top, DrawListCache& cache) const;
    void paintGapBands(QPainter& painter, const TimelineScene& scene) const;
    void paintSelection(QPainter& painter, const TimelineScene& scene) const;
    void paintLabels(QPainter& painter, const TimelineScene& scene) const;
    void paintRuler(QPainter& painter, const TimelineScene& scene) const;
};

} // namespace gapscope::timeline
