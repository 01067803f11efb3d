// SPDX-License-Identifier: MIT
#pragma once

// Paints the Job overview: one row per rank, a heatmap of its utilization per time bin (from a precomputed
// JobHeatmap, never from events), a strip of skew markers (one tick per matched collective, or per pixel column
// the largest skew among them: height and colour show the skew), the straggler's row marked, and the arrivals of
// a selected collective; under the rows a legend of the colours. On a widget or an offscreen image (the benchmark).

#include "app/job/job_data.h"
#include "app/timeline/geometry/time_axis.h"

#include <QImage>
#include <QRect>

#include <optional>

class QPainter;

namespace gapscope::timeline {

struct JobOverviewScene {
    const JobData* job = nullptr;
    /// May cover another range than `axis` (computed for the previous zoom): it is drawn where its range falls.
    const JobHeatmap* heatmap = nullptr;
    /// The time axis of the heatmap area (shared with the timeline's lanes).
    TimeAxis axis;
    /// The whole overview; the time area starts at x = timeLeft and is axis.width wide.
    QRect rect;
    int timeLeft = 240;
    std::optional<std::size_t> selectedCollective;
};

class JobOverviewPainter {
public:
    static constexpr int kMarkerHeight = 22;
    /// The legend strip under the rows: what the heatmap's colours and the skew ticks mean.
    static constexpr int kLegendHeight = 18;

    void paint(QPainter& painter, const JobOverviewScene& scene) const;

    /// The rows' area, and the row under a y (none outside it).
    static QRect rowsRect(const JobOverviewScene& scene);
    static double rowHeight(const JobOverviewScene& scene);
    static std::optional<std::size_t> rowAt(const JobOverviewScene& scene, int y);
    /// The collective whose marker is under x (the largest skew within `slop` pixels), if any.
    static std::optional<std::size_t> collectiveAt(const JobOverviewScene& scene, int x, int slop = 4);
    /// The legend strip, and within it the colour ramp (busy share 0 % at its left, 100 % at its right).
    static QRect legendRect(const JobOverviewScene& scene);
    static QRect legendRampRect(const JobOverviewScene& scene);
    /// The height the overview wants for a number of ranks.
    static int preferredHeight(std::size_t ranks);
    /// The heatmap colour of a utilization (negative: no data).
    static QRgb colourOf(float utilization);
    /// The heatmap's values as an image, one pixel per bin (x) and rank (y): what paint() draws scaled.
    static QImage makeImage(const JobHeatmap& heatmap);

private:
    const QImage& imageOf(const JobHeatmap& heatmap) const;
    void paintMarkers(QPainter& painter, const JobOverviewScene& scene) const;
    void paintLabels(QPainter& painter, const JobOverviewScene& scene) const;
    void paintSelection(QPainter& painter, const JobOverviewScene& scene) const;
    void paintLegend(QPainter& painter, const JobOverviewScene& scene) const;

    /// JobHeatmap::id of the heatmap m_image shows.
    mutable std::uint64_t m_imageOf = 0;
    mutable QImage m_image;
    mutable const JobData* m_skewSource = nullptr;
    mutable TimeNs m_maxSkew = 0;
};

} // namespace gapscope::timeline
