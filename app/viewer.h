// SPDX-License-Identifier: MIT
#pragma once

#include <charconv>
#include <optional>
#include <string>
#include <string_view>

namespace gapscope {

/// One option of the viewer's command line, declared here only: the viewer's parser (viewer_arguments.h) is built
/// from kViewerOptions, and the command line (cli/command_line.cpp) reads the same list to tell a viewer command
/// line from a subcommand and to list the options in `gapscope --help`. Qt-free, so that the command line can read
/// it without linking the viewer.
struct ViewerOption {
    const char* name; // without the leading "--"
    const char* valueName; // nullptr: a flag
    const char* help;
    /// What is wrong with a value ("must be WxH in pixels"), or nullopt; nullptr: every value is taken.
    std::optional<std::string> (*check)(std::string_view value) = nullptr;
};

/// "WxH", each side 1..16384 pixels.
inline std::optional<std::string> checkWindowSize(std::string_view value)
{
    const auto side = [](std::string_view text) {
        int n = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
        return ec == std::errc() && ptr == text.data() + text.size() && n >= 1 && n <= 16384;
    };
    const std::size_t x = value.find('x');
    if (x != std::string_view::npos && side(value.substr(0, x)) && side(value.substr(x + 1)))
        return std::nullopt;
    return std::string("must be WxH in pixels, each 1..16384 (e.g. 1600x900)");
}

inline constexpr ViewerOption kViewerOptions[] = {
    { "demo", nullptr, "Open the bundled demo trace." },
    { "screenshot", "FILE", "Save a picture of the window once loaded, then quit." },
    { "select-longest-gap", nullptr, "Select the longest gap once loaded." },
    { "explain-longest-gap", nullptr,
        "Write a note about the longest gap once loaded (saved next to the trace, or for the demo in the user's notes "
        "folder)." },
    { "size", "WxH", "Window size.", checkWindowSize },
    { "compare", "NEW",
        "Compare the trace(s) with this run (NEW), shown under them; repeat for the ranks of a job. A folder of "
        "repeated runs (record --runs) on either side shows its median run and pools all of them in the verdict." },
};

/// Runs the viewer: `gapscope [--demo] [--screenshot FILE] [--select-longest-gap] [--explain-longest-gap]
/// [--size WxH] [--compare NEW]... [TRACE...]`. Creates the QApplication, so call it only when no headless subcommand
/// was asked for (cli/command_line.h decides). Returns the process exit code.
int runViewer(int argc, char** argv);

} // namespace gapscope
