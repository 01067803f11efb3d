// SPDX-License-Identifier: MIT
#include "app/cli/export_options.h"

#include "app/cli/report_options.h"

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

bool parseWindow(const std::string& value, WindowSpec& window, std::string& error)
{
    if (value == "gpu") {
        window.kind = WindowKind::Gpu;
    } else if (value == "trace") {
        window.kind = WindowKind::Trace;
    } else if (value == "steps") {
        window.kind = WindowKind::Steps;
    } else {
        const auto colon = value.find(':');
        const auto t0 = colon == std::string::npos ? std::nullopt : parseTime(value.substr(0, colon));
        const auto t1 = colon == std::string::npos ? std::nullopt : parseTime(value.substr(colon + 1));
        if (!t0 || !t1 || *t1 <= *t0) {
            error = "--window must be gpu, trace, steps or T0:T1 with T0 < T1 (ns on the trace clock, or with a "
                    "unit: 12.5ms), got '"
                + value + "'";
            return false;
        }
        window.kind = WindowKind::Explicit;
        window.explicitStart = *t0;
        window.explicitEnd = *t1;
    }
    return true;
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
        if (arg == "--markdown" || arg == "--png") {
            const std::string* value = needValue(arg.c_str());
            if (!value)
                return std::nullopt;
            (arg == "--png" ? options.png : options.markdown) = *value;
        } else if (arg == "--window") {
            const std::string* value = needValue("--window");
            if (!value || !parseWindow(*value, options.window, error))
                return std::nullopt;
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
        } else if (arg == "--activity") {
            const std::string* value = needValue("--activity");
            if (!value)
                return std::nullopt;
            if (*value != "all" && *value != "kernels") {
                error = "--activity must be all or kernels, got '" + *value + "'";
                return std::nullopt;
            }
            options.analysis.activity = *value == "all" ? ActivitySet::All : ActivitySet::Kernels;
        } else if (arg == "--launch-threshold-us") {
            const std::string* value = needValue("--launch-threshold-us");
            if (!value)
                return std::nullopt;
            const auto ns = parseTime(*value + "us");
            if (!ns || *ns < 0) {
                error = "--launch-threshold-us must be a number of microseconds >= 0, got '" + *value + "'";
                return std::nullopt;
            }
            options.analysis.launchThresholdNs = *ns;
        } else if (arg == "--step-pattern") {
            const std::string* value = needValue("--step-pattern");
            if (!value)
                return std::nullopt;
            options.analysis.stepPattern = *value;
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
    options.analysis.window = options.window;
    return options;
}

} // namespace gapscope::cli
