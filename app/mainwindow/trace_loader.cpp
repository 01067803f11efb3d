// SPDX-License-Identifier: MIT
#include "app/mainwindow/trace_loader.h"

#include "core/io/trace_file.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QPointer>

namespace gapscope::app {

namespace {

using LoadResult = std::variant<std::shared_ptr<const LoadOutcome>, QString>;

QString errorText(const IoError& error)
{
    return QString::fromStdString(error.toString());
}

} // namespace

LoadResult loadAndAnalyze(
    const QStringList& files, const AnalysisOptions& options, const ProgressCallback& progress, std::stop_token stop)
{
    QElapsedTimer timer;
    timer.start();
    const QString canceled = QStringLiteral("canceled");
    if (files.isEmpty())
        return QStringLiteral("no trace files given");
    const auto step
        = [&](int percent, const QString& text) { return !stop.stop_requested() && progress(percent, text); };
    // File by file (as loadTraceFiles does), so that progress and cancel work between files too.
    Trace merged;
    for (qsizetype i = 0; i < files.size(); ++i) {
        const QString text
            = QStringLiteral("Reading %1 (%2 of %3)").arg(QFileInfo(files[i]).fileName()).arg(i + 1).arg(files.size());
        if (!step(static_cast<int>(70 * i / files.size()), text))
            return canceled;
        auto loaded = loadTraceFile(files[i].toStdString(), stop);
        if (stop.stop_requested())
            return canceled;
        if (!loaded)
            return errorText(loaded.error());
        if (merged.processes.empty() && merged.lanes.empty())
            merged = std::move(loaded.value());
        else
            merged.append(std::move(loaded.value()));
    }
    if (files.size() > 1)
        merged.finalize();
    if (!step(70, QStringLiteral("Analysing idle gaps")))
        return canceled;
    auto trace = std::make_shared<const Trace>(std::move(merged));
    AnalysisOptions stoppable = options;
    stoppable.stop = stop;
    AnalysisResult result = gapscope::analyze(*trace, stoppable);
    if (result.stopped || !step(85, QStringLiteral("Building the timeline index")))
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
{
    qRegisterMetaType<std::shared_ptr<const gapscope::app::LoadOutcome>>();
    qRegisterMetaType<gapscope::timeline::AnalysisSnapshot>();
}

// The LatestJob members ask running workers to stop; the workers hold only shared state.
TraceLoader::~TraceLoader() = default;

quint64 TraceLoader::load(const QStringList& files, const AnalysisOptions& options)
{
    m_loading = true;
    // Progress crosses threads as a queued call to this object; a stale job's progress is dropped here.
    QPointer<TraceLoader> self(this);
    const quint64 job = m_load.current() + 1; // the id run() gives this job
    const ProgressCallback progress = [self, job](int percent, const QString& text) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, job, percent, text] {
                if (self && self->m_load.current() == job && self->m_loading)
                    emit self->loadProgress(job, percent, text);
            },
            Qt::QueuedConnection);
        return true;
    };
    return m_load.run(
        this,
        [files, options, progress](
            std::stop_token stop) -> LoadResult { return loadAndAnalyze(files, options, progress, std::move(stop)); },
        [this, job](const LoadResult& result) {
            m_loading = false;
            if (const auto* outcome = std::get_if<std::shared_ptr<const LoadOutcome>>(&result))
                emit loadFinished(job, *outcome);
            else
                emit loadFailed(job, std::get<QString>(result));
        });
}

void TraceLoader::cancelLoad()
{
    if (!m_loading)
        return;
    const quint64 job = m_load.current();
    m_load.drop();
    m_loading = false;
    emit loadCanceled(job);
}

void TraceLoader::dropAnalyses()
{
    m_mainAnalysis.drop();
    m_rangeAnalysis.drop();
}

quint64 TraceLoader::analyze(
    std::shared_ptr<const Trace> trace, const AnalysisOptions& options, AnalysisPurpose purpose)
{
    const quint64 job = analysisJob(purpose).current() + 1;
    return analysisJob(purpose).run(
        this,
        [trace, options](std::stop_token stop) {
            AnalysisOptions stoppable = options;
            stoppable.stop = std::move(stop);
            AnalysisResult result = gapscope::analyze(*trace, stoppable);
            return timeline::makeAnalysisSnapshot(*trace, std::move(result));
        },
        [this, job, purpose](const timeline::AnalysisSnapshot& snapshot) {
            // A stopped analysis was replaced: its job is no longer the latest, so this is not reached.
            emit analysisFinished(job, purpose, snapshot);
        });
}

} // namespace gapscope::app
