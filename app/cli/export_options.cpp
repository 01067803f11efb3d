// SPDX-License-Identifier: MIT
#include "app/cli/export_options.h"

#include "app/cli/report_options.h"

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

std::optional<ExportOptions> parseExportOptions(const std::vector<std::string>& args, std::string& error)
{
    // Pictures larger than this are not screenshots; the limit also keeps a typo from allocating gigabytes.
    constexpr int kMaxSide = 16384;
    ExportOptions options;
    std::vector<std::string> positional;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        const auto needValue = [&](const char* flag) -> const std::string* {
            if (i + 1 >= args.size()) {
                error = std::string(flag) + " needs a value";
                return nullptr;
            }
            return &args[++i];
        };
        const AnalysisOptionParse shared = parseAnalysisOption(args, i, options.analysis, error);
        if (shared == AnalysisOptionParse::Failed)
            return std::nullopt;
        if (shared == AnalysisOptionParse::Parsed)
            continue;
        if (arg == "--markdown" || arg == "--png") {
            const std::string* value = needValue(arg.c_str());
            if (!value)
                return std::nullopt;
            (arg == "--png" ? options.png : options.markdown) = *value;
            if (arg == "--png")
                options.pictureIsPdf = hasPdfExtension(*value);
        } else if (arg == "--size") {
            const std::string* value = needValue("--size");
            if (!value)
                return std::nullopt;
            const auto x = value->find('x');
            const auto w = x == std::string::npos ? std::nullopt : parsePositive(std::string_view(*value).substr(0, x));
            const auto h
                = x == std::string::npos ? std::nullopt : parsePositive(std::string_view(*value).substr(x + 1));
            if (!w || !h || *w > kMaxSide || *h > kMaxSide) {
                error = "--size must be WxH in pixels, each 1.." + std::to_string(kMaxSide) + " (e.g. 1920x1080), got '"
                    + *value + "'";
                return std::nullopt;
            }
            options.width = *w;
            options.height = *h;
        } else if (arg.starts_with("--") && arg != "--") {
            error = "unknown option '" + arg + "'";
            return std::nullopt;
        } else if (arg != "--") {
            positional.push_back(arg);
        }
    }
    if (positional.size() != 1) {
        error = positional.empty() ? "no trace given"
                                   : "export takes one trace, got " + std::to_string(positional.size());
        return std::nullopt;
    }
    options.trace = positional.front();
    if (!options.markdown && !options.png) {
        error = "nothing to export: give --markdown OUT and/or --png OUT";
        return std::nullopt;
    }
    options.window = options.analysis.window;
    return options;
}

} // namespace gapscope::cli
