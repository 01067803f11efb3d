// SPDX-License-Identifier: MIT
#include "app/export/annotated_picture.h"

#include "app/export/picture_header.h"
#include "app/timeline/annotation_layer.h"
#include "core/annotations/plain_note_text.h"

#include <QFile>
#include <QFontMetrics>
#include <QImageWriter>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>

#include <algorithm>
#include <array>
#include <cctype>

namespace gapscope::picture {

namespace {

constexpr int kRulerHeight = 34;
// The picture's resolution for PDF: one picture pixel is one CSS pixel, so the page has the picture's
// aspect and its text the same size relative to the lanes.
constexpr int kPdfDpi = 96;

constexpr int kMaxRowHeight = 30;
constexpr int kMaxUtilizationHeight = 200;

/// From tall rows with deep stacks to short rows with one level: the first that fits is used.
struct MetricsChoice {
    int rowHeight;
    int maxDepthRows;
    int utilizationHeight;
};
constexpr std::array<MetricsChoice, 10> kMetricsChoices { {
    { 20, 12, 30 },
    { 18, 10, 28 },
    { 17, 8, 26 },
    { 16, 6, 24 },
    { 16, 4, 22 },
    { 15, 3, 20 },
    { 14, 2, 18 },
    { 13, 1, 16 },
    { 11, 1, 14 },
    { 9, 1, 12 },
} };

/// Nesting rows each lane needs for its events in [t0, t1): deep stacks elsewhere in the trace take no room.
std::vector<int> depthsInRange(const Trace& trace, TimeNs t0, TimeNs t1)
{
    std::vector<int> depths(trace.lanes().size(), 1);
    for (std::size_t l = 0; l < trace.lanes().size(); ++l) {
        const Lane& lane = trace.lanes()[l];
        const auto [first, last] = lane.visibleRange(t0, t1);
        int deepest = 0;
        for (std::size_t i = first; i < last; ++i) {
            const Event& event = lane.events[i];
            const bool overlaps
                = event.end > event.start ? event.start < t1 && event.end > t0 : event.start >= t0 && event.start < t1;
            if (overlaps)
                deepest = std::max(deepest, static_cast<int>(event.depth));
        }
        depths[l] = deepest + 1;
    }
    return depths;
}

/// In a comparison the notes are BASE's: their guides stay in BASE's block (the first), as in the viewer.
std::vector<timeline::AnnotationMark> marksOf(
    const std::vector<Annotation>& annotations, const std::vector<timeline::ProcessBlock>& blocks)
{
    std::vector<timeline::AnnotationMark> marks;
    for (const Annotation& a : annotations) {
        const std::string_view colour = annotationStatusColour(a.status);
        marks.push_back({ QString::fromStdString(a.id), a.start, a.end, QString::fromStdString(plainNoteText(a.title)),
            QString::fromStdString(plainNoteText(a.record.hypothesis)),
            QColor(QString::fromUtf8(colour.data(), static_cast<qsizetype>(colour.size()))), false });
        if (!blocks.empty())
            marks.back().processes = std::pair(blocks.front().firstProcess, blocks.front().endProcess);
    }
    return marks;
}

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

} // namespace

std::optional<PictureFormat> pictureFormatFor(const std::string& path)
{
    const std::string name = lower(path);
    if (name.ends_with(".png"))
        return PictureFormat::Png;
    if (name.ends_with(".pdf"))
        return PictureFormat::Pdf;
    return std::nullopt;
}

std::optional<std::pair<TimeNs, TimeNs>> windowExtent(const AnalysisResult& analysis)
{
    std::optional<std::pair<TimeNs, TimeNs>> range;
    for (const Window& window : analysis.windows) {
        if (window.ranges.intervals().empty())
            continue;
        range = range ? std::make_pair(std::min(range->first, window.start()), std::max(range->second, window.end()))
                      : std::make_pair(window.start(), window.end());
    }
    return range;
}

QString windowRangeName(const AnalysisResult& result)
{
    const WindowKind kind = result.options.window.kind;
    switch (kind) {
    case WindowKind::Gpu:
        return QStringLiteral("gpu window (first to last GPU activity)");
    case WindowKind::Trace:
        return QStringLiteral("whole trace");
    case WindowKind::Steps: {
        std::size_t measured = 0;
        for (const Step& step : result.steps)
            measured += step.warmup ? 0 : 1;
        return QStringLiteral("steps window (%1 step(s))").arg(measured);
    }
    case WindowKind::Explicit:
        return QStringLiteral("chosen window");
    }
    return QStringLiteral("window");
}

QFont pictureFont()
{
    QFont font;
    font.setPixelSize(12);
    return font;
}

QFont pictureTitleFont()
{
    QFont font;
    font.setPixelSize(17);
    font.setBold(true);
    return font;
}

PicturePlan planPicture(const PictureRequest& request)
{
    PicturePlan plan;
    const int width = std::max(1, request.width);
    const int height = std::max(1, request.height);
    const int header = std::min(headerHeight(request, width), height / 3);
    const int legend = std::min(legendHeight(request, width), height / 4);
    plan.header = QRect(0, 0, width, header);
    plan.legend = QRect(0, height - legend, width, legend);
    plan.timeline = QRect(0, header, width, std::max(0, height - header - legend));

    timeline::TimelineScene& scene = plan.scene;
    scene.width = plan.timeline.width();
    scene.height = plan.timeline.height();
    scene.labelWidth = std::clamp(width / 7, 110, 240);
    scene.rulerHeight = kRulerHeight;
    scene.axis = timeline::TimeAxis { request.start, std::max(request.end, request.start + 1),
        static_cast<double>(std::max(1, scene.width - scene.labelWidth)) };
    scene.origin = request.origin;
    scene.gapThreshold = request.gapThreshold;
    scene.annotations = marksOf(request.annotations, request.blocks);
    scene.annotationCallouts = true;
    if (!request.trace || !request.index)
        return plan;
    scene.trace = request.trace;
    scene.index = request.index;
    scene.analysis = request.analysis;
    scene.gaps = request.gaps;
    if (request.analysis) {
        for (const Step& step : request.analysis->steps)
            scene.steps.push_back({ step.start, step.end, QString::fromStdString(step.name), step.warmup });
    }

    const Trace& trace = *request.trace;
    const int available = scene.height - scene.rulerHeight - timeline::annotationStripHeight(scene);
    const std::vector<int> depths = depthsInRange(trace, request.start, request.end);
    timeline::CollapseState collapse = request.collapse.value_or(timeline::CollapseState {});
    const auto build = [&](const MetricsChoice& choice) {
        timeline::LayoutMetrics metrics;
        metrics.depthRowHeight = choice.rowHeight;
        metrics.maxDepthRows = choice.maxDepthRows;
        // The picture picks its own depth for every lane (maxDepthRows) to fit its height.
        metrics.foldedDepthRows = metrics.maxDepthRows;
        metrics.utilizationHeight = choice.utilizationHeight;
        metrics.headerHeight = std::max(16, choice.rowHeight + 2);
        metrics.laneSpacing = 2;
        return std::make_shared<timeline::LaneLayout>(
            timeline::LaneLayout::build(trace, depths, collapse, metrics, request.blocks));
    };
    std::shared_ptr<timeline::LaneLayout> layout;
    for (const MetricsChoice& choice : kMetricsChoices) {
        layout = build(choice);
        if (layout->totalHeight() <= available)
            break;
    }
    // Few lanes: taller rows fill the picture rather than leaving it half empty.
    if (layout->totalHeight() <= available) {
        MetricsChoice larger = kMetricsChoices.front();
        while (larger.rowHeight < kMaxRowHeight) {
            ++larger.rowHeight;
            larger.utilizationHeight = larger.rowHeight * 3 / 2;
            auto candidate = build(larger);
            if (candidate->totalHeight() > available)
                break;
            layout = std::move(candidate);
        }
        // Then the utilization lanes: the busy profile is what the picture is about.
        while (larger.utilizationHeight < kMaxUtilizationHeight) {
            larger.utilizationHeight += 2;
            auto candidate = build(larger);
            if (candidate->totalHeight() > available)
                break;
            layout = std::move(candidate);
        }
    }
    // Still too tall (many ranks): fold whole processes from the last one, keeping the first open.
    while (layout->totalHeight() > available) {
        std::optional<std::uint32_t> last;
        for (const timeline::LayoutRow& row : layout->rows()) {
            if (row.kind == timeline::RowKind::ProcessHeader && !row.collapsed)
                last = row.process.value;
        }
        if (!last || layout->rows().empty() || layout->rows().front().process.value == *last)
            break;
        collapse.processes.insert(*last);
        layout = build(kMetricsChoices.back());
    }
    plan.layout = layout;
    scene.layout = plan.layout.get();
    // A utilization lane's label carries its figure and window ("utilization 60.57 % (gpu window)"), which the
    // header's figures are read against: the column is as wide as those labels need, up to a quarter of the width.
    const QFontMetrics labelMetrics(pictureFont());
    int labelWidth = scene.labelWidth;
    for (const timeline::LayoutRow& row : layout->rows()) {
        if (row.kind != timeline::RowKind::UtilizationLane)
            continue;
        const int needed
            = 6 + row.indent * 12 + labelMetrics.horizontalAdvance(timeline::TimelinePainter::rowLabel(scene, row)) + 8;
        labelWidth = std::max(labelWidth, std::min(needed, width / 4));
    }
    if (labelWidth != scene.labelWidth) {
        scene.labelWidth = labelWidth;
        scene.axis = timeline::TimeAxis { request.start, std::max(request.end, request.start + 1),
            static_cast<double>(std::max(1, scene.width - scene.labelWidth)) };
    }
    return plan;
}

void paintPicture(QPainter& painter, const PictureRequest& request, const PicturePlan& plan)
{
    painter.save();
    painter.setFont(pictureFont());
    painter.fillRect(QRect(0, 0, request.width, request.height), QColor(0xff, 0xff, 0xff));
    paintHeader(painter, request, plan.header);
    if (plan.scene.layout && plan.timeline.height() > 0) {
        painter.save();
        painter.translate(plan.timeline.topLeft());
        painter.setClipRect(QRect(0, 0, plan.timeline.width(), plan.timeline.height()));
        painter.setFont(pictureFont());
        timeline::DrawListCache cache;
        cache.setAxis(plan.scene.axis);
        timeline::TimelinePainter().paint(painter, plan.scene, cache);
        painter.restore();
    }
    paintLegend(painter, request, plan.legend);
    painter.restore();
}

QImage renderPicture(const PictureRequest& request)
{
    QImage image(std::max(1, request.width), std::max(1, request.height), QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    paintPicture(painter, request, planPicture(request));
    painter.end();
    return image;
}

IoResult<void> writePicture(const PictureRequest& request, const std::string& path, std::optional<PictureFormat> format)
{
    if (!format)
        format = pictureFormatFor(path);
    if (!format)
        return IoError { path, std::nullopt, "unknown picture format: the file name must end in .png or .pdf" };
    const QString file = QString::fromStdString(path);
    if (*format == PictureFormat::Png) {
        QImageWriter writer(file, "png");
        if (!writer.write(renderPicture(request)))
            return IoError { path, std::nullopt, "cannot write the picture: " + writer.errorString().toStdString() };
        return {};
    }
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return IoError { path, std::nullopt, "cannot write the picture: " + out.errorString().toStdString() };
    {
        QPdfWriter writer(&out);
        writer.setCreator(QStringLiteral("GapScope " GAPSCOPE_VERSION));
        writer.setTitle(request.traceName);
        writer.setResolution(kPdfDpi);
        const QSizeF points(request.width * 72.0 / kPdfDpi, request.height * 72.0 / kPdfDpi);
        writer.setPageSize(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter painter;
        if (!painter.begin(&writer))
            return IoError { path, std::nullopt, "cannot start the PDF" };
        // The page may be a point or so larger than asked (rounding): scale the picture onto it exactly.
        const QRect page = painter.viewport();
        painter.scale(
            page.width() / static_cast<double>(request.width), page.height() / static_cast<double>(request.height));
        paintPicture(painter, request, planPicture(request));
        painter.end();
    }
    out.close();
    if (out.error() != QFileDevice::NoError)
        return IoError { path, std::nullopt, "cannot write the picture: " + out.errorString().toStdString() };
    return {};
}

} // namespace gapscope::picture
