// SPDX-License-Identifier: MIT
#include "app/models/counter_details.h"
#include "app/models/string_view_text.h"

#include "app/models/event_details.h"
#include "app/timeline/counter_painter.h"
#include "core/analysis/counter_figures.h"

#include <QObject>
#include <QStringList>

#include <algorithm>

namespace gapscope::models {

namespace { } // namespace

QString counterTooltip(const Trace& trace, const std::vector<std::uint32_t>& tracks, TimeNs t0, TimeNs t1)
{
    QStringList lines;
    for (const std::uint32_t t : tracks) {
        const CounterTrack& track = trace.counters().tracks()[t];
        const auto figures = counterFigures(track, t0, std::max(t1, t0 + 1));
        if (!figures)
            continue;
        const QString value = figures->min == figures->max
            ? timeline::counterValueText(figures->max, track.unit)
            : QStringLiteral("%1 – %2").arg(timeline::counterValueText(figures->min, track.unit),
                timeline::counterValueText(figures->max, track.unit));
        lines << QStringLiteral("%1: %2").arg(QString::fromStdString(track.name), value);
        if (!track.note.empty())
            lines << QStringLiteral("(%1)").arg(QString::fromStdString(track.note));
    }
    return lines.join(QStringLiteral("\n"));
}

QString sampleTooltip(
    const Trace& trace, std::uint32_t thread, TimeNs t0, TimeNs t1, TimeNs t, TimeNs origin, std::size_t frames)
{
    const CpuSamples& samples = trace.samples();
    const ThreadSamples& table = samples.threads()[thread];
    const auto [first, last] = samplesIn(table, t0, t1);
    if (first == last)
        return {};
    std::size_t nearest = first;
    for (std::size_t i = first; i < last; ++i) {
        if (std::abs(table.samples[i].time - t) < std::abs(table.samples[nearest].time - t))
            nearest = i;
    }
    const QString at = relativeTime(table.samples[nearest].time, origin);
    QString text = last - first == 1
        ? QObject::tr("CPU sample at %1, innermost frame first:").arg(at)
        : QObject::tr("%1 CPU samples here; the nearest, at %2, innermost frame first:").arg(last - first).arg(at);
    const auto chain = samples.chain(table.samples[nearest].callchain);
    if (chain.empty())
        return text + QStringLiteral("\n") + QObject::tr("(no frames)");
    for (std::size_t f = 0; f < chain.size() && f < frames; ++f) {
        text += QStringLiteral("\n%1 (%2)")
                    .arg(fromView(trace.strings().view(chain[f].function)),
                        fromView(trace.strings().view(chain[f].module)));
    }
    if (chain.size() > frames)
        text += QStringLiteral("\n") + QObject::tr("… %1 more frames").arg(chain.size() - frames);
    return text;
}

std::vector<std::pair<QString, QString>> gpuOpCounterRows(const Trace& trace, EventRef op)
{
    std::vector<std::pair<QString, QString>> rows;
    const Lane& lane = trace.lanes()[op.lane.value];
    const Event& e = trace.event(op);
    if (lane.kind != LaneKind::GpuStream || e.duration() <= 0)
        return rows;
    for (const CounterTrack& track : trace.counters().tracks()) {
        if (track.device != lane.device)
            continue;
        const auto figures = counterFigures(track, e.start, e.end);
        if (!figures || figures->coveredNs <= 0)
            continue;
        QString value = QObject::tr("mean %1").arg(timeline::counterValueText(figures->mean, track.unit));
        if (figures->min != figures->max)
            value += QStringLiteral(" (%1 – %2)")
                         .arg(timeline::counterValueText(figures->min, track.unit),
                             timeline::counterValueText(figures->max, track.unit));
        value += QObject::tr(" over %1 of its %2").arg(durationText(figures->coveredNs), durationText(e.duration()));
        rows.emplace_back(QString::fromStdString(track.name), value);
    }
    return rows;
}

QString rangeSamplesHtml(const Trace& trace, TimeNs t0, TimeNs t1, std::size_t limit)
{
    QString html;
    const CpuSamples& samples = trace.samples();
    for (const ThreadSamples& thread : samples.threads()) {
        const auto [first, last] = samplesIn(thread, t0, t1);
        if (first == last)
            continue;
        const Process& process = trace.processes()[thread.process.value];
        html += QObject::tr("<h4 style='margin-bottom:2px'>CPU samples of thread %1 (pid %2): %3 in the range, "
                            "bottom-up</h4>")
                    .arg(thread.tid)
                    .arg(process.pid)
                    .arg(last - first);
        html += QStringLiteral("<table><tr><th align='left'>function</th><th>self</th><th>total</th></tr>");
        for (const SampledFunction& f : topSampledFunctions(samples, thread, first, last, limit)) {
            html += QStringLiteral("<tr><td>%1 <span style='color:#777'>(%2)</span></td><td align='right'>%3</td>"
                                   "<td align='right'>%4</td></tr>")
                        .arg(fromView(trace.strings().view(f.frame.function)).toHtmlEscaped(),
                            fromView(trace.strings().view(f.frame.module)).toHtmlEscaped())
                        .arg(f.self)
                        .arg(f.total);
        }
        html += QStringLiteral("</table>");
    }
    return html;
}

} // namespace gapscope::models
