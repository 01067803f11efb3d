// SPDX-License-Identifier: MIT
#include "core/io/nsys/nsys_report_export.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace gapscope {

namespace fs = std::filesystem;

namespace {

bool endsWithIgnoringCase(std::string_view text, std::string_view suffix)
{
    if (text.size() < suffix.size())
        return false;
    text = text.substr(text.size() - suffix.size());
    for (std::size_t i = 0; i < suffix.size(); ++i) {
        const char c = text[i] >= 'A' && text[i] <= 'Z' ? static_cast<char>(text[i] - 'A' + 'a') : text[i];
        if (c != suffix[i])
            return false;
    }
    return true;
}

std::string envOr(const char* name, std::string fallback)
{
    const char* value = std::getenv(name);
    return value && *value ? std::string(value) : fallback;
}

/// What identifies one version of the report: size and modification time (ns), and its path.
std::string stampOf(const std::string& reportPath, const struct stat& st)
{
    const long long mtime = static_cast<long long>(st.st_mtim.tv_sec) * 1'000'000'000LL + st.st_mtim.tv_nsec;
    return std::to_string(static_cast<long long>(st.st_size)) + " " + std::to_string(mtime) + " " + reportPath + "\n";
}

std::string hexHash(std::string_view text)
{
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ull;
    }
    char buffer[17];
    std::snprintf(buffer, sizeof(buffer), "%016llx", static_cast<unsigned long long>(hash));
    return buffer;
}

std::string findNsys(const NsysExportOptions& options)
{
    if (options.nsys.find('/') != std::string::npos)
        return options.nsys;
    const std::string name = options.nsys.empty() ? std::string("nsys") : options.nsys;
    std::string_view path = options.searchPath;
    while (!path.empty()) {
        const std::size_t colon = path.find(':');
        const std::string_view dir = path.substr(0, colon);
        path = colon == std::string_view::npos ? std::string_view() : path.substr(colon + 1);
        const std::string candidate = (dir.empty() ? std::string(".") : std::string(dir)) + "/" + name;
        struct stat st { };
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return {};
}

std::string howToExportByHand(const std::string& reportPath)
{
    return "GapScope opens the SQLite export of an Nsight Systems report, which the `nsys` command makes. Install "
           "Nsight Systems (NVIDIA's nsight-systems package; the CUDA toolkit includes it) and put `nsys` on PATH "
           "or name it in the NSYS environment variable, or run on a machine that has it:\n  nsys export --type "
           "sqlite --output "
        + reportPath + ".sqlite " + reportPath + "\nthen open " + reportPath + ".sqlite";
}

/// The last lines of a log file, for an error message.
std::string tailOf(const std::string& path, std::size_t lines)
{
    std::ifstream in(path);
    std::vector<std::string> all;
    for (std::string line; std::getline(in, line);)
        all.push_back(line);
    std::string out;
    for (std::size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i)
        out += "\n  " + all[i];
    return out;
}

/// Runs nsys with its output in `logPath`; the exit status, or -1 with `problem` when it could not run.
int runNsys(
    const std::string& nsys, const std::vector<std::string>& args, const std::string& logPath, std::string& problem)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<char*> argv;
    std::vector<std::string> all { nsys };
    all.insert(all.end(), args.begin(), args.end());
    for (std::string& a : all)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, nsys.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        problem = "cannot run " + nsys + ": " + std::strerror(rc);
        return -1;
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            problem = std::string("waiting for nsys failed: ") + std::strerror(errno);
            return -1;
        }
    }
    if (WIFSIGNALED(status)) {
        problem = nsys + " was killed by signal " + std::to_string(WTERMSIG(status));
        return -1;
    }
    return WEXITSTATUS(status);
}

/// Whether a file can be created in `dir` (made if missing).
bool writableFolder(const fs::path& dir)
{
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        return false;
    const std::string probe = (dir / (".probe-" + std::to_string(::getpid()))).string();
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0)
        return false;
    ::close(fd);
    ::unlink(probe.c_str());
    return true;
}

} // namespace

NsysExportOptions NsysExportOptions::fromEnvironment()
{
    NsysExportOptions options;
    options.nsys = envOr("NSYS", "");
    options.searchPath = envOr("PATH", "/usr/local/bin:/usr/bin:/bin");
    const std::string home = envOr("HOME", "");
    options.userCacheDir = envOr("XDG_CACHE_HOME", home.empty() ? std::string() : home + "/.cache");
    return options;
}

bool isNsysReportName(std::string_view path)
{
    return endsWithIgnoringCase(path, ".nsys-rep") || endsWithIgnoringCase(path, ".qdrep");
}

IoResult<std::string> nsysSqliteExportOf(const std::string& reportPath, const NsysExportOptions& options)
{
    struct stat st { };
    if (::stat(reportPath.c_str(), &st) != 0)
        return IoError { reportPath, std::nullopt, std::string("cannot open: ") + std::strerror(errno) };
    std::error_code ec;
    const fs::path report = fs::absolute(reportPath, ec);
    const std::string stamp = stampOf(report.string(), st);
    const std::string base = report.filename().string();

    // Next to the report first; the user's cache folder when that one is read-only.
    std::vector<fs::path> exports { report.parent_path() / ".gapscope-cache" / (base + ".sqlite") };
    if (!options.userCacheDir.empty()) {
        exports.push_back(
            fs::path(options.userCacheDir) / "gapscope" / "nsys" / (base + "-" + hexHash(report.string()) + ".sqlite"));
    }
    for (const fs::path& cached : exports) {
        std::ifstream in(cached.string() + ".source");
        std::stringstream saved;
        saved << in.rdbuf();
        if (in && saved.str() == stamp && fs::is_regular_file(cached, ec))
            return cached.string();
    }

    const std::string nsys = findNsys(options);
    if (nsys.empty()) {
        return IoError { reportPath, std::nullopt,
            "an Nsight Systems report, and no `nsys` was found (not on PATH, and NSYS is not set). "
                + howToExportByHand(reportPath) };
    }
    for (const fs::path& cached : exports) {
        if (!writableFolder(cached.parent_path()))
            continue;
        const std::string partial = cached.string() + ".partial-" + std::to_string(::getpid()) + ".sqlite";
        const std::string log = cached.string() + ".log";
        std::string problem;
        const int status = runNsys(nsys,
            { "export", "--type", "sqlite", "--force-overwrite", "true", "--output", partial, report.string() }, log,
            problem);
        if (status != 0 || !fs::is_regular_file(partial, ec)) {
            fs::remove(partial, ec);
            if (problem.empty()) {
                problem = status != 0 ? nsys + " export failed with exit status " + std::to_string(status)
                                      : nsys + " export wrote no file";
            }
            return IoError { reportPath, std::nullopt,
                problem + " (output in " + log + "):" + tailOf(log, 5) + "\n" + howToExportByHand(reportPath) };
        }
        fs::rename(partial, cached, ec);
        if (ec) {
            fs::remove(partial, ec);
            return IoError { reportPath, std::nullopt, "cannot keep the export as " + cached.string() };
        }
        std::ofstream(cached.string() + ".source", std::ios::trunc) << stamp;
        return cached.string();
    }
    return IoError { reportPath, std::nullopt,
        "no writable folder for the SQLite export (tried " + exports.front().parent_path().string()
            + (exports.size() > 1 ? " and " + exports.back().parent_path().string() : std::string()) + "). "
            + howToExportByHand(reportPath) };
}

} // namespace gapscope
