// SPDX-License-Identifier: MIT
// `gapscope export TRACE [--markdown OUT] [--png OUT]`: the hypotheses report and the annotated
// screenshot, headless, from the trace and its annotation sidecar.
#include "cli/commands.h"
#include "cli/export_options.h"
#include "core/annotations/after_trace_measurements.h"
#include "core/annotations/annotation_store.h"
#include "core/annotations/markdown_report.h"
#include "core/io/common/atomic_file.h"
#include "core/io/trace_file.h"

#include <filesystem>
#include <map>

namespace gapscope::cli {

namespace {

PngExporter& pngExporter()
{
    static PngExporter exporter;
    return exporter;
}

NoteResults measureNotes(const Trace& trace, const AnnotationStore& store, const ExportOptions& options)
{
    NoteMeasurements measured
        = measureNotesAgainstAfterTraces(trace, options.trace, store.annotations(), options.analysis);
    return { std::move(measured.measurements), std::move(measured.errors) };
}

int exportMarkdown(const Trace& trace, const AnnotationStore& store, const ExportOptions& options, std::ostream& out,
    std::ostream& err)
{
    MarkdownReportOptions report;
    report.traceName = std::filesystem::path(options.trace).filename().string();
    report.notesSource = store.loadedFrom();
    report.analysis = options.analysis;
    NoteResults measured = measureNotes(trace, store, options);
    report.measurements = std::move(measured.measurements);
    report.measurementErrors = std::move(measured.errors);
    const std::string text = writeMarkdownReport(trace, store.annotations(), report);
    if (*options.markdown == "-") {
        out << text;
        return 0;
    }
    auto written = writeFileAtomically(*options.markdown, text);
    if (!written) {
        err << "gapscope export: " << written.error().toString() << "\n";
        return 1;
    }
    err << "gapscope export: wrote " << store.annotations().size() << " annotation(s) to " << *options.markdown << "\n";
    return 0;
}

int exportPng(const Trace& trace, const AnnotationStore& store, const ExportOptions& options, std::ostream& err)
{
    auto written = pngExporter()(trace, store.annotations(), options, measureNotes(trace, store, options));
    if (!written) {
        err << "gapscope export: " << written.error().toString() << "\n";
        return 1;
    }
    err << "gapscope export: wrote " << options.width << "x" << options.height << " picture to " << *options.png
        << "\n";
    return 0;
}

} // namespace

void setPngExporter(PngExporter exporter)
{
    pngExporter() = std::move(exporter);
}

bool hasPngExporter()
{
    return static_cast<bool>(pngExporter());
}

int runExport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const auto options = parseExportOptions(args);
    if (!options) {
        err << "gapscope export: " << options.error().message << "\n" << usageHint(exportHelp());
        return 2;
    }
    // Checked before any work so that a build without the renderer writes nothing rather than half.
    if (options->png && !hasPngExporter()) {
        err << "gapscope export: --png is not available in this build: the picture is drawn by the viewer's "
               "renderer (Qt 6), which this gapscope does not include. --markdown works.\n";
        return 1;
    }
    auto loaded = loadTraceFile(options->trace);
    if (!loaded) {
        err << "gapscope export: " << loaded.error().toString() << "\n";
        return 1;
    }
    const Trace& trace = loaded.value();
    for (const ImportWarning& w : trace.warnings())
        err << "warning: " << w.toString() << "\n";

    const AnnotationStore store = AnnotationStore::openForTrace(options->trace);
    if (store.loadError())
        err << "warning: the annotation sidecar cannot be read and is left as it is: " << store.loadError()->toString()
            << (store.loadedFrom().empty() ? std::string() : "; using " + store.loadedFrom() + " instead") << "\n";
    else if (store.loadedFrom().empty())
        err << "warning: " << store.sidecarPath() << " does not exist: no annotations to export\n";

    int status = 0;
    if (options->markdown)
        status = exportMarkdown(trace, store, *options, out, err);
    if (status == 0 && options->png)
        status = exportPng(trace, store, *options, err);
    return status;
}

} // namespace gapscope::cli
