// SPDX-License-Identifier: MIT
#include "app/export/picture_export_job.h"

#include "core/analysis/compared_traces.h"
#include "core/annotations/after_trace_measurements.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace gapscope::picture {

std::optional<PictureRequest> viewPictureRequest(const ViewPictureSource& source, const ExportImageChoice& choice)
{
    if (!source.loaded.trace || !source.loaded.index)
        return std::nullopt;
    PictureRequest request;
    request.trace = source.loaded.trace.get();
    request.index = source.loaded.index.get();
    request.analysis = source.analysis.result.get();
    request.gaps = source.analysis.gaps.get();
    request.annotations = source.annotations;
    request.blocks = source.loaded.blocks;
    request.origin = source.origin;
    request.traceName = source.traceName;
    request.width = choice.size.width();
    request.height = choice.size.height();
    request.gapThreshold = source.gapThreshold;
    request.comparisonLines = source.comparisonLines;
    std::optional<std::pair<TimeNs, TimeNs>> range;
    switch (choice.range) {
    case PictureRange::View:
        range = source.visible;
        request.rangeName = QStringLiteral("view");
        // The user folded these groups on purpose: the picture keeps them folded.
        request.collapse = source.collapse;
        break;
    case PictureRange::Selection:
        range = source.selection;
        request.rangeName = QStringLiteral("selected range");
        break;
    case PictureRange::AnalysisWindow:
        if (source.analysis.result) {
            range = windowExtent(*source.analysis.result);
            request.rangeName = windowRangeName(*source.analysis.result);
            request.ownWindows = true;
        }
        break;
    }
    if (!range || range->second <= range->first)
        return std::nullopt;
    request.start = range->first;
    request.end = range->second;
    return request;
}

void measureViewNotes(const ViewPictureSource& source, PictureRequest& request)
{
    // The notes are BASE's in a comparison: measured on BASE as read, as the Note panel measures them.
    const auto& compared = source.loaded.comparison;
    const std::shared_ptr<const Trace> before = compared ? compared->base : source.loaded.trace;
    const std::vector<std::string>& files = compared ? compared->baseFiles : source.loaded.files;
    if (!before || files.empty())
        return;
    const AnalysisOptions options = source.analysis.result ? source.analysis.result->options : AnalysisOptions {};
    NoteMeasurements measured = measureNotesAgainstAfterTraces(*before, files.front(), source.annotations, options);
    request.measurements = std::move(measured.measurements);
    request.measurementErrors = std::move(measured.errors);
}

PictureExportJob::PictureExportJob(QObject* parent)
    : QObject(parent)
{ }

PictureExportJob* PictureExportJob::start(
    std::shared_ptr<const ViewPictureSource> source, const ExportImageChoice& choice, QObject* parent)
{
    auto request = viewPictureRequest(*source, choice);
    if (!request)
        return nullptr;
    auto* job = new PictureExportJob(parent);
    auto* watcher = new QFutureWatcher<QString>(job);
    const QString path = choice.path;
    connect(watcher, &QFutureWatcher<QString>::finished, job, [job, watcher, path] {
        emit job->finished(path, watcher->result());
        job->deleteLater();
    });
    // QImage and QPdfWriter painting is thread-safe; `source` keeps the trace alive until it is done.
    watcher->setFuture(QtConcurrent::run([source, request = std::move(*request), path]() mutable {
        measureViewNotes(*source, request);
        const auto written = writePicture(request, path.toStdString());
        return written ? QString() : QString::fromStdString(written.error().toString());
    }));
    return job;
}

} // namespace gapscope::picture
