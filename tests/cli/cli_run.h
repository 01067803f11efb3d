// SPDX-License-Identifier: MIT
#pragma once

// Running a CLI command in-process, as the tests of tests/cli do: its exit code and what it wrote.

#include <sstream>
#include <string>
#include <vector>

namespace gapscope::test {

struct RunResult {
    int exitCode;
    std::string out;
    std::string err;
};

/// Runs `command` (cli::runReport, cli::runDiff, ...) on `args`.
template <typename Command> RunResult run(Command command, std::vector<std::string> args)
{
    std::ostringstream out;
    std::ostringstream err;
    const int code = command(args, out, err);
    return { code, out.str(), err.str() };
}

} // namespace gapscope::test
