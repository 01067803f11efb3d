// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/common/io_error.h"

#include <string>
#include <string_view>

namespace gapscope {

/// Where to find `nsys` and keep its exports. The defaults come from the environment.
struct NsysExportOptions {
    /// The `nsys` executable to run; empty: the one $NSYS names, else `nsys` on `searchPath`.
    std::string nsys;
    /// Folders searched for `nsys`, separated by ':' as in $PATH (default: $PATH).
    std::string searchPath;
    /// The user's cache folder, used when the report's own folder is not writable (default: $XDG_CACHE_HOME, else
    /// ~/.cache); exports go to its `gapscope/nsys` subfolder.
    std::string userCacheDir;

    static NsysExportOptions fromEnvironment();
};

/// Whether a file name is an Nsight Systems report's: `.nsys-rep`, or `.qdrep` (before nsys 2021.4).
bool isNsysReportName(std::string_view path);

/// The SQLite export of an Nsight Systems report, made by `nsys export --type sqlite --output CACHE REPORT` into
/// `.gapscope-cache/` next to the report (or the user's cache folder when that one is not writable), and reused
/// while the report keeps its size and modification time. Returns the export's path; without `nsys`, an IoError
/// saying what to install and the export command to run by hand; when nsys fails, its exit status and last
/// output lines.
IoResult<std::string> nsysSqliteExportOf(const std::string& reportPath, const NsysExportOptions& options);

} // namespace gapscope
