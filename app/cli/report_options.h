// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/analysis.h"
#include "core/io/common/read_filter.h"

#include <optional>
#include <string>
#include <vector>

namespace gapscope::cli {

/// The parsed command line of `gapscope report`.
struct ReportOptions {
    AnalysisOptions analysis;
    bool json = false;
    /// Rows in the "longest gaps" and "top kernels" lists; nullopt: 10 in text, all in JSON.
    std::optional<std::size_t> top;
    std::vector<std::string> traces;
    /// --gpu-only / --load-range T0:T1: what is read of the files (everything by default).
    ReadFilter load;
};

/// Parses `report` arguments. On failure returns nullopt and writes the reason to `error`.
std::optional<ReportOptions> parseReportOptions(const std::vector<std::string>& args, std::string& error);

/// The analysis options every command that measures takes (report, diff, summarize, job, export).
inline constexpr const char* kAnalysisOptionNames[]
    = { "--window", "--warmup", "--activity", "--launch-threshold-us", "--step-pattern" };

enum class AnalysisOptionParse { NotAnalysisOption, Parsed, Failed };
/// Parses the analysis option at args[i] that `report` and `export` share (--window, --warmup, --activity,
/// --launch-threshold-us, --step-pattern) and moves i past its value. Failed: `error` says why.
AnalysisOptionParse parseAnalysisOption(
    const std::vector<std::string>& args, std::size_t& i, AnalysisOptions& options, std::string& error);

/// Parses a whole decimal number (nothing else in `text`).
std::optional<long long> parseInteger(const std::string& text);

/// Parses "T0:T1" (each as parseTime reads it) with T0 < T1.
std::optional<std::pair<TimeNs, TimeNs>> parseTimeRange(const std::string& text);

/// Parses a time such as "1500", "1500ns", "2.5us", "3ms", "1s" into ns (plain numbers are ns).
std::optional<TimeNs> parseTime(const std::string& text);

} // namespace gapscope::cli
