// SPDX-License-Identifier: MIT
#pragma once
// Each command's options, declared once: name, value form, help text and what the value must be. The
// declarations go onto a CLI11 app, which reads the arguments and writes the command's --help; every problem
// comes back as a UsageError value (CLI11's exceptions stay inside argument_parser.cpp).

#include "core/analysis/analysis.h"
#include "core/result.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gapscope::cli {

/// What one option or argument did: nullopt when it was fine, else why not.
using ArgumentCheck = std::optional<UsageError>;

/// A command's help, made from its declarations.
struct CommandHelp {
    /// The command's name ("report") and what it does, in one line.
    std::string name;
    std::string summary;
    /// Its forms, one per line, each "gapscope NAME [OPTIONS] ..." and ending with '\n'.
    std::string usage;
    /// The whole --help text: summary, usage, arguments and options with their meaning, notes.
    std::string text;
};

/// "usage: " and the forms, then where the options are explained: what a command prints after a bad command line.
std::string usageHint(const CommandHelp& help);

/// The options one command knows. A declaration's `name` is the option's names and, for one with a value, the
/// form of the value: "--top N", "-o,--output OUT" (without a form the help says VALUE).
class ArgumentSpec {
public:
    using ValueHandler = std::function<ArgumentCheck(const std::string& value)>;

    /// `command`: "report", ...; `summary`: what it does, in one line.
    ArgumentSpec(const std::string& command, std::string summary);
    ~ArgumentSpec();
    ArgumentSpec(ArgumentSpec&&) noexcept;
    ArgumentSpec& operator=(ArgumentSpec&&) noexcept;

    /// An option without a value ("--json").
    void flag(const std::string& name, const std::string& help, std::function<void()> set);
    /// An option followed by its value ("--top 5"); it may be given again (each value is handed to `set`, in
    /// order). `missing`: the message when no value follows (default "NAME needs a value").
    void value(const std::string& name, const std::string& help, ValueHandler set, std::string missing = {});
    /// An option whose value is a count >= 0 ("--top must be a count >= 0, got 'x'").
    void count(const std::string& name, const std::string& help, std::function<void(std::size_t)> set);
    /// The analysis options every command that measures takes (kAnalysisOptionNames), written into `options`.
    void analysisOptions(AnalysisOptions& options);
    /// Every argument that is not an option, in order; `form` names them in the usage ("TRACE...").
    /// Without one, such an argument is an error.
    void positional(const std::string& form, const std::string& help, std::function<void(const std::string&)> take);
    /// "--" between positionals, handed to `handle` in its place (options after it are still read). Without one,
    /// "--" ends the options: whatever follows is positional.
    void separator(std::function<ArgumentCheck()> handle);
    /// The first argument that is not an option ends the reading: it and everything after it (a program and its
    /// own arguments) go to `take`; "--" before it is skipped.
    void rest(const std::string& form, const std::string& help, std::function<void(std::vector<std::string>)> take);
    /// Another form of the command, for the usage, as written after "gapscope NAME " ("[OPTIONS] BASE... -- NEW...").
    void form(const std::string& form);
    /// What the declarations do not say (notes), printed after the options.
    void footer(const std::string& text);

    /// Reads `args` in order; the first problem ends the reading and is returned.
    ArgumentCheck parse(const std::vector<std::string>& args);
    CommandHelp help() const;

private:
    struct Declarations;
    std::unique_ptr<Declarations> m_declared;
};

/// The analysis options every command that measures takes (report, diff, summarize, job, export).
inline constexpr const char* kAnalysisOptionNames[]
    = { "--window", "--warmup", "--activity", "--launch-threshold-us", "--step-pattern" };

/// Parses a whole decimal number (nothing else in `text`).
std::optional<long long> parseInteger(const std::string& text);

/// Parses "T0:T1" (each as parseTime reads it) with T0 < T1.
std::optional<std::pair<TimeNs, TimeNs>> parseTimeRange(const std::string& text);

/// Parses a time such as "1500", "1500ns", "2.5us", "3ms", "1s" into ns (plain numbers are ns).
std::optional<TimeNs> parseTime(const std::string& text);

} // namespace gapscope::cli
