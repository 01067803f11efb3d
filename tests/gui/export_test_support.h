// SPDX-License-Identifier: MIT
#pragma once

// What the tests of File › Export Image… share: exporting through the window and waiting for the file, the
// request of the view as the window draws it, and a sidecar with a note that names its after trace.

#include "app/export/annotated_picture.h"
#include "app/export/export_image_dialog.h"
#include "app/export/image_export_controller.h"
#include "app/mainwindow/main_window.h"
#include "app/timeline/timeline_state.h"
#include "app/timeline/timeline_view.h"
#include "core/annotations/annotation_store.h"
#include "core/annotations/gap_explanation.h"
#include "core/io/trace_file.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <QImage>
#include <QSignalSpy>

#include <filesystem>
#include <string>

namespace gapscope::test {

/// Exports `choice` through the window (off the GUI thread) and reads the picture back; a null image when the
/// export failed or took more than a minute.
inline QImage exportThroughWindow(app::MainWindow& window, const picture::ExportImageChoice& choice)
{
    QSignalSpy exported(window.imageExport(), &app::ImageExportController::exported);
    if (!window.imageExport()->exportTo(choice) || !exported.wait(60'000) || !exported.at(0).at(1).toString().isEmpty())
        return {};
    return QImage(choice.path);
}

/// The request of the window's current view at width x height, from the scene it paints.
inline picture::PictureRequest viewRequest(const app::MainWindow& window, int width, int height)
{
    const timeline::TimelineScene scene = window.timelineView()->scene();
    picture::PictureRequest request;
    request.trace = scene.trace;
    request.index = scene.index;
    request.analysis = scene.analysis;
    request.gaps = scene.gaps;
    std::tie(request.start, request.end) = window.timelineState()->visibleRange();
    request.origin = window.timelineState()->origin();
    request.rangeName = QStringLiteral("view");
    request.width = width;
    request.height = height;
    request.collapse = timeline::CollapseState {};
    return request;
}

/// Copies the trace `base` (relative to the test data) to `dir`/before.json.gz and saves next to it a note on its
/// longest device gap that names `after` (relative to the test data) as its after trace. Returns the copy's path.
inline std::string copyWithMeasurableNote(const TempDir& dir, const char* base, const char* after)
{
    const std::string before = dir.file("before.json.gz");
    std::filesystem::copy_file(dataPath(base), before);
    auto trace = loadTraceFile(before);
    if (!trace)
        return {};
    const AnalysisResult result = analyze(trace.value(), {});
    Annotation note = explainGap(trace.value(), result, result.gaps[longestDeviceGaps(result, 1).front()]);
    note.id = "host-gap";
    note.title = "GPU idle 62 ms: waiting for the data loader";
    note.afterTrace = std::filesystem::proximate(dataPath(after), dir.path()).string();
    AnnotationStore store = AnnotationStore::openForTrace(before);
    store.add(note);
    return store.save() ? before : std::string();
}

} // namespace gapscope::test
