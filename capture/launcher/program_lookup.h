// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>

namespace gapscope::capture {

/// Finds the program to run as execvp would, but says clearly why it cannot be run: "no such file",
/// "is a directory", "is not executable", "not found in PATH". A name with a slash is taken relative
/// to `workingDirectory` (the child's current folder; empty: ours); a bare name is searched in
/// `pathVariable` (the child's PATH). Returns the absolute path, or nullopt with `error` set.
std::optional<std::string> findProgram(const std::string& program, const std::string& workingDirectory,
    const std::string& pathVariable, std::string& error);

/// The collector library (libgapscope_inject.so): $GAPSCOPE_INJECT_LIBRARY if set, else next to the
/// running executable (same folder, ../capture in a build tree, ../lib/gapscope when installed),
/// else the path it was built at. Returns an absolute path, or nullopt with `error` listing where it looked.
std::optional<std::string> findInjectionLibrary(std::string& error);

/// Whether an NVIDIA kernel driver is loaded on this machine (/proc/driver/nvidia/version or
/// /dev/nvidiactl exists).
bool nvidiaDriverPresent();

} // namespace gapscope::capture
