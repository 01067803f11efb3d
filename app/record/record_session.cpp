// SPDX-License-Identifier: MIT
#include "app/record/record_session.h"

#include "core/io/native/native_trace_writer.h"

namespace gapscope::app {

/// Hears the recorder on the worker thread and hands everything to the session on the GUI thread.
class RecordSession::Forwarder final : public capture::RecordObserver {
public:
    explicit Forwarder(RecordSession& session)
        : m_session(session)
    { }
    void onOutput(bool isStderr, std::string_view text) override { m_session.appendOutput(isStderr, text); }
    void onProgress(const capture::RecordProgress& progress) override
    {
        // About four a second: a queued call each is cheap.
        QMetaObject::invokeMethod(
            &m_session,
            [session = &m_session, progress] {
                session->m_lastProgress = progress;
                emit session->progressed(progress);
            },
            Qt::QueuedConnection);
    }
    void onNote(std::string_view text) override
    {
        QMetaObject::invokeMethod(
            &m_session,
            [session = &m_session, note = QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()))] {
                emit session->noted(note);
            },
            Qt::QueuedConnection);
    }

private:
    RecordSession& m_session;
};

RecordSession::RecordSession(capture::RecordOptions options, QString outputFile, QObject* parent)
    : QObject(parent)
    , m_outputFile(std::move(outputFile))
{
    options.output = capture::RecordOptions::Output::Capture;
    m_recorder = std::make_unique<capture::ProgramRecorder>(std::move(options));
    m_outputTimer.setSingleShot(true);
    m_outputTimer.setInterval(kOutputIntervalMs);
    connect(&m_outputTimer, &QTimer::timeout, this, &RecordSession::flushOutput);
}

RecordSession::~RecordSession()
{
    if (m_worker.joinable()) {
        // SIGINT, SIGTERM, SIGKILL at once: the viewer is going away and must not wait on the program.
        for (int i = m_stopRequests; i < 3; ++i)
            m_recorder->requestStop();
        m_worker.join();
    }
}

std::optional<QString> RecordSession::start()
{
    if (m_running || m_worker.joinable())
        return tr("this recording was already started");
    if (auto error = m_recorder->start())
        return QString::fromStdString(*error);
    m_running = true;
    m_worker = std::thread([this] { run(); });
    return std::nullopt;
}

void RecordSession::requestStop()
{
    if (!m_running)
        return;
    ++m_stopRequests;
    m_recorder->requestStop();
}

qint64 RecordSession::pid() const
{
    return m_recorder->pid();
}

void RecordSession::run()
{
    Forwarder forwarder(*this);
    IoResult<capture::RecordResult> recorded = m_recorder->wait(&forwarder);
    auto outcome = std::make_shared<RecordingOutcome>();
    outcome->outputFile = m_outputFile;
    if (!recorded) {
        // The parts folder named in the error is temporary and gone: the message alone says it.
        outcome->error = QString::fromStdString(recorded.error().message);
    } else {
        capture::RecordResult& result = recorded.value();
        outcome->exit = result.exit;
        outcome->exited = true;
        outcome->wallSeconds = result.wallSeconds;
        outcome->events = result.trace.eventCount();
        outcome->summaryText
            = QString::fromStdString(capture::formatSummary(result.summary, result.exit, result.wallSeconds));
        outcome->summary = std::move(result.summary);
        NativeTraceWriter::Options options;
        options.clock = outcome->summary.clock;
        const auto written = NativeTraceWriter::writeFile(result.trace, m_outputFile.toStdString(), options);
        if (written)
            outcome->succeeded = true;
        else
            outcome->error
                = tr("could not write the recording: %1").arg(QString::fromStdString(written.error().toString()));
    }
    QMetaObject::invokeMethod(
        this, [this, outcome] { onWorkerDone(outcome); }, Qt::QueuedConnection);
}

void RecordSession::appendOutput(bool isStderr, std::string_view bytes)
{
    bool post = false;
    {
        std::lock_guard lock(m_pendingMutex);
        if (!m_pending.empty() && m_pending.back().isStderr == isStderr)
            m_pending.back().bytes.append(bytes);
        else
            m_pending.push_back({ isStderr, std::string(bytes) });
        m_pendingBytes += bytes.size();
        // The GUI fell behind: keep the newest output, which is what the user looks at.
        while (m_pendingBytes > kMaxPendingOutputBytes) {
            OutputPiece& oldest = m_pending.front();
            const std::size_t cut = std::min(oldest.bytes.size(), m_pendingBytes - kMaxPendingOutputBytes);
            oldest.bytes.erase(0, cut);
            m_pendingBytes -= cut;
            m_droppedOutputBytes += cut;
            if (oldest.bytes.empty())
                m_pending.erase(m_pending.begin());
        }
        post = !m_flushPosted;
        m_flushPosted = true;
    }
    // One queued call per flush, however many pieces arrive meanwhile: a chatty program cannot
    // flood the event loop.
    if (post)
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (!m_outputTimer.isActive())
                    m_outputTimer.start();
            },
            Qt::QueuedConnection);
}

void RecordSession::flushOutput()
{
    std::vector<OutputPiece> pieces;
    {
        std::lock_guard lock(m_pendingMutex);
        pieces.swap(m_pending);
        m_pendingBytes = 0;
        m_flushPosted = false;
    }
    for (const OutputPiece& piece : pieces) {
        QStringDecoder& decoder = piece.isStderr ? m_stderrDecoder : m_stdoutDecoder;
        const QString text
            = decoder.decode(QByteArrayView(piece.bytes.data(), static_cast<qsizetype>(piece.bytes.size())));
        if (!text.isEmpty())
            emit outputReceived(piece.isStderr, text);
    }
}

void RecordSession::onWorkerDone(std::shared_ptr<RecordingOutcome> outcome)
{
    m_outputTimer.stop();
    flushOutput();
    if (m_worker.joinable())
        m_worker.join(); // it has returned from run() but for its last instructions
    m_running = false;
    emit finished(std::move(outcome));
}

} // namespace gapscope::app
