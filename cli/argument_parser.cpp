// SPDX-License-Identifier: MIT
#include "cli/argument_parser.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <sstream>
#include <string_view>

namespace gapscope::cli {

std::optional<long long> parseInteger(const std::string& text)
{
    long long value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size())
        return std::nullopt;
    return value;
}

namespace {

/// `digits[.digits]` (with an optional sign) times 10^exponent, rounded to the nearest integer (halves away from
/// zero): decimal text straight into int64, since a double cannot hold a 2024 epoch in ns to the nanosecond.
std::optional<TimeNs> parseDecimal(std::string_view text, int exponent)
{
    bool negative = false;
    if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
        negative = text.front() == '-';
        text.remove_prefix(1);
    }
    const std::size_t point = text.find('.');
    const std::string_view whole = text.substr(0, point);
    const std::string_view fraction = point == std::string_view::npos ? std::string_view {} : text.substr(point + 1);
    const auto allDigits
        = [](std::string_view s) { return s.find_first_not_of("0123456789") == std::string_view::npos; };
    if ((whole.empty() && fraction.empty()) || !allDigits(whole) || !allDigits(fraction))
        return std::nullopt;
    TimeNs value = 0;
    const auto push = [&value](char digit) {
        return !__builtin_mul_overflow(value, 10, &value) && !__builtin_add_overflow(value, digit - '0', &value);
    };
    for (const char c : whole) {
        if (!push(c))
            return std::nullopt;
    }
    for (int i = 0; i < exponent; ++i) {
        if (!push(static_cast<std::size_t>(i) < fraction.size() ? fraction[static_cast<std::size_t>(i)] : '0'))
            return std::nullopt;
    }
    if (fraction.size() > static_cast<std::size_t>(exponent) && fraction[static_cast<std::size_t>(exponent)] >= '5'
        && __builtin_add_overflow(value, 1, &value))
        return std::nullopt;
    return negative ? -value : value;
}

} // namespace

std::optional<TimeNs> parseTime(const std::string& text)
{
    struct Unit {
        const char* suffix;
        int exponent; // the unit in ns, as a power of ten
    };
    static constexpr Unit kUnits[] = { { "ns", 0 }, { "us", 3 }, { "ms", 6 }, { "s", 9 } };
    for (const Unit& unit : kUnits) {
        const std::string_view suffix = unit.suffix;
        if (text.size() > suffix.size() && text.ends_with(suffix))
            return parseDecimal(std::string_view(text).substr(0, text.size() - suffix.size()), unit.exponent);
    }
    return parseInteger(text);
}

std::optional<std::pair<TimeNs, TimeNs>> parseTimeRange(const std::string& text)
{
    const auto colon = text.find(':');
    if (colon == std::string::npos)
        return std::nullopt;
    const auto t0 = parseTime(text.substr(0, colon));
    const auto t1 = parseTime(text.substr(colon + 1));
    if (!t0 || !t1 || *t1 <= *t0)
        return std::nullopt;
    return std::pair { *t0, *t1 };
}

namespace {

/// A declaration's names and value form: "--top N" -> { "--top", "N" }.
std::pair<std::string, std::string> splitDeclaration(const std::string& declaration, const char* defaultForm)
{
    const std::size_t space = declaration.find(' ');
    if (space == std::string::npos)
        return { declaration, defaultForm };
    return { declaration.substr(0, space), declaration.substr(space + 1) };
}

/// The first of a declaration's names, as its messages say it: "-o,--output" -> "-o".
std::string firstName(const std::string& names)
{
    return names.substr(0, names.find(','));
}

// The help's left column (names and value forms) and the width its right column wraps to.
constexpr std::size_t kNameColumn = 34;
constexpr std::size_t kHelpWidth = 118 - kNameColumn;

/// Words wrapped to `width` columns; a '\n' in `text` starts a new line.
std::string wrap(const std::string& text, std::size_t width)
{
    std::string wrapped;
    std::size_t lineLength = 0;
    std::size_t begin = 0;
    while (begin < text.size()) {
        if (text[begin] == '\n') {
            wrapped += '\n';
            lineLength = 0;
            ++begin;
            continue;
        }
        if (text[begin] == ' ') {
            ++begin;
            continue;
        }
        const std::size_t end = std::min(text.find_first_of(" \n", begin), text.size());
        const std::string word = text.substr(begin, end - begin);
        if (lineLength > 0 && lineLength + 1 + word.size() > width) {
            wrapped += '\n';
            lineLength = 0;
        } else if (lineLength > 0) {
            wrapped += ' ';
            ++lineLength;
        }
        wrapped += word;
        lineLength += word.size();
        begin = end;
    }
    return wrapped;
}

/// A handler's "no": thrown through CLI11's reading and caught in ArgumentSpec::parse, never further.
struct Rejected {
    UsageError error;
};

/// "--" handed to a command with a separator: a positional CLI11 keeps in its place, instead of its "end of
/// options" (diff reads options on both sides of it).
constexpr const char* kSeparatorMark = "\x1e--";

/// GapScope's help: "usage: " and each form, positionals and options named by their forms, notes last.
class HelpFormatter : public CLI::Formatter {
public:
    /// `rest`: the form and help of what rest() takes, which CLI11 never reads (so it is no option of its).
    HelpFormatter(std::vector<std::string> forms, std::pair<std::string, std::string> rest)
        : m_forms(std::move(forms))
        , m_rest(std::move(rest))
    {
        column_width(kNameColumn);
        label("Positionals", "Arguments");
    }
    std::string make_usage(const CLI::App* app, std::string) const override
    {
        std::string usage;
        for (const std::string& form : m_forms)
            usage
                += (usage.empty() ? "usage: " : "       ") + app->get_name() + (form.empty() ? "" : " ") + form + "\n";
        return usage;
    }
    std::string make_positionals(const CLI::App* app) const override
    {
        if (m_rest.first.empty())
            return CLI::Formatter::make_positionals(app);
        std::stringstream out;
        out << "\n" << get_label("Positionals") << ":\n";
        CLI::detail::format_help(out, m_rest.first, m_rest.second, column_width_);
        return out.str();
    }
    std::string make_option_name(const CLI::Option* option, bool positional) const override
    {
        return positional ? option->get_option_text() : CLI::Formatter::make_option_name(option, positional);
    }
    std::string make_option_opts(const CLI::Option* option) const override
    {
        const std::string& form = option->get_option_text();
        return option->get_positional() || form.empty() ? std::string() : " " + form;
    }

private:
    std::vector<std::string> m_forms;
    std::pair<std::string, std::string> m_rest;
};

} // namespace

struct ArgumentSpec::Declarations {
    CLI::App app;
    std::string summary;
    /// The forms after "gapscope NAME": the positionals' (after "[OPTIONS]"), then form()'s as written.
    std::vector<std::string> forms;
    std::string firstForm;
    bool hasOptions = false;
    std::vector<std::string> positionals;
    std::function<void(const std::string&)> takePositional;
    std::function<ArgumentCheck()> separator;
    std::function<void(std::vector<std::string>)> takeRest;
    std::pair<std::string, std::string> restHelp;
    /// CLI11's name of each option with a value -> what to say when the value is missing.
    std::vector<std::pair<std::string, std::string>> missing;

    Declarations(const std::string& command, std::string what)
        : app(what, "gapscope " + command)
        , summary(std::move(what))
    {
        app.set_help_flag("-h,--help", "this help");
        app.allow_extras();
    }
};

std::string usageHint(const CommandHelp& help)
{
    std::string text;
    for (std::size_t begin = 0; begin < help.usage.size();) {
        const std::size_t end = help.usage.find('\n', begin);
        text += (begin == 0 ? "usage: " : "       ") + help.usage.substr(begin, end - begin + 1);
        begin = end + 1;
    }
    return text + "`gapscope " + help.name + " --help` says what each option does.\n";
}

ArgumentSpec::ArgumentSpec(const std::string& command, std::string summary)
    : m_declared(std::make_unique<Declarations>(command, std::move(summary)))
{ }

ArgumentSpec::~ArgumentSpec() = default;
ArgumentSpec::ArgumentSpec(ArgumentSpec&&) noexcept = default;
ArgumentSpec& ArgumentSpec::operator=(ArgumentSpec&&) noexcept = default;

void ArgumentSpec::flag(const std::string& name, const std::string& help, std::function<void()> set)
{
    m_declared->hasOptions = true;
    m_declared->app.add_flag_callback(name, std::move(set), wrap(help, kHelpWidth))->option_text("");
}

void ArgumentSpec::value(const std::string& name, const std::string& help, ValueHandler set, std::string missing)
{
    const auto [names, form] = splitDeclaration(name, "VALUE");
    if (missing.empty())
        missing = firstName(names) + " needs a value";
    m_declared->hasOptions = true;
    CLI::Option* option = m_declared->app.add_option_function<std::string>(
        names,
        [set = std::move(set)](const std::string& text) {
            if (ArgumentCheck problem = set(text == kSeparatorMark ? std::string("--") : text))
                throw Rejected { std::move(*problem) };
        },
        wrap(help, kHelpWidth));
    // Each occurrence handled as it is read, in order: the first problem is the one reported, and an option
    // given again hands its values in one after the other.
    option->trigger_on_parse()->option_text(form);
    m_declared->missing.emplace_back(option->get_name(), std::move(missing));
}

void ArgumentSpec::count(const std::string& name, const std::string& help, std::function<void(std::size_t)> set)
{
    const std::string option = firstName(splitDeclaration(name, "N").first);
    value(name.find(' ') == std::string::npos ? name + " N" : name, help,
        [option, set = std::move(set)](const std::string& text) -> ArgumentCheck {
            const auto n = parseInteger(text);
            if (!n || *n < 0)
                return UsageError { option + " must be a count >= 0, got '" + text + "'" };
            set(static_cast<std::size_t>(*n));
            return std::nullopt;
        });
}

void ArgumentSpec::analysisOptions(AnalysisOptions& options)
{
    value("--window gpu|trace|steps|T0:T1",
        "the window the figures are computed over: gpu (default: first to last GPU activity), trace (the whole "
        "trace), steps (first to last counted step) or T0:T1 (ns on the trace clock, or with a unit: 12.5ms)",
        [&options](const std::string& text) -> ArgumentCheck {
            if (text == "gpu") {
                options.window.kind = WindowKind::Gpu;
            } else if (text == "trace") {
                options.window.kind = WindowKind::Trace;
            } else if (text == "steps") {
                options.window.kind = WindowKind::Steps;
            } else {
                const auto range = parseTimeRange(text);
                if (!range)
                    return UsageError { "--window must be gpu, trace, steps or T0:T1 with T0 < T1 (ns on the trace "
                                        "clock, or with a unit: 12.5ms), got '"
                        + text + "'" };
                options.window.kind = WindowKind::Explicit;
                options.window.explicitStart = range->first;
                options.window.explicitEnd = range->second;
            }
            return std::nullopt;
        });
    value("--warmup N",
        "the first N steps of each process are warm-up: left out of the step figures (and of the "
        "steps window)",
        [&options](const std::string& text) -> ArgumentCheck {
            const auto n = parseInteger(text);
            if (!n || *n < 0)
                return UsageError { "--warmup must be a number of steps >= 0, got '" + text + "'" };
            options.window.warmupSteps = static_cast<int>(*n);
            return std::nullopt;
        });
    value("--activity all|kernels",
        "what keeps a GPU busy: all (default: kernels, memcpys and memsets) or kernels (the PyTorch TensorBoard "
        "plugin's GPU utilization)",
        [&options](const std::string& text) -> ArgumentCheck {
            if (text != "all" && text != "kernels")
                return UsageError { "--activity must be all or kernels, got '" + text + "'" };
            options.activity = text == "all" ? ActivitySet::All : ActivitySet::Kernels;
            return std::nullopt;
        });
    value("--launch-threshold-us N",
        "a gap at most N µs long whose kernel was launched before it began is a launch gap (default 30)",
        [&options](const std::string& text) -> ArgumentCheck {
            const auto ns = parseTime(text + "us");
            if (!ns || *ns < 0)
                return UsageError { "--launch-threshold-us must be a number of microseconds >= 0, got '" + text + "'" };
            options.launchThresholdNs = *ns;
            return std::nullopt;
        });
    value("--step-pattern REGEX",
        "NVTX and user-annotation ranges whose name matches this ECMAScript regex are steps too (besides "
        "ProfilerStep#N)",
        [&options](const std::string& text) -> ArgumentCheck {
            options.stepPattern = text;
            return std::nullopt;
        });
}

void ArgumentSpec::positional(
    const std::string& form, const std::string& help, std::function<void(const std::string&)> take)
{
    m_declared->firstForm = form;
    m_declared->takePositional = std::move(take);
    m_declared->app.add_option("arguments", m_declared->positionals, wrap(help, kHelpWidth))->option_text(form);
}

void ArgumentSpec::separator(std::function<ArgumentCheck()> handle)
{
    m_declared->separator = std::move(handle);
}

void ArgumentSpec::rest(
    const std::string& form, const std::string& help, std::function<void(std::vector<std::string>)> take)
{
    m_declared->firstForm = form;
    m_declared->takeRest = std::move(take);
    m_declared->restHelp = { form, wrap(help, kHelpWidth) };
    // The first argument CLI11 knows no option for ends its reading; it and the rest are left over for `take`.
    m_declared->app.prefix_command();
}

void ArgumentSpec::form(const std::string& form)
{
    m_declared->forms.push_back(form);
}

void ArgumentSpec::footer(const std::string& text)
{
    m_declared->app.footer(wrap(text, 118));
}

ArgumentCheck ArgumentSpec::parse(const std::vector<std::string>& args)
{
    Declarations& declared = *m_declared;
    declared.positionals.clear();
    // CLI11 reads the arguments from the back of a reversed list.
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    if (declared.separator)
        std::replace(reversed.begin(), reversed.end(), std::string("--"), std::string(kSeparatorMark));
    try {
        declared.app.parse(reversed);
    } catch (const Rejected& rejected) {
        return rejected.error;
    } catch (const CLI::CallForHelp&) {
        return UsageError { "--help goes alone, right after the command" };
    } catch (const CLI::ArgumentMismatch& mismatch) {
        const std::string_view what = mismatch.what();
        for (const auto& [name, missing] : declared.missing) {
            if (what.starts_with(name + ":"))
                return UsageError { missing };
        }
        return UsageError { mismatch.what() };
    } catch (const CLI::Error& error) {
        return UsageError { error.what() };
    }
    // What CLI11 did not take, in order; a "--" among it is the end of the options, which CLI11 passes on.
    std::vector<std::string> extras = declared.app.remaining();
    if (declared.takeRest) {
        const bool afterSeparator = !extras.empty() && extras.front() == "--";
        if (afterSeparator)
            extras.erase(extras.begin());
        else if (!extras.empty() && extras.front().starts_with("-"))
            return UsageError { "unknown option '" + extras.front() + "'" };
        declared.takeRest(std::move(extras));
        return std::nullopt;
    }
    std::erase(extras, std::string("--"));
    for (const std::string& extra : extras) {
        if (extra.starts_with("-"))
            return UsageError { "unknown option '" + extra + "'" };
    }
    if (!extras.empty())
        return UsageError { "unexpected argument '" + extras.front() + "'" };
    for (const std::string& positional : declared.positionals) {
        if (positional != kSeparatorMark) {
            declared.takePositional(positional);
        } else if (ArgumentCheck problem = declared.separator()) {
            return problem;
        }
    }
    return std::nullopt;
}

CommandHelp ArgumentSpec::help() const
{
    const Declarations& declared = *m_declared;
    std::vector<std::string> forms = declared.forms;
    if (declared.takePositional || declared.takeRest || forms.empty())
        forms.insert(forms.begin(), declared.firstForm);
    if (declared.hasOptions)
        forms.front() = forms.front().empty() ? "[OPTIONS]" : "[OPTIONS] " + forms.front();
    const auto formatter = std::make_shared<HelpFormatter>(forms, declared.restHelp);
    CommandHelp help;
    help.name = declared.app.get_name().substr(std::string_view("gapscope ").size());
    help.summary = declared.summary;
    for (const std::string& form : forms)
        help.usage += declared.app.get_name() + (form.empty() ? "" : " ") + form + "\n";
    help.text = formatter->make_help(&declared.app, declared.app.get_name(), CLI::AppFormatMode::Normal);
    return help;
}

} // namespace gapscope::cli
