// SPDX-License-Identifier: MIT
#pragma once
// The viewer's command line read against its declarations (kViewerOptions, viewer.h) with CLI11, without Qt: the
// same declarations give `gapscope --demo --help` its text and `gapscope --help` its viewer lines.

#include "core/result.h"

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

struct ViewerArguments {
    /// Each option given, by name (without "--"), with its values in order (none for a flag).
    std::map<std::string, std::vector<std::string>, std::less<>> options;
    std::vector<std::string> traces;

    bool isSet(std::string_view name) const { return options.find(name) != options.end(); }
    /// The values of `name`, in order (empty when not given).
    std::vector<std::string> values(std::string_view name) const;
    /// Its last value ("" when not given).
    std::string value(std::string_view name) const;
};

/// Where reading stopped short of the viewer: the text to print (help and version on stdout, a problem on stderr)
/// and the exit code (0, or 2 for a bad command line).
struct ViewerExit {
    std::string text;
    int exitCode = 0;
};

/// Reads the viewer's command line (without the program name).
Result<ViewerArguments, ViewerExit> readViewerArguments(const std::vector<std::string>& args);

/// The viewer's --help.
std::string viewerHelp();

} // namespace gapscope
