// SPDX-License-Identifier: MIT
#include "cli/export_options.h"

#include "cli/commands.h"
#include "cli/report_options.h"

#include <cctype>
#include <charconv>

namespace gapscope::cli {

namespace {

std::optional<int> parsePositive(std::string_view text)
{
    int value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size() || value <= 0)
        return std::nullopt;
    return value;
}

bool hasPdfExtension(const std::string& path)
{
    if (path.size() < 4)
        return false;
    std::string extension = path.substr(path.size() - 4);
    for (char& c : extension)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return extension == ".pdf";
}

} // namespace

namespace {

ArgumentSpec exportArguments(ExportOptions& options, std::vector<std::string>& positional)
{
    // Pictures larger than this are not screenshots; the limit also keeps a typo from allocating gigabytes.
    constexpr int kMaxSide = 16384;
    ArgumentSpec spec("export", "the notes of a trace as a Markdown report, or its annotated picture");
    spec.analysisOptions(options.analysis);
    spec.value("--markdown OUT", "write the Markdown report of the trace's notes to OUT ('-': standard output)",
        [&](const std::string& path) -> ArgumentCheck {
            options.markdown = path;
            return std::nullopt;
        });
    spec.value("--png OUT",
        "write the annotated picture (the lanes over --window, the gap bands, the notes' callouts) to OUT; OUT "
        "ending in .pdf writes it as a PDF page instead",
        [&](const std::string& path) -> ArgumentCheck {
            options.png = path;
            options.pictureIsPdf = hasPdfExtension(path);
            return std::nullopt;
        });
    spec.value("--size WxH", "the picture's size in pixels (default 1920x1080)",
        [&](const std::string& value) -> ArgumentCheck {
            const auto x = value.find('x');
            const auto w = x == std::string::npos ? std::nullopt : parsePositive(std::string_view(value).substr(0, x));
            const auto h = x == std::string::npos ? std::nullopt : parsePositive(std::string_view(value).substr(x + 1));
            if (!w || !h || *w > kMaxSide || *h > kMaxSide)
                return UsageError { "--size must be WxH in pixels, each 1.." + std::to_string(kMaxSide)
                    + " (e.g. 1920x1080), got '" + value + "'" };
            options.width = *w;
            options.height = *h;
            return std::nullopt;
        });
    spec.positional("TRACE", "the trace; its notes come from TRACE.gapscope.json (made in the viewer)",
        [&](const std::string& trace) { positional.push_back(trace); });
    return spec;
}

} // namespace

ParseResult<ExportOptions> parseExportOptions(const std::vector<std::string>& args)
{
    ExportOptions options;
    std::vector<std::string> positional;
    ArgumentSpec spec = exportArguments(options, positional);
    if (ArgumentCheck problem = spec.parse(args))
        return *problem;
    if (positional.size() != 1)
        return UsageError { positional.empty() ? "no trace given"
                                               : "export takes one trace, got " + std::to_string(positional.size()) };
    options.trace = positional.front();
    if (!options.markdown && !options.png)
        return UsageError { "nothing to export: give --markdown OUT and/or --png OUT" };
    options.window = options.analysis.window;
    return options;
}

CommandHelp exportHelp()
{
    ExportOptions options;
    std::vector<std::string> positional;
    return exportArguments(options, positional).help();
}

} // namespace gapscope::cli
