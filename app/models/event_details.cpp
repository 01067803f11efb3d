// SPDX-License-Identifier: MIT
#include "app/models/event_details.h"
#include "app/models/string_view_text.h"

#include "app/models/counter_details.h"

#include "app/timeline/geometry/lane_layout.h"
#include "core/annotations/gap_explanation.h"
#include "core/model/time_format.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace gapscope::models {

namespace {

QString escaped(const QString& text)
{
    return text.toHtmlEscaped();
}

QString row(const QString& key, const QString& valueHtml)
{
    return QStringLiteral("<tr><td style='color:#555;padding-right:10px'>%1</td><td>%2</td></tr>").arg(key, valueHtml);
}

QString jsonValueText(const QJsonValue& value)
{
    if (value.isArray()) {
        QStringList parts;
        for (const QJsonValue& v : value.toArray())
            parts << jsonValueText(v);
        return QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
    }
    if (value.isDouble()) {
        const double d = value.toDouble();
        return d == static_cast<double>(static_cast<qint64>(d)) ? QString::number(static_cast<qint64>(d))
                                                                : QString::number(d, 'g', 6);
    }
    if (value.isString())
        return value.toString();
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    return QStringLiteral("null");
}

QString linkTo(const Trace& trace, EventRef ref, TimeNs origin)
{
    const Event& e = trace.event(ref);
    return QStringLiteral("<a href='%1'>%2</a> at %3 (%4, %5)")
        .arg(eventLink(ref), escaped(fromView(trace.name(e))), relativeTime(e.start, origin),
            durationText(e.duration()), escaped(laneDescription(trace, ref.lane)));
}

} // namespace

QString relativeTime(TimeNs t, TimeNs origin)
{
    return QString::fromStdString(formatRelativeTime(t, origin));
}

QString durationText(TimeNs ns)
{
    return QString::fromStdString(formatDuration(ns));
}

QString laneDescription(const Trace& trace, LaneIndex laneIndex)
{
    const Lane& lane = trace.lanes()[laneIndex.value];
    const Process& process = trace.processes()[lane.process.value];
    const QString rank = process.rank ? QStringLiteral("rank %1, ").arg(*process.rank) : QString();
    if (lane.kind == LaneKind::GpuStream) {
        const Device& device = trace.devices()[lane.device.value];
        return QStringLiteral("%1GPU %2 stream %3").arg(rank).arg(device.id).arg(lane.stream);
    }
    return QStringLiteral("%1%2 of pid %3")
        .arg(rank, QString::fromStdString(timeline::threadLabel(lane)))
        .arg(process.pid);
}

QString deviceName(const Trace& trace, DeviceIndex index)
{
    const Device& device = trace.devices()[index.value];
    const Process& process = trace.processes()[device.process.value];
    return process.rank ? QStringLiteral("rank %1 GPU %2").arg(*process.rank).arg(device.id)
                        : QStringLiteral("GPU %1").arg(device.id);
}

QString eventLink(EventRef ref)
{
    return QStringLiteral("event:%1:%2").arg(ref.lane.value).arg(ref.index);
}

std::optional<EventRef> eventFromLink(const QString& link, const Trace& trace)
{
    const QStringList parts = link.split(QLatin1Char(':'));
    if (parts.size() != 3 || parts[0] != QLatin1String("event"))
        return std::nullopt;
    bool okLane = false;
    bool okIndex = false;
    const uint lane = parts[1].toUInt(&okLane);
    const uint index = parts[2].toUInt(&okIndex);
    if (!okLane || !okIndex || lane >= trace.lanes().size() || index >= trace.lanes()[lane].events.size())
        return std::nullopt;
    return EventRef { LaneIndex { lane }, index };
}

QString eventTooltip(const Trace& trace, EventRef ref, TimeNs origin)
{
    const Event& e = trace.event(ref);
    QString text = fromView(trace.name(e));
    if (text.size() > 120)
        text = text.left(117) + QStringLiteral("...");
    text += QStringLiteral("\n%1, %2 at %3")
                .arg(fromView(eventKindName(e.kind)), durationText(e.duration()), relativeTime(e.start, origin));
    text += QStringLiteral("\n") + laneDescription(trace, ref.lane);
    if (e.kind == EventKind::Memcpy || e.kind == EventKind::Memset) {
        text += QStringLiteral("\n%1 bytes").arg(e.bytes);
        if (e.duration() > 0)
            text += QStringLiteral(", %1 GB/s")
                        .arg(static_cast<double>(e.bytes) / static_cast<double>(e.duration()), 0, 'f', 2);
    }
    return text;
}

QString eventDetailsHtml(const Trace& trace, EventRef ref, TimeNs origin)
{
    const Event& e = trace.event(ref);
    QString html = QStringLiteral("<h3 style='margin:0'>%1</h3><table>").arg(escaped(fromView(trace.name(e))));
    html += row(QStringLiteral("kind"), fromView(eventKindName(e.kind)));
    html += row(QStringLiteral("start"),
        QStringLiteral("%1 <span style='color:#777'>(%2 ns)</span>").arg(relativeTime(e.start, origin)).arg(e.start));
    html += row(QStringLiteral("duration"), durationText(e.duration()));
    html += row(QStringLiteral("end"), relativeTime(e.end, origin));
    html += row(QStringLiteral("lane"), escaped(laneDescription(trace, ref.lane)));
    if (trace.lanes()[ref.lane.value].kind == LaneKind::CpuThread)
        html += row(QStringLiteral("depth"), QString::number(e.depth));
    if (e.correlation)
        html += row(QStringLiteral("correlation id"), QString::number(e.correlation));
    if (e.kind == EventKind::Memcpy)
        html += row(QStringLiteral("direction"), fromView(copyKindName(e.copyKind)));
    if (e.kind == EventKind::Memcpy || e.kind == EventKind::Memset) {
        html += row(QStringLiteral("bytes"), QString::number(e.bytes));
        if (e.duration() > 0)
            html += row(QStringLiteral("bandwidth"),
                QStringLiteral("%1 GB/s").arg(
                    static_cast<double>(e.bytes) / static_cast<double>(e.duration()), 0, 'f', 2));
    }
    // Launch and launched work, by correlation id.
    if (isGpuLaneKind(e.kind)) {
        if (const auto launch = trace.launchOf(ref)) {
            html += row(QStringLiteral("launched by"), linkTo(trace, *launch, origin));
            html += row(QStringLiteral("launch delay"), durationText(e.start - trace.event(*launch).start));
        }
    } else {
        const auto ops = trace.gpuOpsOf(ref);
        for (std::size_t i = 0; i < ops.size() && i < 8; ++i)
            html += row(i == 0 ? QStringLiteral("launched") : QString(), linkTo(trace, ops[i], origin));
    }
    const std::string_view args = trace.argsJson(e);
    if (!args.empty()) {
        const QJsonObject object
            = QJsonDocument::fromJson(QByteArray(args.data(), static_cast<qsizetype>(args.size()))).object();
        // Grid and block first: what people look for in a kernel.
        for (const QString& key : { QStringLiteral("grid"), QStringLiteral("block") }) {
            if (object.contains(key))
                html += row(key, escaped(jsonValueText(object.value(key))));
        }
        // The args a Kineto memcpy repeats from the rows above (its bytes, bandwidth and correlation id).
        const bool copy = e.kind == EventKind::Memcpy || e.kind == EventKind::Memset;
        const auto shownAbove = [&](const QString& key) {
            return (e.correlation && key == QLatin1String("correlation"))
                || (copy && (key == QLatin1String("bytes") || key == QLatin1String("memory bandwidth (GB/s)")));
        };
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (it.key() == QLatin1String("grid") || it.key() == QLatin1String("block") || shownAbove(it.key()))
                continue;
            QString value = jsonValueText(it.value());
            if (value.size() > 400)
                value = value.left(397) + QStringLiteral("...");
            html += row(escaped(it.key()), escaped(value));
        }
    }
    // The device's counters over the op (GPU metrics, memory): what it was bound by.
    for (const auto& [name, value] : gpuOpCounterRows(trace, ref))
        html += row(escaped(name), escaped(value));
    html += QStringLiteral("</table>");
    return html;
}

QString gapEvidenceLine(const Trace& trace, const Gap& gap, TimeNs launchThresholdNs)
{
    const GapEvidence evidence = gapEvidence(trace, gap, launchThresholdNs);
    if (!evidence.summary.empty())
        return QString::fromStdString(evidence.summary);
    if (evidence.syncCall)
        return QStringLiteral("host in %1").arg(fromView(trace.name(trace.event(*evidence.syncCall))));
    if (evidence.hostRange)
        return QStringLiteral("host busy in %1").arg(fromView(trace.name(trace.event(*evidence.hostRange))));
    if (evidence.launch)
        return QStringLiteral("next launch %1").arg(fromView(trace.name(trace.event(*evidence.launch))));
    return QStringLiteral("no launch information");
}

QString gapDetailsHtml(const Trace& trace, const AnalysisResult& result, std::size_t gapIndex, TimeNs origin)
{
    const Gap& gap = result.gaps[gapIndex];
    QString html = QStringLiteral("<h3 style='margin:0'>Idle gap of %1</h3>").arg(durationText(gap.duration()));
    html += QStringLiteral("<table>");
    html += row(QStringLiteral("likely cause"),
        QStringLiteral("<b>%1</b> <span style='color:#777'>(a hypothesis from the evidence below)</span>")
            .arg(fromView(gapCauseName(gap.cause))));
    html += row(QStringLiteral("from"), relativeTime(gap.start, origin) + QStringLiteral(" from trace start"));
    html += row(QStringLiteral("to"), relativeTime(gap.end, origin) + QStringLiteral(" from trace start"));
    QString where = deviceName(trace, gap.device);
    if (gap.stream)
        where += QStringLiteral(", ") + escaped(laneDescription(trace, *gap.stream));
    html += row(QStringLiteral("device"), where);
    const GapEvidence ev = gapEvidence(trace, gap, result.options.launchThresholdNs);
    html += row(QStringLiteral("evidence"), escaped(gapEvidenceLine(trace, gap, result.options.launchThresholdNs)));
    if (ev.syncCall)
        html += row(QStringLiteral("sync call"), linkTo(trace, *ev.syncCall, origin));
    if (ev.hostRange)
        html += row(QStringLiteral("launching thread was in"), linkTo(trace, *ev.hostRange, origin));
    if (ev.launch) {
        const Event& launch = trace.event(*ev.launch);
        html += row(QStringLiteral("launch call"), linkTo(trace, *ev.launch, origin));
        html += row(QStringLiteral("launch vs gap start"),
            (launch.start >= gap.start ? QStringLiteral("+") : QStringLiteral("-"))
                + durationText(std::abs(launch.start - gap.start)));
    }
    if (ev.closingOp)
        html += row(QStringLiteral("ended by"), linkTo(trace, *ev.closingOp, origin));
    html += QStringLiteral("</table><p>%1</p>").arg(escaped(QString::fromUtf8(whatToTry(gap.cause))));
    html += QStringLiteral("<p style='color:#777'>Launch-latency threshold: %1.</p>")
                .arg(durationText(result.options.launchThresholdNs));
    return html;
}

QString rangeDetailsHtml(
    const Trace& trace, const AnalysisResult& rangeResult, std::pair<TimeNs, TimeNs> range, TimeNs origin)
{
    QString html
        = QStringLiteral("<h3 style='margin:0'>Range of %1</h3><table>").arg(durationText(range.second - range.first));
    html += row(QStringLiteral("window"),
        QStringLiteral("%1 to %2").arg(relativeTime(range.first, origin), relativeTime(range.second, origin)));
    html += QStringLiteral("</table>");
    for (const DeviceFigures& figures : rangeResult.devices) {
        const Device& device = trace.devices()[figures.device.value];
        const Process& process = trace.processes()[figures.process.value];
        html += QStringLiteral("<h4 style='margin-bottom:2px'>GPU %1%2</h4><table>")
                    .arg(device.id)
                    .arg(process.rank ? QStringLiteral(" (rank %1)").arg(*process.rank) : QString());
        html += row(QStringLiteral("busy"), durationText(figures.busyNs));
        html += row(QStringLiteral("idle"), durationText(figures.idleNs));
        html += row(QStringLiteral("utilization"), QStringLiteral("%1 %").arg(100.0 * figures.utilization, 0, 'f', 2));
        html += row(QStringLiteral("gaps"), QString::number(figures.gapCount));
        for (int c = 0; c < kGapCauseCount; ++c) {
            if (figures.idleByCause[static_cast<std::size_t>(c)] > 0)
                html += row(QStringLiteral("idle, %1").arg(fromView(gapCauseName(static_cast<GapCause>(c)))),
                    durationText(figures.idleByCause[static_cast<std::size_t>(c)]));
        }
        html += row(QStringLiteral("compute"), durationText(figures.exposed.compute));
        html += row(QStringLiteral("exposed communication"), durationText(figures.exposed.communication));
        html += row(QStringLiteral("exposed memcpy"), durationText(figures.exposed.memcpy));
        html += QStringLiteral("</table>");
    }
    if (!rangeResult.kernels.empty()) {
        html += QStringLiteral("<h4 style='margin-bottom:2px'>Top kernels in the range</h4><table>");
        for (std::size_t i = 0; i < rangeResult.kernels.size() && i < 8; ++i) {
            const KernelStats& k = rangeResult.kernels[i];
            QString name = QString::fromStdString(k.name);
            if (name.size() > 70)
                name = name.left(67) + QStringLiteral("...");
            html += row(durationText(k.totalNs), QStringLiteral("%1 &times; %2").arg(k.count).arg(escaped(name)));
        }
        html += QStringLiteral("</table>");
    }
    html += rangeSamplesHtml(trace, range.first, range.second);
    if (rangeResult.devices.empty())
        html += QStringLiteral("<p>No GPU in this trace.</p>");
    return html;
}

} // namespace gapscope::models
