// SPDX-License-Identifier: MIT
#include "app/mainwindow/trace_loader.h"

#include "core/io/trace_file.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace gapscope::app {

namespace {

using LoadResult = std::variant<std::shared_ptr<const LoadOutcome>, QString>;

QString errorText(const IoError& error)
{
    return QString::fromStdString(error.toString());
}

} // namespace

LoadResult loadAndAnalyze(const QStringList& files, const AnalysisOptions& options, const ProgressCallback& progress)
{
    QElapsedTimer timer;
    timer.start();
    const QString canceled = QStringLiteral("canceled");
    if (files.isEmpty())
        return QStringLiteral("no trace files given");
    // File by file (as loadTraceFiles does), so that progress and cancel work between files.
    Trace merged;
    for (qsizetype i = 0; i < files.size(); ++i) {
        const QString text
            = QStringLiteral("Reading %1 (%2 of %3)").arg(QFileInfo(files[i]).fileName()).arg(i + 1).arg(files.size());
        if (!progress(static_cast<int>(70 * i / files.size()), text))
            return canceled;
        auto loaded = loadTraceFile(files[i].toStdString());
        if (!loaded)
            return errorText(loaded.error());
        if (merged.processes.empty() && merged.lanes.empty())
            merged = std::move(loaded.value());
        else
            merged.append(std::move(loaded.value()));
    }
    if (files.size() > 1)
        merged.finalize();
    if (!progress(70, QStringLiteral("Analysing idle gaps")))
        return canceled;
    auto trace = std::make_shared<const Trace>(std::move(merged));
    AnalysisResult result = gapscope::analyze(*trace, options);
    if (!progress(85, QStringLiteral("Building the timeline index")))
        return canceled;
    auto outcome = std::make_shared<LoadOutcome>();
    outcome->loaded.index = std::make_shared<const timeline::TimelineIndex>(timeline::TimelineIndex::build(*trace));
    outcome->analysis = timeline::makeAnalysisSnapshot(*trace, std::move(result));
    for (const ImportWarning& w : trace->warnings) {
        outcome->warnings << QString::fromStdString(w.toString());
    }
    outcome->loaded.trace = std::move(trace);
    for (const QString& file : files)
        outcome->loaded.files.push_back(file.toStdString());
    outcome->elapsedMs = timer.elapsed();
    progress(100, QStringLiteral("Done"));
    return std::shared_ptr<const LoadOutcome>(std::move(outcome));
}

TraceLoader::TraceLoader(QObject* parent)
    : QObject(parent)
    , m_canceledJob(std::make_shared<std::atomic<quint64>>(0))
{
    qRegisterMetaType<std::shared_ptr<const gapscope::app::LoadOutcome>>();
    qRegisterMetaType<gapscope::timeline::AnalysisSnapshot>();
}

TraceLoader::~TraceLoader()
{
    // Running workers hold only shared state; tell them to stop early.
    m_canceledJob->store(m_currentLoad);
}

quint64 TraceLoader::load(const QStringList& files, const AnalysisOptions& options)
{
    if (m_loading)
        m_canceledJob->store(m_currentLoad);
    const quint64 job = m_nextJob++;
    m_currentLoad = job;
    m_loading = true;
    auto* watcher = new QFutureWatcher<LoadResult>(this);
    // Progress crosses threads as a queued call to this object; a stale job's progress is dropped here.
    QPointer<TraceLoader> self(this);
    const auto canceledJob = m_canceledJob;
    const ProgressCallback progress = [self, job, canceledJob](int percent, const QString& text) {
        if (canceledJob->load() == job)
            return false;
        QMetaObject::invokeMethod(
            self.data(),
            [self, job, percent, text] {
                if (self && self->m_currentLoad == job && self->m_loading)
                    emit self->loadProgress(job, percent, text);
            },
            Qt::QueuedConnection);
        return true;
    };
    connect(watcher, &QFutureWatcher<LoadResult>::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        if (job != m_currentLoad || !m_loading)
            return; // stale: a newer load started, or this one was canceled
        m_loading = false;
        const LoadResult result = watcher->result();
        if (const auto* outcome = std::get_if<std::shared_ptr<const LoadOutcome>>(&result))
            emit loadFinished(job, *outcome);
        else
            emit loadFailed(job, std::get<QString>(result));
    });
    watcher->setFuture(QtConcurrent::run(
        [files, options, progress]() -> LoadResult { return loadAndAnalyze(files, options, progress); }));
    return job;
}

void TraceLoader::cancelLoad()
{
    if (!m_loading)
        return;
    m_canceledJob->store(m_currentLoad);
    m_loading = false;
    emit loadCanceled(m_currentLoad);
}

quint64 TraceLoader::analyze(std::shared_ptr<const Trace> trace, const AnalysisOptions& options, int purpose)
{
    const quint64 job = m_nextJob++;
    m_currentAnalysis[purpose] = job;
    auto* watcher = new QFutureWatcher<timeline::AnalysisSnapshot>(this);
    connect(watcher, &QFutureWatcher<timeline::AnalysisSnapshot>::finished, this, [this, watcher, job, purpose] {
        watcher->deleteLater();
        const auto current = m_currentAnalysis.find(purpose);
        if (current == m_currentAnalysis.end() || current->second != job)
            return;
        emit analysisFinished(job, purpose, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(
        [trace, options] { return timeline::makeAnalysisSnapshot(*trace, gapscope::analyze(*trace, options)); }));
    return job;
}

} // namespace gapscope::app
