// SPDX-License-Identifier: MIT
#include "app/export/cli_picture_exporter.h"

#include <QGuiApplication>

#include <filesystem>
#include <memory>

namespace gapscope::picture {

namespace {

/// A QGuiApplication for the length of one export when the process has none (the command line).
class HeadlessGui {
public:
    HeadlessGui()
    {
        if (QCoreApplication::instance())
            return;
        // Drawing an image needs no display: without an explicit platform, do not try to reach one (a
        // stale DISPLAY over ssh would abort the program).
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        m_application = std::make_unique<QGuiApplication>(m_argc, m_argv);
    }

private:
    int m_argc = 1;
    char m_name[9] = "gapscope";
    char* m_argv[2] = { m_name, nullptr };
    std::unique_ptr<QGuiApplication> m_application;
};

} // namespace

IoResult<std::unique_ptr<CliPicture>> prepareCliPicture(const Trace& trace, const std::vector<Annotation>& annotations,
    const cli::ExportOptions& options, const cli::NoteResults& measured)
{
    const auto span = trace.timeSpan();
    if (!span)
        return IoError { options.trace, std::nullopt, "the trace holds no events: nothing to draw" };
    AnalysisOptions analysisOptions = options.analysis;
    analysisOptions.window = options.window;
    // The picture needs the device gaps and their causes only.
    analysisOptions.streamGaps = false;
    analysisOptions.kernelStatistics = false;
    auto picture = std::make_unique<CliPicture>();
    picture->analysis = analyze(trace, analysisOptions);
    picture->index = timeline::TimelineIndex::build(trace);
    picture->gaps = timeline::GapOverlay(picture->analysis, trace.devices().size());

    const auto range = windowExtent(picture->analysis);
    PictureRequest& request = picture->request;
    request.trace = &trace;
    request.index = &picture->index;
    request.analysis = &picture->analysis;
    request.gaps = &picture->gaps;
    request.annotations = annotations;
    request.measurements = measured.measurements;
    request.measurementErrors = measured.errors;
    request.start = range ? range->first : span->first;
    request.end = std::max(request.start + 1, range ? range->second : span->second);
    request.origin = span->first;
    request.traceName = QString::fromStdString(std::filesystem::path(options.trace).filename().string());
    request.rangeName
        = range ? windowRangeName(picture->analysis) : QStringLiteral("whole trace (the window is empty)");
    request.ownWindows = range.has_value();
    request.width = options.width;
    request.height = options.height;
    return picture;
}

IoResult<void> exportPictureForCli(const Trace& trace, const std::vector<Annotation>& annotations,
    const cli::ExportOptions& options, const cli::NoteResults& measured)
{
    auto picture = prepareCliPicture(trace, annotations, options, measured);
    if (!picture)
        return picture.error();
    HeadlessGui gui;
    return writePicture(picture.value()->request, options.png.value_or(std::string()),
        options.pictureIsPdf ? PictureFormat::Pdf : PictureFormat::Png);
}

} // namespace gapscope::picture
