// SPDX-License-Identifier: MIT
#include "app/mainwindow/trace_loader.h"

#include "core/experiment/runs_folder.h"
#include "core/experiment/runs_manifest.h"
#include "core/io/trace_file.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QPointer>

#include <filesystem>

namespace gapscope::app {

namespace {

QString errorText(const IoError& error)
{
    return QString::fromStdString(error.toString());
}

} // namespace

namespace {

/// Reads the files (one process group each) into one finished trace, reporting progress from `from` to `to` %.
std::variant<Trace, QString> readFiles(const QStringList& files, int from, int to, const ProgressCallback& progress,
    std::stop_token stop, const ReadFilter& filter = {})
{
    const QString canceled = QStringLiteral("canceled");
    if (files.isEmpty())
        return QStringLiteral("no trace files given");
    std::vector<std::string> paths;
    for (const QString& file : files)
        paths.push_back(file.toStdString());
    LoadOptions loadOptions;
    loadOptions.stop = stop;
    loadOptions.filter = filter;
    loadOptions.progress = [&](std::size_t i, std::size_t count, const std::string& path) {
        const QString text = QStringLiteral("Reading %1 (%2 of %3)")
                                 .arg(QFileInfo(QString::fromStdString(path)).fileName())
                                 .arg(i + 1)
                                 .arg(count);
        return !stop.stop_requested() && progress(from + static_cast<int>((to - from) * i / count), text);
    };
    auto loaded = loadTraceFiles(paths, loadOptions);
    if (stop.stop_requested() || (!loaded && loaded.error().message == "canceled"))
        return canceled;
    if (!loaded)
        return errorText(loaded.error());
    return std::move(loaded.value());
}

using SideRuns = std::variant<std::optional<ComparedSideRuns>, QString>;

/// When `files` is one folder of repeated runs: all its runs and the one to show (pickShownRun(), progress from
/// `from` to `to` %); nullopt for trace files.
SideRuns runsOf(const QStringList& files, const AnalysisOptions& options, int from, int to,
    const ProgressCallback& progress, const std::stop_token& stop)
{
    if (files.size() != 1)
        return std::optional<ComparedSideRuns> {};
    auto folder = readRunsFolder(files.front().toStdString());
    if (!folder)
        return errorText(folder.error());
    if (!folder->has_value()) {
        std::error_code isFolder;
        if (std::filesystem::is_directory(files.front().toStdString(), isFolder))
            return QStringLiteral("%1: a folder without %2 (not a folder of repeated runs); open its trace files, or "
                                  "'gapscope job %1' for the ranks of a job")
                .arg(files.front(), QString::fromUtf8(kRunsManifestName.data(), kRunsManifestName.size()));
        return std::optional<ComparedSideRuns> {};
    }
    auto picked = pickShownRun(**folder, options, stop, [&](std::size_t run, std::size_t runs) {
        progress(from + static_cast<int>((to - from) * run / runs),
            QStringLiteral("Reading run %1 of %2 to find the median").arg(run + 1).arg(runs));
    });
    if (stop.stop_requested())
        return QStringLiteral("canceled");
    if (!picked)
        return errorText(picked.error());
    return std::optional<ComparedSideRuns>(std::move(picked.value()));
}

/// The files to read: the shown run of a folder of repeated runs, else `files`.
QStringList shownFiles(const QStringList& files, const std::optional<ComparedSideRuns>& runs)
{
    return runs ? QStringList { QString::fromStdString(runs->runFiles.at(runs->shown)) } : files;
}

/// The analysis and the index of a trace to show, from `percent` on.
LoadResult analyzeForDisplay(std::shared_ptr<const Trace> trace, timeline::LoadedTrace loaded,
    const AnalysisOptions& options, int percent, const ProgressCallback& progress, std::stop_token stop,
    const QElapsedTimer& timer)
{
    const QString canceled = QStringLiteral("canceled");
    const auto step = [&](int p, const QString& text) { return !stop.stop_requested() && progress(p, text); };
    if (!step(percent, QStringLiteral("Analysing idle gaps")))
        return canceled;
    AnalysisOptions stoppable = options;
    stoppable.stop = stop;
    auto summaries = std::make_shared<const LaneSummaries>(*trace);
    AnalysisResult result = gapscope::analyze(*trace, *summaries, stoppable);
    if (result.stopped || !step(percent + (100 - percent) / 2, QStringLiteral("Building the timeline index")))
        return canceled;
    auto outcome = std::make_shared<LoadOutcome>();
    outcome->loaded = std::move(loaded);
    outcome->loaded.laneSummaries = std::move(summaries);
    outcome->loaded.index = std::make_shared<const timeline::TimelineIndex>(timeline::TimelineIndex::build(*trace));
    outcome->analysis = timeline::makeAnalysisSnapshot(*trace, std::move(result));
    for (const ImportWarning& w : trace->warnings())
        outcome->warnings << QString::fromStdString(w.toString());
    outcome->loaded.trace = std::move(trace);
    outcome->elapsedMs = timer.elapsed();
    progress(100, QStringLiteral("Done"));
    return std::shared_ptr<const LoadOutcome>(std::move(outcome));
}

} // namespace

LoadResult loadAndAnalyze(const QStringList& files, const AnalysisOptions& options, const ProgressCallback& progress,
    std::stop_token stop, const ReadFilter& filter)
{
    QElapsedTimer timer;
    timer.start();
    SideRuns runs = runsOf(files, options, 0, 40, progress, stop);
    if (auto* problem = std::get_if<QString>(&runs))
        return *problem;
    auto& side = std::get<std::optional<ComparedSideRuns>>(runs);
    const QStringList shown = shownFiles(files, side);
    auto read = readFiles(shown, side ? 40 : 0, 70, progress, stop, filter);
    if (auto* problem = std::get_if<QString>(&read))
        return *problem;
    auto trace = std::make_shared<const Trace>(std::move(std::get<Trace>(read)));
    timeline::LoadedTrace loaded;
    for (const QString& file : shown)
        loaded.files.push_back(file.toStdString());
    if (side)
        loaded.runs = std::make_shared<const ComparedSideRuns>(std::move(*side));
    return analyzeForDisplay(std::move(trace), std::move(loaded), options, 70, progress, std::move(stop), timer);
}

LoadResult loadAndCompare(const ComparisonRequest& request, const AnalysisOptions& options,
    const ProgressCallback& progress, std::stop_token stop)
{
    QElapsedTimer timer;
    timer.start();
    if (!request.base)
        return QStringLiteral("open the BASE trace first");
    auto compared = std::make_shared<ComparedTraces>();
    compared->base = request.base;
    compared->baseFiles = request.baseFiles;
    if (request.baseRuns)
        compared->baseRuns = *request.baseRuns;
    compared->fresh = request.fresh;
    compared->newRuns = request.newRuns;
    QStringList newFiles = request.newFiles;
    if (!compared->fresh) {
        SideRuns runs = runsOf(request.newFiles, options, 0, 30, progress, stop);
        if (auto* problem = std::get_if<QString>(&runs))
            return *problem;
        auto& side = std::get<std::optional<ComparedSideRuns>>(runs);
        newFiles = shownFiles(request.newFiles, side);
        auto read = readFiles(newFiles, side ? 30 : 0, 50, progress, stop);
        if (auto* problem = std::get_if<QString>(&read))
            return *problem;
        compared->fresh = std::make_shared<const Trace>(std::move(std::get<Trace>(read)));
        if (side)
            compared->newRuns = std::move(*side);
    }
    for (const QString& file : newFiles)
        compared->newFiles.push_back(file.toStdString());
    if (stop.stop_requested() || !progress(50, QStringLiteral("Aligning the two runs")))
        return QStringLiteral("canceled");
    compared->baseStepStarts = countedStepStarts(*compared->base, options);
    compared->newStepStarts = countedStepStarts(*compared->fresh, options);
    alignComparison(*compared, request.alignStep, options);
    compared->newFirstProcess = static_cast<std::uint32_t>(compared->base->processes().size());
    compared->baseTitle = comparisonTitle("Base", compared->baseFiles, compared->baseRuns);
    compared->newTitle = comparisonTitle("New", compared->newFiles, compared->newRuns);
    auto trace = std::make_shared<const Trace>(combineComparedTraces(*compared));
    timeline::LoadedTrace loaded;
    loaded.files = compared->baseFiles; // the notes stay BASE's
    const auto processes = static_cast<std::uint32_t>(trace->processes().size());
    loaded.blocks = { { compared->baseTitle, 0, compared->newFirstProcess },
        { compared->newTitle, compared->newFirstProcess, processes } };
    loaded.comparison = std::move(compared);
    return analyzeForDisplay(std::move(trace), std::move(loaded), options, 60, progress, std::move(stop), timer);
}

TraceLoader::TraceLoader(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<std::shared_ptr<const gapscope::app::LoadOutcome>>();
    qRegisterMetaType<gapscope::timeline::AnalysisSnapshot>();
}

// The LatestJob members ask running workers to stop; the workers hold only shared state.
TraceLoader::~TraceLoader() = default;

quint64 TraceLoader::load(const QStringList& files, const AnalysisOptions& options, const ReadFilter& filter)
{
    return startLoad([files, options, filter](const ProgressCallback& progress, std::stop_token stop) {
        return loadAndAnalyze(files, options, progress, std::move(stop), filter);
    });
}

quint64 TraceLoader::loadComparison(const ComparisonRequest& request, const AnalysisOptions& options)
{
    return startLoad([request, options](const ProgressCallback& progress, std::stop_token stop) {
        return loadAndCompare(request, options, progress, std::move(stop));
    });
}

quint64 TraceLoader::startLoad(std::function<LoadResult(const ProgressCallback& progress, std::stop_token stop)> work)
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
        this, [work = std::move(work), progress](std::stop_token stop) -> LoadResult { return work(progress, stop); },
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

quint64 TraceLoader::analyze(std::shared_ptr<const Trace> trace, std::shared_ptr<const LaneSummaries> summaries,
    const AnalysisOptions& options, AnalysisPurpose purpose)
{
    const quint64 job = analysisJob(purpose).current() + 1;
    return analysisJob(purpose).run(
        this,
        [trace, summaries, options](std::stop_token stop) {
            AnalysisOptions stoppable = options;
            stoppable.stop = std::move(stop);
            AnalysisResult result
                = summaries ? gapscope::analyze(*trace, *summaries, stoppable) : gapscope::analyze(*trace, stoppable);
            return timeline::makeAnalysisSnapshot(*trace, std::move(result));
        },
        [this, job, purpose](const timeline::AnalysisSnapshot& snapshot) {
            // A stopped analysis was replaced: its job is no longer the latest, so this is not reached.
            emit analysisFinished(job, purpose, snapshot);
        });
}

} // namespace gapscope::app
