// SPDX-License-Identifier: MIT
#pragma once
// The one loop that reads a command's arguments (report, diff, export, job, summarize): each command says
// which options it knows and what each does with its value; the loop handles values, "--", unknown options
// and positional arguments the same way for all, and every parser returns its options or the reason as a value.

#include "core/analysis/analysis.h"
#include "core/result.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gapscope::cli {

/// What one option or argument did: nullopt when it was fine, else why not.
using ArgumentCheck = std::optional<UsageError>;

/// The options one command knows, for parseArguments().
class ArgumentSpec {
public:
    using ValueHandler = std::function<ArgumentCheck(const std::string& value)>;

    /// An option without a value ("--json").
    void flag(std::string name, std::function<void()> set);
    /// An option followed by its value ("--top 5"). `missing`: the message when no value follows (default
    /// "NAME needs a value").
    void value(std::string name, ValueHandler set, std::string missing = {});
    /// An option whose value is a count >= 0 ("--top must be a count >= 0, got 'x'").
    void count(std::string name, std::function<void(std::size_t)> set);
    /// The analysis options every command that measures takes (kAnalysisOptionNames), written into `options`.
    void analysisOptions(AnalysisOptions& options);
    /// Every argument that is not an option (an argument starting with "--" that no option names is an error).
    void positional(std::function<void(const std::string&)> take) { m_positional = std::move(take); }
    /// What "--" does; without one it is skipped (it only ends nothing: file names never start with "--").
    void separator(std::function<ArgumentCheck()> handle) { m_separator = std::move(handle); }

    /// Reads `args` in order; the first problem ends the reading and is returned.
    ArgumentCheck parse(const std::vector<std::string>& args) const;

private:
    struct Option {
        bool takesValue = false;
        std::function<void()> set;
        ValueHandler setValue;
        std::string missing;
    };
    std::map<std::string, Option, std::less<>> m_options;
    std::function<void(const std::string&)> m_positional;
    std::function<ArgumentCheck()> m_separator;
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
