// SPDX-License-Identifier: MIT
#pragma once

// What the window says about loading: progress with Cancel while a load runs, the figures of the window shown once
// it is done ("window gpu · GPU 0: 1.2 s busy of 1.5 s (80.00 %)", for more than two GPUs their range) in the
// status bar, the banner above the lanes when a file of the trace shown was cut short, and a non-modal message
// naming the file and the place when a load fails.

#include "app/timeline/timeline_data.h"

#include <QObject>

class QLabel;
class QMainWindow;
class QMessageBox;
class QProgressBar;
class QPushButton;

namespace gapscope::app {

class CutShortBanner;
class TraceLoader;

class LoadStatus : public QObject {
    Q_OBJECT
public:
    /// `banner`: the cut-short banner, which the window has laid out above the lanes.
    LoadStatus(QMainWindow* window, TraceLoader* loader, CutShortBanner* banner);

    /// Shows or hides the progress and Cancel (an undetermined progress until the loader reports).
    void setLoading(bool loading);
    /// The status bar's figures of the analysis shown (cleared without one).
    void showFigures(const timeline::LoadedTrace& loaded, const timeline::AnalysisSnapshot& analysis);
    /// Shows the banner for the files of `trace` that were cut short, or hides it (none, or a null trace).
    void showCutShort(const Trace* trace);
    /// Fills the error message (created on first use, not yet shown) with a failed load's message.
    QMessageBox* prepareError(const QString& message);

    QString lastError() const { return m_lastError; }
    QMessageBox* errorDialog() const { return m_errorBox; }

private:
    QMainWindow* m_window;
    QLabel* m_progressLabel;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QLabel* m_figures;
    CutShortBanner* m_cutShort;
    QMessageBox* m_errorBox = nullptr;
    QString m_lastError;
};

} // namespace gapscope::app
