// SPDX-License-Identifier: MIT
#pragma once

// The Diff dock of a comparison: the verdict line of `gapscope diff` with the window it was computed over, then its
// tables (devices, steps, kernels, the longest gaps of each side, warnings). A click on a kernel row asks for its
// occurrences in both blocks, one on a device row for that device's gap bands.

#include "core/analysis/comparison_diff.h"

#include <QLabel>
#include <QWidget>

#include <memory>
#include <optional>

class QTabWidget;
class QTableWidget;
class QTextBrowser;

namespace gapscope::app {

class DiffDock : public QWidget {
    Q_OBJECT
public:
    explicit DiffDock(QWidget* parent = nullptr);

    /// Shows a diff (null: none, with `message` in place of the verdict).
    void setDiff(std::shared_ptr<const ComparisonDiff> diff, const QString& message = {});
    std::shared_ptr<const ComparisonDiff> diff() const { return m_diff; }

    /// The verdict line and the window line below it, as shown (what an exported picture of the comparison says).
    QStringList summaryLines() const { return { m_verdict->text(), m_window->text() }; }
    QLabel* verdictLabel() const { return m_verdict; }
    QLabel* windowLabel() const { return m_window; }
    QTabWidget* tabs() const { return m_tabs; }
    QTableWidget* devicesTable() const { return m_devices; }
    QTableWidget* stepsTable() const { return m_steps; }
    QTableWidget* kernelsTable() const { return m_kernels; }
    QTableWidget* gapsTable() const { return m_gaps; }
    QTextBrowser* warningsPanel() const { return m_warnings; }

signals:
    /// A kernel row was clicked: its name.
    void kernelActivated(const QString& name);
    /// A device row was clicked: the device's rank (if any) and ordinal, as DeviceDiff matches them.
    void deviceActivated(std::optional<int> rank, int deviceId, int newDeviceId);

private:
    void fillDevices(const ComparisonDiff& d);
    void fillSteps(const ComparisonDiff& d);
    void fillKernels(const ComparisonDiff& d);
    void fillGaps(const ComparisonDiff& d);
    void fillWarnings(const ComparisonDiff& d);

    std::shared_ptr<const ComparisonDiff> m_diff;
    QLabel* m_verdict;
    QLabel* m_window;
    QTabWidget* m_tabs;
    QTableWidget* m_devices;
    QTableWidget* m_steps;
    QTableWidget* m_kernels;
    QTableWidget* m_gaps;
    QTextBrowser* m_warnings;
};

} // namespace gapscope::app
