// SPDX-License-Identifier: MIT
#include "app/export/picture_header.h"

#include "app/timeline/timeline_palette.h"
#include "core/io/common/cut_short.h"
#include "core/model/time_format.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <numeric>

namespace gapscope::picture {

namespace {

constexpr int kPadding = 10;
constexpr int kSwatch = 12;
constexpr int kItemSpacing = 14;
// More devices than this are summed up in one line, so that eight ranks do not push out the lanes.
constexpr std::size_t kMaxDeviceLines = 4;

/// One piece of a flowing line: optional colour swatch, then text.
struct FlowItem {
    QString text;
    std::optional<QColor> swatch;
    std::optional<QColor> swatchBorder;
    bool bold = false;
    /// Start a new line before this item.
    bool newLine = false;
    QColor colour = timeline::textColor();
};

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString duration(TimeNs ns)
{
    return QString::fromStdString(formatDuration(ns));
}

/// "+7.474 ms", "-56.44 ms": a change.
QString signedDuration(TimeNs ns)
{
    return (ns > 0 ? QStringLiteral("+") : QString()) + duration(ns);
}

/// "+12.30 ms" relative to the trace start.
QString relative(TimeNs t, TimeNs origin)
{
    const TimeNs d = t - origin;
    return (d < 0 ? QStringLiteral("-") : QStringLiteral("+")) + duration(d < 0 ? -d : d);
}

int lineHeight(const QFont& font)
{
    return QFontMetrics(font).lineSpacing() + 5;
}

/// Lays out the items from the top-left of `area`, wrapping at its width; paints them when `painter` is
/// set. Returns the height used.
int flow(QPainter* painter, const std::vector<FlowItem>& items, const QRect& area)
{
    const QFont normal = pictureFont();
    QFont bold = normal;
    bold.setBold(true);
    const int height = lineHeight(normal);
    int x = area.left();
    int y = area.top();
    bool lineEmpty = true;
    for (const FlowItem& item : items) {
        const QFontMetrics metrics(item.bold ? bold : normal);
        const int swatchWidth = item.swatch ? kSwatch + 5 : 0;
        int textWidth = metrics.horizontalAdvance(item.text);
        const int itemWidth = swatchWidth + textWidth;
        if (!lineEmpty && (item.newLine || x + itemWidth > area.right())) {
            x = area.left();
            y += height;
            lineEmpty = true;
        }
        textWidth = std::min(textWidth, area.right() - x - swatchWidth);
        if (painter) {
            if (item.swatch) {
                const QRect swatch(x, y + (height - kSwatch) / 2, kSwatch, kSwatch);
                painter->fillRect(swatch, *item.swatch);
                painter->setPen(item.swatchBorder.value_or(item.swatch->darker(140)));
                painter->setBrush(Qt::NoBrush);
                painter->drawRect(swatch.adjusted(0, 0, -1, -1));
            }
            painter->setFont(item.bold ? bold : normal);
            painter->setPen(item.colour);
            painter->drawText(QRect(x + swatchWidth, y, textWidth + 1, height), Qt::AlignVCenter | Qt::AlignLeft,
                metrics.elidedText(item.text, Qt::ElideRight, textWidth + 1));
        }
        x += swatchWidth + textWidth + kItemSpacing;
        lineEmpty = false;
    }
    return lineEmpty && items.empty() ? 0 : y + height - area.top();
}

QString windowText(const PictureRequest& request)
{
    return QStringLiteral("%1: %2 to %3 of the trace (%4)")
        .arg(request.rangeName, relative(request.start, request.origin), relative(request.end, request.origin),
            duration(request.end - request.start));
}

std::vector<FlowItem> deviceItems(const PictureRequest& request)
{
    std::vector<FlowItem> items;
    if (request.trace) {
        for (const CutShortFile& cut : cutShortFiles(*request.trace))
            items.push_back({ qs(cutShortLine(cut)), {}, {}, true, true, QColor(0xa0, 0x00, 0x00) });
    }
    const std::vector<DeviceSummary> devices = summarizeDevices(request);
    if (devices.empty()) {
        items.push_back({ QStringLiteral("No GPU activity in this trace: nothing to measure."), {}, {}, false, true });
        return items;
    }
    const std::size_t shown = devices.size() > kMaxDeviceLines ? kMaxDeviceLines - 1 : devices.size();
    for (std::size_t i = 0; i < shown; ++i) {
        const DeviceSummary& d = devices[i];
        items.push_back({ d.label + QLatin1Char(':'), {}, {}, true, true });
        items.push_back({ QStringLiteral("utilization %1 %").arg(100.0 * d.utilization(), 0, 'f', 2), {}, {}, true });
        if (d.ownWindow) {
            items.push_back({ QStringLiteral("over its own window %1 to %2 (%3);")
                                  .arg(relative(d.ownWindow->first, request.origin),
                                      relative(d.ownWindow->second, request.origin), duration(d.spanNs)) });
        }
        items.push_back({ QStringLiteral("busy %1, idle %2 in %3 gap(s); idle by likely cause:")
                              .arg(duration(d.busyNs), duration(d.spanNs - d.busyNs))
                              .arg(d.gapCount) });
        // Largest causes first: the reader's eye goes to the first swatch.
        std::array<int, kGapCauseCount> order {};
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return d.idleByCause[a] > d.idleByCause[b]; });
        bool any = false;
        for (const int c : order) {
            if (d.idleByCause[c] <= 0)
                continue;
            any = true;
            const auto cause = static_cast<GapCause>(c);
            const double share = d.spanNs > 0 ? 100.0 * d.idleByCause[c] / static_cast<double>(d.spanNs) : 0.0;
            items.push_back({ QStringLiteral("%1 %2 (%3 % of %4)")
                                  .arg(qs(gapCauseName(cause)), duration(d.idleByCause[c]))
                                  .arg(share, 0, 'f', 1)
                                  .arg(d.ownWindow ? QStringLiteral("its window") : QStringLiteral("the range")),
                bandOnWhite(cause), timeline::gapCauseColor(cause) });
        }
        if (d.outsideWindowNs > 0) {
            any = true;
            const double share = d.spanNs > 0 ? 100.0 * d.outsideWindowNs / static_cast<double>(d.spanNs) : 0.0;
            items.push_back({ QStringLiteral("outside the analysis window %1 (%2 % of the range)")
                                  .arg(duration(d.outsideWindowNs))
                                  .arg(share, 0, 'f', 1),
                timeline::laneBackground(false), QColor(0x9e, 0xa4, 0xab) });
        }
        if (!any)
            items.push_back({ QStringLiteral("none") });
    }
    if (shown < devices.size()) {
        double low = 1.0;
        double high = 0.0;
        for (std::size_t i = shown; i < devices.size(); ++i) {
            low = std::min(low, devices[i].utilization());
            high = std::max(high, devices[i].utilization());
        }
        items.push_back({ QStringLiteral("and %1 more GPU(s): utilization %2 % to %3 %")
                              .arg(devices.size() - shown)
                              .arg(100.0 * low, 0, 'f', 2)
                              .arg(100.0 * high, 0, 'f', 2),
            {}, {}, false, true });
    }
    return items;
}

/// The device lines, then a line per measured note (its status colour as the swatch).
std::vector<FlowItem> headerItems(const PictureRequest& request)
{
    std::vector<FlowItem> items = deviceItems(request);
    // The verdict line as it is; the lines after it flow in their sentences (the window, the why, the caveat), so
    // that a long one wraps between them rather than being cut.
    for (qsizetype i = 0; i < request.comparisonLines.size(); ++i) {
        const QStringList sentences = i == 0 ? QStringList { request.comparisonLines[i] }
                                             : request.comparisonLines[i].split(QStringLiteral(". "));
        for (qsizetype k = 0; k < sentences.size(); ++k) {
            const QString text = sentences[k] + (k + 1 < sentences.size() ? QStringLiteral(".") : QString());
            items.push_back({ text, {}, {}, i == 0, k == 0 });
        }
    }
    const QStringList lines = measuredNoteLines(request);
    qsizetype line = 0;
    for (const Annotation& note : request.annotations) {
        if (note.afterTrace.empty() || line >= lines.size())
            continue;
        // Cut at "; " so that a long line wraps between its parts rather than being clipped.
        const QColor colour(qs(annotationStatusColour(note.status)));
        const QStringList parts = lines[line++].split(QStringLiteral("; "));
        for (qsizetype p = 0; p < parts.size(); ++p) {
            const QString text = parts[p] + (p + 1 < parts.size() ? QStringLiteral(";") : QString());
            if (p == 0)
                items.push_back({ text, colour, colour, false, true });
            else
                items.push_back({ text });
        }
    }
    return items;
}

std::vector<FlowItem> legendItems(const PictureRequest& request)
{
    const TimeNs launchThreshold = request.analysis ? request.analysis->options.launchThresholdNs : 30'000;
    std::vector<FlowItem> items;
    items.push_back({ QStringLiteral("Coloured bands over the GPU lanes = GPU idle, by likely cause:"), {}, {}, true });
    const std::array<QString, kGapCauseCount> meaning {
        QStringLiteral("the host was blocked in a synchronizing call"),
        QStringLiteral("the GPU waited for the CPU to issue work"),
        QStringLiteral("launch overhead between kernels (gap \u2264 %1)").arg(duration(launchThreshold)),
        QStringLiteral("waited on another stream, event or device"),
        QStringLiteral("no launch information"),
    };
    for (int c = 0; c < kGapCauseCount; ++c) {
        const auto cause = static_cast<GapCause>(c);
        items.push_back({ QStringLiteral("%1: %2").arg(qs(gapCauseName(cause)), meaning[static_cast<std::size_t>(c)]),
            bandOnWhite(cause), timeline::gapCauseColor(cause) });
    }
    items.push_back({ QStringLiteral("Notes (brackets under the ruler, boxes with the hypothesis), by status:"), {}, {},
        true, true });
    for (const auto status : { AnnotationStatus::Open, AnnotationStatus::Supported, AnnotationStatus::Refuted,
             AnnotationStatus::Inconclusive }) {
        items.push_back({ qs(annotationStatusName(status)), QColor(qs(annotationStatusColour(status))) });
    }
    items.push_back({ QStringLiteral("Bands for gaps \u2265 %1; \u201cutilization\u201d lane = busy fraction of the "
                                     "GPU; times relative to the trace start. Made with GapScope %2.")
                          .arg(duration(request.gapThreshold), QStringLiteral(GAPSCOPE_VERSION)),
        {}, {}, false, false, QColor(0x5f, 0x67, 0x70) });
    return items;
}

} // namespace

QStringList measuredNoteLines(const PictureRequest& request)
{
    QStringList lines;
    for (const Annotation& note : request.annotations) {
        if (note.afterTrace.empty())
            continue;
        const QString title = note.title.empty() ? QString::fromStdString(note.id) : QString::fromStdString(note.title);
        QString line
            = QStringLiteral("Note \u201c%1\u201d against %2; ").arg(title, QString::fromStdString(note.afterTrace));
        if (const auto error = request.measurementErrors.find(note.id); error != request.measurementErrors.end()) {
            lines << line + QStringLiteral("not measured (%1)").arg(QString::fromStdString(error->second));
            continue;
        }
        const auto found = request.measurements.find(note.id);
        if (found == request.measurements.end()) {
            lines << line + QStringLiteral("not measured in this picture");
            continue;
        }
        const NoteMeasurement& m = found->second;
        const StepComparison& s = m.steps;
        line += QStringLiteral("verdict %1").arg(qs(verdictName(s.verdict)));
        if (s.test && s.interval95) {
            line += QStringLiteral("; step p50 %1 \u2192 %2 (%3%4 %, 95 % interval [%5, %6], p = %7)")
                        .arg(duration(s.base.p50Ns), duration(s.fresh.p50Ns))
                        .arg(s.deltaP50Fraction >= 0 ? QStringLiteral("+") : QString())
                        .arg(100.0 * s.deltaP50Fraction, 0, 'f', 2)
                        .arg(duration(s.interval95->low), duration(s.interval95->high))
                        .arg(s.test->pValue, 0, 'g', 3);
        }
        line += QStringLiteral("; %1 %2 \u2192 %3")
                    .arg(QString::fromStdString(m.figure), duration(m.figureBeforeNs), duration(m.figureAfterNs));
        if (m.prediction) {
            const PredictionCheck& c = *m.prediction;
            const QString verdict = !c.insideInterval ? QStringLiteral("not checked")
                : *c.insideInterval                   ? QStringLiteral("inside the 95 % interval: the model held")
                                    : QStringLiteral("outside the 95 % interval: the model of the step was wrong");
            line += QStringLiteral("; predicted %1, measured %2, error %3, %4")
                        .arg(signedDuration(c.predictedChangeNs), signedDuration(c.measuredChangeNs),
                            signedDuration(c.errorNs), verdict);
        }
        line += QStringLiteral("; window %1").arg(qs(windowKindName(m.window)));
        if (m.window == WindowKind::Steps)
            line += QStringLiteral(" (warm-up %1 excluded)").arg(m.warmupSteps);
        line += QStringLiteral(" of each run, %1 vs %2 counted steps; proposed status %3, status %4")
                    .arg(s.base.durations.size())
                    .arg(s.fresh.durations.size())
                    .arg(qs(annotationStatusName(m.proposedStatus)), qs(annotationStatusName(note.status)));
        lines << line;
    }
    return lines;
}

QColor bandOnWhite(GapCause cause)
{
    return timeline::blendOver(timeline::laneBackground(false), timeline::gapBandColor(cause, false));
}

std::vector<DeviceSummary> summarizeDevices(const PictureRequest& request)
{
    std::vector<DeviceSummary> result;
    if (!request.analysis || !request.trace)
        return result;
    const Trace& trace = *request.trace;
    const bool manyProcesses = trace.processes().size() > 1;
    // A comparison's devices go block by block (Base first), each labelled with its block's side.
    const auto blockOf = [&](ProcessIndex process) -> std::optional<std::size_t> {
        for (std::size_t b = 0; b < request.blocks.size(); ++b) {
            if (process.value >= request.blocks[b].firstProcess && process.value < request.blocks[b].endProcess)
                return b;
        }
        return std::nullopt;
    };
    std::vector<const DeviceFigures*> ordered;
    for (const DeviceFigures& figures : request.analysis->devices)
        ordered.push_back(&figures);
    std::stable_sort(ordered.begin(), ordered.end(), [&](const DeviceFigures* a, const DeviceFigures* b) {
        return blockOf(a->process).value_or(0) < blockOf(b->process).value_or(0);
    });
    for (const DeviceFigures* found : ordered) {
        const DeviceFigures& figures = *found;
        DeviceSummary summary;
        const Device& device = trace.devices()[figures.device.value];
        if (const auto block = blockOf(figures.process)) {
            const std::string& title = request.blocks[*block].title;
            summary.label = QString::fromStdString(title.substr(0, title.find(':'))) + QStringLiteral(": ");
        }
        summary.label += QString::fromStdString(timeline::deviceLabel(device));
        if (manyProcesses) {
            const Process& process = trace.processes()[figures.process.value];
            summary.label += process.rank ? QStringLiteral(" (rank %1)").arg(*process.rank)
                                          : QStringLiteral(" (pid %1)").arg(process.pid);
        }
        const Window& window = figures.window;
        const bool isRange
            = window.ranges.intervals().size() == 1 && window.start() == request.start && window.end() == request.end;
        if (isRange || (request.ownWindows && !window.ranges.empty())) {
            summary.spanNs = figures.spanNs;
            summary.busyNs = figures.busyNs;
            summary.gapCount = figures.gapCount;
            summary.idleByCause = figures.idleByCause;
            if (!isRange)
                summary.ownWindow = std::make_pair(window.start(), window.end());
        } else {
            summary.spanNs = request.end - request.start;
            summary.busyNs
                = request.index ? request.index->deviceBusy(figures.device).busyWithin(request.start, request.end) : 0;
            if (request.gaps) {
                for (const std::size_t g : request.gaps->visible(figures.device, request.start, request.end, 0)) {
                    const Gap& gap = request.analysis->gaps[g];
                    const TimeNs clipped = std::min(gap.end, request.end) - std::max(gap.start, request.start);
                    if (clipped <= 0)
                        continue;
                    summary.idleByCause[static_cast<std::size_t>(gap.cause)] += clipped;
                    ++summary.gapCount;
                }
            }
            TimeNs classified = 0;
            for (const TimeNs idle : summary.idleByCause)
                classified += idle;
            summary.outsideWindowNs = std::max<TimeNs>(0, summary.spanNs - summary.busyNs - classified);
        }
        result.push_back(std::move(summary));
    }
    return result;
}

QStringList headerLines(const PictureRequest& request)
{
    QStringList lines { request.traceName + QStringLiteral("  ") + windowText(request) };
    for (const FlowItem& item : headerItems(request)) {
        if (item.newLine || lines.size() == 1)
            lines << item.text;
        else
            lines.back() += QStringLiteral("  ") + item.text;
    }
    return lines;
}

int headerHeight(const PictureRequest& request, int width)
{
    const QRect area(kPadding, 0, std::max(50, width - 2 * kPadding), 10'000);
    return kPadding + lineHeight(pictureTitleFont()) + flow(nullptr, headerItems(request), area) + kPadding / 2;
}

int legendHeight(const PictureRequest& request, int width)
{
    const QRect area(kPadding, 0, std::max(50, width - 2 * kPadding), 10'000);
    return kPadding / 2 + flow(nullptr, legendItems(request), area) + kPadding / 2;
}

void paintHeader(QPainter& painter, const PictureRequest& request, const QRect& rect)
{
    painter.save();
    painter.fillRect(rect, QColor(0xff, 0xff, 0xff));
    const QFont title = pictureTitleFont();
    const int titleHeight = lineHeight(title);
    const QRect line(rect.left() + kPadding, rect.top() + kPadding, rect.width() - 2 * kPadding, titleHeight);
    painter.setFont(title);
    painter.setPen(timeline::textColor());
    const QString name = QFontMetrics(title).elidedText(request.traceName, Qt::ElideMiddle, line.width() / 2);
    painter.drawText(line, Qt::AlignVCenter | Qt::AlignLeft, name);
    const int nameWidth = QFontMetrics(title).horizontalAdvance(name) + 16;
    painter.setFont(pictureFont());
    painter.setPen(QColor(0x37, 0x41, 0x4b));
    const QRect rest = line.adjusted(nameWidth, 0, 0, 0);
    painter.drawText(rest, Qt::AlignVCenter | Qt::AlignLeft,
        QFontMetrics(pictureFont()).elidedText(windowText(request), Qt::ElideRight, rest.width()));
    flow(&painter, headerItems(request),
        QRect(rect.left() + kPadding, line.bottom() + 1, rect.width() - 2 * kPadding, rect.bottom() - line.bottom()));
    painter.setPen(QColor(0xb0, 0xb5, 0xbb));
    painter.drawLine(rect.left(), rect.bottom(), rect.right(), rect.bottom());
    painter.restore();
}

void paintLegend(QPainter& painter, const PictureRequest& request, const QRect& rect)
{
    painter.save();
    painter.fillRect(rect, QColor(0xff, 0xff, 0xff));
    painter.setPen(QColor(0xb0, 0xb5, 0xbb));
    painter.drawLine(rect.left(), rect.top(), rect.right(), rect.top());
    flow(&painter, legendItems(request),
        QRect(rect.left() + kPadding, rect.top() + kPadding / 2, rect.width() - 2 * kPadding, rect.height()));
    painter.restore();
}

} // namespace gapscope::picture
