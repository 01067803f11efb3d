// SPDX-License-Identifier: MIT
#include "app/viewer_arguments.h"

#include "app/viewer.h"

#include <CLI/CLI.hpp>

#include <memory>

namespace gapscope {

namespace {

/// The viewer's options declared on a CLI11 app from kViewerOptions; what is read goes into `read`.
std::unique_ptr<CLI::App> viewerApp(ViewerArguments& read)
{
    auto app = std::make_unique<CLI::App>("GapScope: GPU timeline viewer and idle-gap analysis", "gapscope");
    app->set_help_flag("-h,--help", "this help");
    app->set_version_flag("--version", std::string("gapscope ") + GAPSCOPE_VERSION, "the version");
    app->get_formatter()->column_width(28);
    app->get_formatter()->label("Usage", "usage");
    app->get_formatter()->label("Positionals", "Arguments");
    for (const ViewerOption& declared : kViewerOptions) {
        const std::string name = declared.name;
        if (!declared.valueName) {
            app->add_flag_callback(
                "--" + name, [&read, name] { read.options[name]; }, declared.help);
            continue;
        }
        const auto check = declared.check;
        app->add_option_function<std::string>(
               "--" + name,
               [&read, name, check](const std::string& value) {
                   const std::optional<std::string> problem = check ? check(value) : std::nullopt;
                   if (problem) {
                       std::string message = "--" + name;
                       message += " " + *problem + ", got '" + value + "'";
                       throw CLI::ValidationError(message);
                   }
                   read.options[name].push_back(value);
               },
               declared.help)
            ->option_text(declared.valueName)
            ->trigger_on_parse();
    }
    app->add_option("TRACE", read.traces,
           "trace files (the ranks of one job), RANK.summary.json files, or a folder of repeated runs")
        ->option_text("...");
    return app;
}

} // namespace

std::vector<std::string> ViewerArguments::values(std::string_view name) const
{
    const auto it = options.find(name);
    return it == options.end() ? std::vector<std::string> {} : it->second;
}

std::string ViewerArguments::value(std::string_view name) const
{
    const auto it = options.find(name);
    return it == options.end() || it->second.empty() ? std::string() : it->second.back();
}

Result<ViewerArguments, ViewerExit> readViewerArguments(const std::vector<std::string>& args)
{
    ViewerArguments read;
    const std::unique_ptr<CLI::App> app = viewerApp(read);
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    try {
        app->parse(reversed);
    } catch (const CLI::CallForHelp&) {
        return ViewerExit { app->help(), 0 };
    } catch (const CLI::CallForVersion& version) {
        return ViewerExit { std::string(version.what()) + "\n", 0 };
    } catch (const CLI::ParseError& error) {
        std::string message = error.what();
        // CLI11's "NAME: 1 required TEXT missing" and "The following arguments were not expected: ...", in the
        // words the subcommands use.
        if (dynamic_cast<const CLI::ArgumentMismatch*>(&error))
            message = message.substr(0, message.find(':')) + " needs a value";
        else if (dynamic_cast<const CLI::ExtrasError*>(&error))
            message = "unknown option '" + message.substr(message.find(':') + 2) + "'";
        return ViewerExit { "gapscope: " + message
                + "\n(gapscope --help lists the commands, gapscope --demo --help "
                  "the viewer's options)\n",
            2 };
    }
    return read;
}

std::string viewerHelp()
{
    ViewerArguments unused;
    return viewerApp(unused)->help();
}

} // namespace gapscope
