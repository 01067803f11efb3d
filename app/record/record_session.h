// SPDX-License-Identifier: MIT
#pragma once

// One recording run from the GUI: starts the program under the collector (capture::ProgramRecorder),
// waits for it on a worker thread and brings what the recorder reports to the GUI thread as signals.
// The GUI thread never blocks on the program: Stop only sends a signal, and the result arrives by
// a queued call once the recording is gathered and written.

#include "capture/launcher/program_recorder.h"

#include <QObject>
#include <QString>
#include <QStringDecoder>
#include <QTimer>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace gapscope::app {

/// What a finished recording left.
struct RecordingOutcome {
    /// The trace was written to `outputFile`.
    bool succeeded = false;
    /// Why not, when it was not (nothing recorded, the file could not be written).
    QString error;
    QString outputFile;
    capture::ProgramExit exit;
    /// The program ran and its recording was gathered: `exit` says how it ended (false: nothing was gathered).
    bool exited = false;
    double wallSeconds = 0.0;
    capture::RecordingSummary summary;
    /// The summary as `gapscope record` prints it (capture::formatSummary); empty on failure.
    QString summaryText;
    std::uint64_t events = 0;
};

class RecordSession : public QObject {
    Q_OBJECT
public:
    /// `options.output` is forced to Capture: the program's output comes to outputReceived().
    RecordSession(capture::RecordOptions options, QString outputFile, QObject* parent = nullptr);
    /// A program still running is killed (SIGKILL to its group) and the worker joined.
    ~RecordSession() override;

    /// Starts the program and the worker. Returns the launcher's message when it cannot start
    /// (program missing or not executable, no collector, bad working folder); nothing runs then.
    std::optional<QString> start();
    /// SIGINT to the program's group; SIGTERM the second time, SIGKILL from the third on.
    void requestStop();
    /// How many times requestStop() was called.
    int stopRequests() const { return m_stopRequests; }
    bool isRunning() const { return m_running; }
    qint64 pid() const;
    /// The environment the program got ("NAME=value" lines), once started.
    const std::vector<std::string>& environment() const { return m_recorder->environment(); }
    const QString& outputFile() const { return m_outputFile; }
    /// The latest progress report (elapsed time, records and dropped records so far).
    const capture::RecordProgress& lastProgress() const { return m_lastProgress; }
    /// Output bytes left out because the GUI fell behind a program writing faster than it can show.
    std::uint64_t droppedOutputBytes() const { return m_droppedOutputBytes.load(); }

    /// Output waiting for the GUI is cut to this many bytes, oldest first.
    static constexpr std::size_t kMaxPendingOutputBytes = 256 * 1024;
    /// Output reaches the GUI at most this often, however small the pieces the program writes.
    static constexpr int kOutputIntervalMs = 50;

signals:
    /// Output of the program in order, coalesced: one call holds everything one stream wrote since
    /// the previous call.
    void outputReceived(bool isStderr, const QString& text);
    void progressed(const gapscope::capture::RecordProgress& progress);
    /// Something to tell the user while waiting (the launcher's notes).
    void noted(const QString& text);
    /// The recording ended; the session is no longer running. Emitted once, after the last output.
    void finished(std::shared_ptr<const gapscope::app::RecordingOutcome> outcome);

private:
    class Forwarder;
    struct OutputPiece {
        bool isStderr;
        std::string bytes;
    };

    void run();
    void appendOutput(bool isStderr, std::string_view bytes);
    void flushOutput();
    void onWorkerDone(std::shared_ptr<RecordingOutcome> outcome);

    std::unique_ptr<capture::ProgramRecorder> m_recorder;
    QString m_outputFile;
    std::thread m_worker;
    bool m_running = false;
    int m_stopRequests = 0;
    capture::RecordProgress m_lastProgress;
    QTimer m_outputTimer;
    QStringDecoder m_stdoutDecoder { QStringDecoder::Utf8 };
    QStringDecoder m_stderrDecoder { QStringDecoder::Utf8 };

    std::mutex m_pendingMutex; // guards the three below, which the worker fills
    std::vector<OutputPiece> m_pending;
    std::size_t m_pendingBytes = 0;
    bool m_flushPosted = false;
    std::atomic<std::uint64_t> m_droppedOutputBytes { 0 };
};

} // namespace gapscope::app
