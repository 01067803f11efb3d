// SPDX-License-Identifier: MIT
#pragma once

// File › Record… in the main window: the record dialog (made on first use) and what happens to a recording it
// finishes. With no trace on screen the recording opens; with one (and perhaps notes on it) the user chooses to
// replace it, open the recording side by side or keep the current trace.

#include <QObject>
#include <QStringList>

#include <functional>

class QAbstractButton;
class QMainWindow;
class QMessageBox;

namespace gapscope::app {

class RecordDialog;

class RecordingOffer : public QObject {
    Q_OBJECT
public:
    /// `traceShown` says whether a trace is on screen now.
    RecordingOffer(QMainWindow* window, std::function<bool()> traceShown);

    /// Shows the record dialog (created on first use).
    RecordDialog* showDialog();
    RecordDialog* dialog() const { return m_dialog; }
    /// A recording finished: opens it, or with a trace on screen asks what to do with it (prompt()).
    void offer(const QString& file);
    QMessageBox* prompt() const { return m_prompt; }

signals:
    /// Open these files in place of the trace on screen.
    void openRequested(const QStringList& files);
    /// Open these files beside the trace on screen.
    void addRequested(const QStringList& files);

private:
    QMainWindow* m_window;
    std::function<bool()> m_traceShown;
    RecordDialog* m_dialog = nullptr;
    QMessageBox* m_prompt = nullptr;
    QAbstractButton* m_replace = nullptr;
    QAbstractButton* m_sideBySide = nullptr;
};

} // namespace gapscope::app
