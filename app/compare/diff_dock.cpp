// SPDX-License-Identifier: MIT
#include "app/compare/diff_dock.h"

#include "core/analysis/compare_text.h"
#include "core/model/time_format.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <cstdio>

namespace gapscope::app {

namespace {

// Device rows carry their DeviceDiff index, kernel rows their name.
constexpr int kRowRole = Qt::UserRole + 1;

QString text(const std::string& s)
{
    return QString::fromStdString(s);
}

QString duration(TimeNs ns)
{
    return text(formatDuration(ns));
}

/// "+12.3 ms (+4.56 %)", as `gapscope diff` writes a change; no percentage from 0.
QString change(TimeNs a, TimeNs b)
{
    const TimeNs d = b - a;
    QString out = (d > 0 ? QStringLiteral("+") : QString()) + duration(d);
    if (a != 0)
        out += QStringLiteral(" (%1%2 %)")
                   .arg(d >= 0 ? QStringLiteral("+") : QString())
                   .arg(100.0 * static_cast<double>(d) / static_cast<double>(a), 0, 'f', 2);
    return out;
}

QString countChange(std::int64_t a, std::int64_t b)
{
    QString out = (b - a > 0 ? QStringLiteral("+") : QString()) + QString::number(b - a);
    if (a != 0)
        out += QStringLiteral(" (%1%2 %)")
                   .arg(b >= a ? QStringLiteral("+") : QString())
                   .arg(100.0 * static_cast<double>(b - a) / static_cast<double>(a), 0, 'f', 2);
    return out;
}

/// A clause of `gapscope diff` as a sentence of its own, so that the next one does not run into it.
QString sentence(QString clause)
{
    clause = clause.trimmed();
    if (!clause.isEmpty() && !clause.endsWith(QLatin1Char('.')) && !clause.endsWith(QLatin1Char('!'))
        && !clause.endsWith(QLatin1Char('?')))
        clause += QLatin1Char('.');
    return clause;
}

/// "steps (warm-up 1 excluded) +0.512 s to +1.734 s from the trace start (1.222 s)": a side's window on the
/// viewer's ruler, `origin` being the ruler's zero on that side's clock.
QString windowOnRuler(const Window& w, const AnalysisOptions& options, TimeNs origin)
{
    QString out = text(std::string(windowKindName(w.kind)));
    if (w.kind == WindowKind::Steps)
        out += QObject::tr(" (warm-up %1 excluded)").arg(options.window.warmupSteps);
    if (w.ranges.empty())
        return out + QObject::tr(", empty");
    return out
        + QObject::tr(" %1 to %2 from the trace start (%3)")
              .arg(text(formatRelativeTime(w.start(), origin)), text(formatRelativeTime(w.end(), origin)),
                  duration(w.length()));
}

QTableWidget* makeTable(const QStringList& headers, QWidget* parent)
{
    auto* table = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->verticalHeader()->setVisible(false);
    table->horizontalHeader()->setStretchLastSection(true);
    // Rows as high as a line of text: the style's default is half as high again.
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    return table;
}

void addRow(QTableWidget* table, const QStringList& cells, const QVariant& data = {})
{
    const int row = table->rowCount();
    table->insertRow(row);
    for (int c = 0; c < cells.size(); ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        if (c == 0 && data.isValid())
            item->setData(kRowRole, data);
        table->setItem(row, c, item);
    }
}

} // namespace

DiffDock::DiffDock(QWidget* parent)
    : QWidget(parent)
    , m_verdict(new QLabel(this))
    , m_window(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_devices(makeTable({ tr("Device / figure"), tr("Base"), tr("New"), tr("Change") }, this))
    , m_steps(makeTable({ tr("Steps"), tr("Base"), tr("New"), tr("Change") }, this))
    , m_kernels(
          makeTable({ tr("Change in total"), tr("Total"), tr("Count"), tr("Mean"), tr("p50"), tr("Kernel") }, this))
    , m_gaps(makeTable(
          { tr("Side"), tr("Duration"), tr("Start (from trace start)"), tr("Device"), tr("Cause"), tr("Evidence") },
          this))
    , m_warnings(new QTextBrowser(this))
{
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verdict->setObjectName(QStringLiteral("diffVerdict"));
    m_window->setWordWrap(true);
    m_window->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_verdict->font();
    bold.setBold(true);
    m_verdict->setFont(bold);
    m_tabs->addTab(m_steps, tr("Steps"));
    m_tabs->addTab(m_devices, tr("Devices"));
    m_tabs->addTab(m_kernels, tr("Kernels"));
    m_tabs->addTab(m_gaps, tr("Longest gaps"));
    m_tabs->addTab(m_warnings, tr("Warnings"));
    // The verdict and the window's rules beside the tables, not above them: in a dock a quarter of the window
    // high, lines above left the tables three rows.
    auto* lines = new QWidget;
    auto* linesLayout = new QVBoxLayout(lines);
    linesLayout->setContentsMargins(0, 0, 4, 0);
    linesLayout->addWidget(m_verdict);
    linesLayout->addWidget(m_window);
    linesLayout->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(lines);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(220);
    scroll->setMaximumWidth(380);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_tabs, 3);
    connect(m_kernels, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (const QTableWidgetItem* item = m_kernels->item(row, 0))
            emit kernelActivated(item->data(kRowRole).toString());
    });
    connect(m_devices, &QTableWidget::cellClicked, this, [this](int row, int) {
        const QTableWidgetItem* item = m_devices->item(row, 0);
        if (!m_diff || !item || !item->data(kRowRole).isValid())
            return;
        const auto index = static_cast<std::size_t>(item->data(kRowRole).toInt());
        if (index < m_diff->diff.devices.size()) {
            const DeviceDiff& d = m_diff->diff.devices[index];
            emit deviceActivated(d.rank, d.deviceId, d.newDeviceId);
        }
    });
    setDiff(nullptr, tr("Compare this trace with another run: File \u203a Compare With..."));
}

void DiffDock::setDiff(std::shared_ptr<const ComparisonDiff> diff, const QString& message)
{
    m_diff = std::move(diff);
    for (QTableWidget* table : { m_devices, m_steps, m_kernels, m_gaps })
        table->setRowCount(0);
    m_warnings->clear();
    if (!m_diff) {
        m_verdict->setText(message);
        m_window->clear();
        return;
    }
    const ComparisonDiff& d = *m_diff;
    // The line `gapscope diff` prints first, word for word.
    m_verdict->setText(text(verdictLine(d.diff.steps)));
    // The rules Measure against… uses, and each window on the ruler's times (from the trace start).
    QString window = tr("Window: BASE %1; NEW %2 (the rules of a note's Measure against\u2026).")
                         .arg(windowOnRuler(d.baseWindow, d.options, d.baseRulerOrigin),
                             windowOnRuler(d.newWindow, d.options, d.newRulerOrigin));
    if (d.diff.steps.test)
        window += tr(" Why: %1").arg(sentence(text(d.diff.steps.reason)));
    if (!d.diff.steps.caveat.empty())
        window += tr(" Caveat: %1").arg(sentence(text(d.diff.steps.caveat)));
    m_window->setText(window);
    fillSteps(d);
    fillDevices(d);
    fillKernels(d);
    fillGaps(d);
    fillWarnings(d);
}

void DiffDock::fillSteps(const ComparisonDiff& d)
{
    const StepComparison& s = d.diff.steps;
    addRow(m_steps,
        { tr("steps"), QString::number(s.base.durations.size()), QString::number(s.fresh.durations.size()),
            countChange(static_cast<std::int64_t>(s.base.durations.size()),
                static_cast<std::int64_t>(s.fresh.durations.size())) });
    addRow(m_steps, { tr("warm-up excluded"), QString::number(s.base.warmup), QString::number(s.fresh.warmup), {} });
    if (!s.base.durations.empty() && !s.fresh.durations.empty()) {
        addRow(m_steps,
            { tr("mean"), duration(s.base.meanNs), duration(s.fresh.meanNs), change(s.base.meanNs, s.fresh.meanNs) });
        addRow(m_steps,
            { tr("p50"), duration(s.base.p50Ns), duration(s.fresh.p50Ns), change(s.base.p50Ns, s.fresh.p50Ns) });
        addRow(m_steps,
            { tr("p95"), duration(s.base.p95Ns), duration(s.fresh.p95Ns), change(s.base.p95Ns, s.fresh.p95Ns) });
    }
    m_steps->resizeColumnsToContents();
}

void DiffDock::fillDevices(const ComparisonDiff& d)
{
    for (std::size_t i = 0; i < d.diff.devices.size(); ++i) {
        const DeviceDiff& dev = d.diff.devices[i];
        QString title = tr("Device %1").arg(dev.deviceId);
        if (dev.newDeviceId != dev.deviceId)
            title += tr(" (NEW: device %1)").arg(dev.newDeviceId);
        if (dev.rank)
            title += tr(", rank %1").arg(*dev.rank);
        if (dev.base && dev.newRank && dev.newRank != dev.rank)
            title += tr(" (NEW: rank %1)").arg(*dev.newRank);
        const std::string& name = dev.baseName.empty() ? dev.newName : dev.baseName;
        if (!name.empty())
            title += QStringLiteral(" (%1)").arg(text(name));
        title += tr(", window %1").arg(text(std::string(windowKindName(d.options.window.kind))));
        const QVariant index(static_cast<int>(i));
        if (!dev.base || !dev.fresh) {
            addRow(m_devices,
                { title, dev.base ? tr("present") : tr("-"), dev.fresh ? tr("present") : tr("-"),
                    dev.base ? tr("only in BASE") : tr("only in NEW") },
                index);
            continue;
        }
        addRow(m_devices, { title, {}, {}, {} }, index);
        const WindowFigures& a = *dev.base;
        const WindowFigures& b = *dev.fresh;
        const auto figure = [&](const QString& label, TimeNs x, TimeNs y) {
            addRow(m_devices, { QStringLiteral("    ") + label, duration(x), duration(y), change(x, y) }, index);
        };
        figure(tr("span"), a.spanNs, b.spanNs);
        figure(tr("busy"), a.busyNs, b.busyNs);
        figure(tr("idle"), a.idleNs, b.idleNs);
        addRow(m_devices,
            { QStringLiteral("    ") + tr("utilization"), QStringLiteral("%1 %").arg(100.0 * a.utilization, 0, 'f', 2),
                QStringLiteral("%1 %").arg(100.0 * b.utilization, 0, 'f', 2),
                tr("%1%2 points")
                    .arg(b.utilization >= a.utilization ? QStringLiteral("+") : QString())
                    .arg(100.0 * (b.utilization - a.utilization), 0, 'f', 2) },
            index);
        addRow(m_devices,
            { QStringLiteral("    ") + tr("gaps"), QString::number(a.gapCount), QString::number(b.gapCount),
                countChange(static_cast<std::int64_t>(a.gapCount), static_cast<std::int64_t>(b.gapCount)) },
            index);
        for (int c = 0; c < kGapCauseCount; ++c)
            figure(tr("idle %1").arg(text(std::string(gapCauseName(static_cast<GapCause>(c))))), a.idleByCause[c],
                b.idleByCause[c]);
        figure(tr("exposed compute"), a.exposed.compute, b.exposed.compute);
        figure(tr("exposed communication"), a.exposed.communication, b.exposed.communication);
        figure(tr("exposed memcpy"), a.exposed.memcpy, b.exposed.memcpy);
    }
    m_devices->resizeColumnsToContents();
}

void DiffDock::fillKernels(const ComparisonDiff& d)
{
    const auto both = [](const std::optional<KernelSide>& a, const std::optional<KernelSide>& b, auto field) {
        return (a ? field(*a) : QStringLiteral("-")) + QStringLiteral(" \u2192 ")
            + (b ? field(*b) : QStringLiteral("-"));
    };
    for (const KernelDiff& k : d.diff.kernels) {
        QString name = text(k.name);
        if (!k.base)
            name = tr("[new] ") + name;
        else if (!k.fresh)
            name = tr("[gone] ") + name;
        const TimeNs delta = k.deltaTotalNs();
        addRow(m_kernels,
            { (delta > 0 ? QStringLiteral("+") : QString()) + duration(delta),
                both(k.base, k.fresh, [](const KernelSide& s) { return duration(s.totalNs); }),
                both(k.base, k.fresh, [](const KernelSide& s) { return QString::number(s.count); }),
                both(k.base, k.fresh, [](const KernelSide& s) { return duration(s.meanNs); }),
                both(k.base, k.fresh, [](const KernelSide& s) { return duration(s.p50Ns); }), name },
            text(k.name));
    }
    m_kernels->resizeColumnsToContents();
    m_kernels->setColumnWidth(5, 400);
}

void DiffDock::fillGaps(const ComparisonDiff& d)
{
    // Counted from the trace start, as the ruler and the Gaps dock count: the window's start plus the gap's offset
    // in it (a side's processes share one kind of window; the first's is the one the diff names).
    const auto side
        = [&](const QString& name, const std::vector<GapSummary>& gaps, const Window& window, TimeNs origin) {
              for (const GapSummary& g : gaps) {
                  QString device = QString::number(g.deviceId);
                  if (g.rank)
                      device += tr(" rank %1").arg(*g.rank);
                  const TimeNs start = (window.ranges.empty() ? origin : window.start()) + g.startFromWindowNs;
                  addRow(m_gaps,
                      { name, duration(g.durationNs), text(formatRelativeTime(start, origin)), device,
                          text(std::string(gapCauseName(g.cause))), text(g.evidence) });
              }
          };
    side(tr("BASE"), d.diff.baseGaps, d.baseWindow, d.baseRulerOrigin);
    side(tr("NEW"), d.diff.newGaps, d.newWindow, d.newRulerOrigin);
    m_gaps->resizeColumnsToContents();
}

void DiffDock::fillWarnings(const ComparisonDiff& d)
{
    QString html;
    const auto list = [&](const QString& title, const QStringList& items) {
        html += QStringLiteral("<p><b>%1</b>: ").arg(title.toHtmlEscaped());
        if (items.isEmpty()) {
            html += tr("none</p>");
            return;
        }
        html += QStringLiteral("%1</p><ul>").arg(items.size());
        for (const QString& item : items)
            html += QStringLiteral("<li>%1</li>").arg(item.toHtmlEscaped());
        html += QStringLiteral("</ul>");
    };
    QStringList comparability;
    for (const std::string& w : d.diff.warnings)
        comparability << text(w);
    list(tr("These runs may not compare"), comparability);
    const auto notes = [](const std::vector<ImportNote>& import) {
        QStringList out;
        for (const ImportNote& n : import)
            out << QString::fromStdString(n.warning.toString());
        return out;
    };
    list(tr("Import warnings of BASE"), notes(d.diff.baseImport));
    list(tr("Import warnings of NEW"), notes(d.diff.newImport));
    m_warnings->setHtml(html);
    const int count = static_cast<int>(comparability.size() + d.diff.baseImport.size() + d.diff.newImport.size());
    m_tabs->setTabText(m_tabs->indexOf(m_warnings), count ? tr("Warnings (%1)").arg(count) : tr("Warnings"));
}

} // namespace gapscope::app
