// SPDX-License-Identifier: MIT
#include "core/io/trace_file.h"

#include "core/io/chrome/chrome_trace_reader.h"
#include "core/io/chrome/chrome_trace_writer.h"
#include "core/io/common/finished_trace.h"
#include "core/io/memory_fit.h"
#include "core/io/native/native_trace_reader.h"
#include "core/io/native/native_trace_writer.h"
#include "core/io/nsys/nsys_report_export.h"
#include "core/io/nsys/nsys_sqlite_reader.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <string_view>
#include <system_error>

namespace gapscope {

namespace {

enum class TraceFormat {
    ChromeJson, // plain or gzip-compressed Chrome trace-event JSON
    NativeCapture, // the collector's own format (core/io/native/native_format.h), recognised by its magic
    NsysSqlite, // an SQLite database: `nsys export --type sqlite` (core/io/nsys/)
    NsysReport, // an Nsight Systems report (.nsys-rep, .qdrep): opened through its SQLite export
    Unknown,
};

struct Sniffed {
    TraceFormat format = TraceFormat::Unknown;
    std::string problem; // why the format is unknown
};

/// Decides the format from the first bytes, never from the name: renamed or extension-less files load too.
Sniffed sniffFormat(const std::string& path)
{
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file)
        return { TraceFormat::Unknown, "cannot open: " + std::generic_category().message(errno) };
    std::array<unsigned char, 4096> head {};
    const std::size_t size = std::fread(head.data(), 1, head.size(), file);
    std::fclose(file);
    if (size == 0)
        return { TraceFormat::Unknown, "the file is empty" };
    if (size >= 2 && head[0] == 0x1f && head[1] == 0x8b)
        return { TraceFormat::ChromeJson, {} };
    if (NativeTraceReader::hasMagic(std::string_view(reinterpret_cast<const char*>(head.data()), size)))
        return { TraceFormat::NativeCapture, {} };
    if (NsysSqliteReader::hasMagic(std::string_view(reinterpret_cast<const char*>(head.data()), size)))
        return { TraceFormat::NsysSqlite, {} };
    // Another binary format: check its magic bytes here and add a case in loadTraceFile.
    std::size_t i = 0;
    if (size >= 3 && head[0] == 0xef && head[1] == 0xbb && head[2] == 0xbf)
        i = 3; // UTF-8 byte order mark
    while (i < size && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
        ++i;
    if (i < size && (head[i] == '{' || head[i] == '['))
        return { TraceFormat::ChromeJson, {} };
    // nsys's report format is not documented: a report is known by its name, once its content matched nothing.
    if (isNsysReportName(path))
        return { TraceFormat::NsysReport, {} };
    return { TraceFormat::Unknown,
        "not a trace GapScope reads (expected Chrome trace-event JSON, plain or gzip-compressed, a GapScope "
        "capture, an Nsight Systems SQLite export or .nsys-rep report)" };
}

bool endsWithIgnoringCase(std::string_view text, std::string_view suffix)
{
    if (text.size() < suffix.size())
        return false;
    text = text.substr(text.size() - suffix.size());
    for (std::size_t i = 0; i < suffix.size(); ++i) {
        const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
        if (lower(text[i]) != suffix[i])
            return false;
    }
    return true;
}

/// The files' estimated peak against the memory budget (core/io/memory_fit.h), before anything is parsed.
std::optional<IoError> refuseIfTooLarge(const std::vector<std::string>& paths)
{
    const std::optional<std::uint64_t> budget = memoryBudgetBytes();
    return budget ? checkFitsInMemory(paths, *budget) : std::nullopt;
}

} // namespace

IoResult<Trace> loadTraceFile(const std::string& path)
{
    return loadTraceFile(path, std::stop_token {});
}

IoResult<Trace> loadTraceFile(const std::string& path, std::stop_token stop)
{
    return loadTraceFile(path, std::move(stop), ReadFilter {});
}

IoResult<TraceBuilder> readTraceFile(const std::string& path, std::stop_token stop, const ReadFilter& filter)
{
    const Sniffed sniffed = sniffFormat(path);
    // A filtered load is what a trace too large to load whole gets: its size cannot be estimated from the file's.
    if (sniffed.format != TraceFormat::Unknown && !filter.active()) {
        if (auto tooLarge = refuseIfTooLarge({ path }))
            return *tooLarge;
    }
    if (filter.active() && (sniffed.format == TraceFormat::NsysSqlite || sniffed.format == TraceFormat::NsysReport))
        return IoError { path, std::nullopt,
            "only Chrome/Kineto JSON and GapScope captures can be loaded in part (GPU lanes only or a time "
            "range); an Nsight Systems export loads whole" };
    switch (sniffed.format) {
    case TraceFormat::ChromeJson: {
        ChromeReadOptions options;
        options.stop = std::move(stop);
        options.filter = filter;
        auto result = ChromeTraceReader::readUnfinished(path, options);
        if (!result && result.error().file.empty()) {
            IoError error = result.error();
            error.file = path;
            return error;
        }
        return result;
    }
    case TraceFormat::NativeCapture: {
        auto capture = NativeTraceReader::readUnfinished(path, std::move(stop), filter);
        if (!capture)
            return capture.error();
        return std::move(capture.value().trace);
    }
    case TraceFormat::NsysSqlite:
        return NsysSqliteReader::readUnfinished(path);
    case TraceFormat::NsysReport: {
        const auto exported = nsysSqliteExportOf(path, NsysExportOptions::fromEnvironment());
        if (!exported)
            return exported.error();
        auto result = NsysSqliteReader::readUnfinished(exported.value());
        if (result) {
            for (Process& p : result.value().processes())
                p.sourceFile = path;
            result.value().warnings().insert(result.value().warnings().begin(),
                ImportWarning { path, 0, "read through its SQLite export " + exported.value() });
        }
        return result;
    }
    case TraceFormat::Unknown:
        break;
    }
    return IoError { path, std::nullopt, sniffed.problem };
}

IoResult<Trace> loadTraceFile(const std::string& path, std::stop_token stop, const ReadFilter& filter)
{
    return finishedTrace(readTraceFile(path, std::move(stop), filter));
}

IoResult<Trace> loadTraceFiles(const std::vector<std::string>& paths, const ReadFilter& filter)
{
    LoadOptions options;
    options.filter = filter;
    return loadTraceFiles(paths, options);
}

IoResult<Trace> loadTraceFiles(const std::vector<std::string>& paths, const LoadOptions& options)
{
    if (paths.empty())
        return IoError { {}, std::nullopt, "no trace files given" };
    // Together first: each file alone may fit where all of them do not.
    if (paths.size() > 1 && !options.filter.active()) {
        if (auto tooLarge = refuseIfTooLarge(paths))
            return *tooLarge;
    }
    const IoError canceled { {}, std::nullopt, "canceled" };
    TraceBuilder merged;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        if (options.stop.stop_requested() || (options.progress && !options.progress(i, paths.size(), paths[i])))
            return canceled;
        auto loaded = readTraceFile(paths[i], options.stop, options.filter);
        if (options.stop.stop_requested())
            return canceled;
        if (!loaded)
            return loaded.error();
        merged.append(std::move(loaded.value())); // the first is moved in, not re-interned
    }
    return std::move(merged).finish(); // once, however many files
}

IoResult<void> saveTraceFile(const Trace& trace, const std::string& path)
{
    if (endsWithIgnoringCase(path, ".json") || endsWithIgnoringCase(path, ".json.gz"))
        return ChromeTraceWriter::writeFile(trace, path);
    if (endsWithIgnoringCase(path, native::kFileExtension))
        return NativeTraceWriter::writeFile(trace, path);
    return IoError { path, std::nullopt,
        "unsupported output format; supported extensions: .json, .json.gz, .gapscope" };
}

} // namespace gapscope
