// SPDX-License-Identifier: MIT
#pragma once

// The measurement window of the figures, the same choices as `gapscope report --window`:
// gpu, trace, steps (with warm-up steps excluded), or the selected range.

#include "core/analysis/analysis.h"

#include <QWidget>

#include <optional>
#include <utility>

class QComboBox;
class QSpinBox;

namespace gapscope::app {

class WindowSelector : public QWidget {
    Q_OBJECT
public:
    explicit WindowSelector(QWidget* parent = nullptr);
    /// The window spec for the current choice; the selected range is used for the "range" choice.
    WindowSpec spec() const;
    /// The options of the viewer's analyses: the chosen window, device gaps only.
    AnalysisOptions analysisOptions() const;
    /// The range the "selected range" choice uses; nullopt disables that choice.
    void setSelectedRange(std::optional<std::pair<TimeNs, TimeNs>> range);
    /// Sets the choice without emitting windowChanged (e.g. from the command line).
    void setSpec(const WindowSpec& spec);
    QComboBox* combo() const { return m_kind; }

signals:
    void windowChanged(const gapscope::WindowSpec& spec);

private:
    void emitChange();

    QComboBox* m_kind;
    QSpinBox* m_warmup;
    std::optional<std::pair<TimeNs, TimeNs>> m_range;
};

} // namespace gapscope::app
