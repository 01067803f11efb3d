// SPDX-License-Identifier: MIT
#include "app/export/picture_export_job.h"

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
        }
        break;
    }
    if (!range || range->second <= range->first)
        return std::nullopt;
    request.start = range->first;
    request.end = range->second;
    return request;
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
    watcher->setFuture(QtConcurrent::run([source, request = std::move(*request), path] {
        const auto written = writePicture(request, path.toStdString());
        return written ? QString() : QString::fromStdString(written.error().toString());
    }));
    return job;
}

} // namespace gapscope::picture
