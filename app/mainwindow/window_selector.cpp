// SPDX-License-Identifier: MIT
#include "app/mainwindow/window_selector.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>

namespace gapscope::app {

namespace {

constexpr int kRangeItem = 3;

} // namespace

WindowSelector::WindowSelector(QWidget* parent)
    : QWidget(parent)
    , m_kind(new QComboBox(this))
    , m_warmup(new QSpinBox(this))
{
    m_kind->addItem(tr("gpu: first to last GPU activity"), static_cast<int>(WindowKind::Gpu));
    m_kind->addItem(tr("trace: first to last event"), static_cast<int>(WindowKind::Trace));
    m_kind->addItem(tr("steps"), static_cast<int>(WindowKind::Steps));
    m_kind->addItem(tr("selected range"), static_cast<int>(WindowKind::Explicit));
    m_kind->setToolTip(tr("The window every figure is measured over (as gapscope report --window)"));
    m_warmup->setRange(0, 1000);
    m_warmup->setPrefix(tr("skip "));
    m_warmup->setSuffix(tr(" warm-up"));
    m_warmup->setToolTip(tr("Leading steps excluded as warm-up (as gapscope report --warmup)"));
    m_warmup->setEnabled(false);
    setSelectedRange(std::nullopt);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Window"), this));
    layout->addWidget(m_kind);
    layout->addWidget(m_warmup);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        m_warmup->setEnabled(m_kind->currentData().toInt() == static_cast<int>(WindowKind::Steps));
        emitChange();
    });
    connect(m_warmup, &QSpinBox::valueChanged, this, [this] { emitChange(); });
}

AnalysisOptions WindowSelector::analysisOptions() const
{
    AnalysisOptions options;
    options.window = spec();
    // The Gaps dock lists device gaps; stream gaps cost about one entry per GPU op.
    options.streamGaps = false;
    return options;
}

WindowSpec WindowSelector::spec() const
{
    WindowSpec spec;
    spec.kind = static_cast<WindowKind>(m_kind->currentData().toInt());
    spec.warmupSteps = spec.kind == WindowKind::Steps ? m_warmup->value() : 0;
    if (spec.kind == WindowKind::Explicit) {
        if (!m_range)
            return WindowSpec {};
        spec.explicitStart = m_range->first;
        spec.explicitEnd = m_range->second;
    }
    return spec;
}

void WindowSelector::setSelectedRange(std::optional<std::pair<TimeNs, TimeNs>> range)
{
    const bool changed = m_range != range;
    m_range = range;
    if (auto* model = qobject_cast<QStandardItemModel*>(m_kind->model()))
        model->item(kRangeItem)->setEnabled(m_range.has_value());
    if (changed && m_kind->currentIndex() == kRangeItem) {
        if (!m_range)
            m_kind->setCurrentIndex(0); // emits
        else
            emitChange();
    }
}

void WindowSelector::setSpec(const WindowSpec& spec)
{
    const QSignalBlocker blockKind(m_kind);
    const QSignalBlocker blockWarmup(m_warmup);
    m_kind->setCurrentIndex(std::max(0, m_kind->findData(static_cast<int>(spec.kind))));
    m_warmup->setValue(spec.warmupSteps);
    m_warmup->setEnabled(spec.kind == WindowKind::Steps);
}

void WindowSelector::emitChange()
{
    emit windowChanged(spec());
}

} // namespace gapscope::app
