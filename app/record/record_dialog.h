// SPDX-License-Identifier: MIT
#pragma once

// File › Record…: the form that says what to run and what to record, and, while it runs, the live
// panel (elapsed time, records and dropped records so far, the program's output, Stop). When the
// program ends the panel shows the summary `gapscope record` prints and the dialog announces the
// recording, which the main window opens. Non-modal: the viewer stays usable meanwhile.

#include "app/record/record_series.h"
#include "app/record/record_session.h"

#include <QDialog>
#include <QElapsedTimer>
#include <QTimer>

#include <map>
#include <memory>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QMessageBox;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace gapscope::app {

/// What the form asks for, checked: the launcher's options and the file to write (with `runs` > 1, the folder the
/// runs go into).
struct RecordRequest {
    capture::RecordOptions options;
    QString outputFile;
    int runs = 1;
};

class RecordDialog : public QDialog {
    Q_OBJECT
public:
    explicit RecordDialog(QWidget* parent = nullptr);
    ~RecordDialog() override;

    /// Reads and checks the form: the program must exist and be executable (the message is the one
    /// `gapscope record` gives), the arguments and environment lines must parse, one kind at least.
    /// Returns nullopt with `error` set otherwise.
    std::optional<RecordRequest> requestFromForm(QString& error) const;
    /// Starts recording what the form says. On a bad form or a program that cannot start, shows
    /// the message in the dialog, starts nothing and returns false.
    bool startRecording();
    /// Stop button: SIGINT, then SIGTERM, then SIGKILL.
    void stopRecording();
    bool isRecording() const { return m_session && m_session->isRunning(); }
    /// The current or last session; null before the first start.
    RecordSession* session() const { return m_session; }
    /// The current or last series of runs (Runs > 1); null when the last recording was one run.
    const RecordSeries* series() const { return m_series.get(); }
    /// Where a recording goes when the output field is left empty: the working folder (the
    /// viewer's own when empty) if writable, else the application's "recordings" folder.
    static QString defaultOutputFolder(const QString& workingDirectory);

    /// The output view keeps this many lines of the program's output, the newest.
    static constexpr int kOutputLines = 5000;

    QLineEdit* programField() const { return m_program; }
    QLineEdit* argumentsField() const { return m_arguments; }
    QLineEdit* workingDirectoryField() const { return m_workingDirectory; }
    QPlainTextEdit* environmentField() const { return m_environment; }
    QCheckBox* kindBox(capture::RecordKind kind) const { return m_kinds.at(kind); }
    QDoubleSpinBox* delayField() const { return m_delay; }
    QDoubleSpinBox* durationField() const { return m_duration; }
    QSpinBox* runsField() const { return m_runs; }
    QLineEdit* outputField() const { return m_output; }
    QPushButton* recordButton() const { return m_recordButton; }
    QPushButton* stopButton() const { return m_stopButton; }
    /// Errors of the form and of a failed recording.
    QLabel* messageLabel() const { return m_message; }
    QLabel* statusLabel() const { return m_status; }
    QLabel* elapsedLabel() const { return m_elapsed; }
    QLabel* recordsLabel() const { return m_records; }
    QLabel* droppedLabel() const { return m_dropped; }
    QPlainTextEdit* outputView() const { return m_outputView; }
    QPlainTextEdit* summaryView() const { return m_summaryView; }
    /// Asked when the dialog is closed while the program runs; null until then.
    QMessageBox* stopQuestion() const { return m_stopQuestion; }

signals:
    /// The recording was written to `file`: open it.
    void recordingFinished(const QString& file);
    /// Nothing was recorded or the file could not be written; nothing to open.
    void recordingFailed(const QString& message);

public slots:
    void reject() override;

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    QWidget* createForm();
    QWidget* createLivePanel();
    void browseProgram();
    void browseWorkingDirectory();
    void browseOutput();
    void updateOutputPlaceholder();
    void showMessage(const QString& text);
    void setRunningUi(bool running);
    void updateStopButton();
    void tickElapsed();
    void onProgress(const capture::RecordProgress& progress);
    void onOutput(bool isStderr, const QString& text);
    void onFinished(const std::shared_ptr<const RecordingOutcome>& outcome);
    /// Starts one run; the launcher's message when the program cannot start.
    std::optional<QString> startSession(capture::RecordOptions options, const QString& file);
    /// Starts the series' next run; a run that cannot start is recorded as failed and the next one tried.
    void startNextSeriesRun();
    /// One run of a series ended: the next one starts, or the series ends.
    void onSeriesRunFinished(const RecordingOutcome& outcome);
    void finishSeries();
    void showSummary(const QString& text);
    void askToStop();

    QWidget* m_form = nullptr;
    QLineEdit* m_program = nullptr;
    QLineEdit* m_arguments = nullptr;
    QLineEdit* m_workingDirectory = nullptr;
    QPlainTextEdit* m_environment = nullptr;
    std::map<capture::RecordKind, QCheckBox*> m_kinds;
    QDoubleSpinBox* m_delay = nullptr;
    QDoubleSpinBox* m_duration = nullptr;
    QSpinBox* m_runs = nullptr;
    QLabel* m_outputLabel = nullptr;
    QLineEdit* m_output = nullptr;
    QLabel* m_message = nullptr;

    QLabel* m_status = nullptr;
    QLabel* m_elapsed = nullptr;
    QLabel* m_records = nullptr;
    QLabel* m_dropped = nullptr;
    QLabel* m_processes = nullptr;
    QPlainTextEdit* m_outputView = nullptr;
    QPlainTextEdit* m_summaryView = nullptr;
    QPushButton* m_recordButton = nullptr;
    QPushButton* m_stopButton = nullptr;
    QMessageBox* m_stopQuestion = nullptr;

    RecordSession* m_session = nullptr;
    std::unique_ptr<RecordSeries> m_series;
    capture::RecordOptions m_seriesOptions; // what each run of the series records
    QElapsedTimer m_clock;
    QTimer m_ticker;
};

} // namespace gapscope::app
