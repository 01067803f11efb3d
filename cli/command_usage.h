// SPDX-License-Identifier: MIT
#pragma once

// One usage text per command, kept here only: each command prints its own on a bad command line, and
// `gapscope --help` composes them all, so the two cannot drift apart.

#include <span>
#include <string>
#include <string_view>

namespace gapscope::cli {

struct CommandUsage {
    /// The subcommand: "report", "diff", ...
    std::string_view name;
    /// What it does, in one line.
    std::string_view summary;
    /// Its forms: lines starting "gapscope NAME", continuation lines aligned after the command's name; every
    /// line ends with '\n'.
    std::string_view forms;
    /// What the forms do not say (options explained, notes); may be empty.
    std::string_view details;
};

/// Every subcommand, in the order `gapscope --help` lists them.
std::span<const CommandUsage> commandUsages();
/// The usage of subcommand `name`. Precondition: one of commandUsages().
const CommandUsage& commandUsage(std::string_view name);
/// "usage: " and the command's usage text, as the command prints it after a bad command line.
std::string usageText(std::string_view name);

} // namespace gapscope::cli
