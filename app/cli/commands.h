// SPDX-License-Identifier: MIT
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gapscope::cli {

/// Each command takes its arguments (without the subcommand name), writes results to `out`
/// and problems to `err`, and returns the process exit code.
int runReport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runConvert(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace gapscope::cli
