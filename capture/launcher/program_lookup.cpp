// SPDX-License-Identifier: MIT
#include "capture/launcher/program_lookup.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#ifndef GAPSCOPE_INJECT_BUILD_PATH
#define GAPSCOPE_INJECT_BUILD_PATH ""
#endif

namespace gapscope::capture {

namespace {

constexpr const char* kLibraryName = "libgapscope_inject.so";

enum class Runnable { Yes, Missing, Directory, NotExecutable };

Runnable check(const std::string& path)
{
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0)
        return Runnable::Missing;
    if (S_ISDIR(st.st_mode))
        return Runnable::Directory;
    if (!S_ISREG(st.st_mode) || ::access(path.c_str(), X_OK) != 0)
        return Runnable::NotExecutable;
    return Runnable::Yes;
}

std::string absolute(const std::string& path, const std::string& base)
{
    std::filesystem::path p(path);
    if (p.is_relative())
        p = (base.empty() ? std::filesystem::current_path() : std::filesystem::path(base)) / p;
    return p.lexically_normal().string();
}

bool isFile(const std::string& path)
{
    struct stat st { };
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

} // namespace

std::optional<std::string> findProgram(const std::string& program, const std::string& workingDirectory,
    const std::string& pathVariable, std::string& error)
{
    if (program.empty()) {
        error = "no program given";
        return std::nullopt;
    }
    if (program.find('/') != std::string::npos) {
        const std::string path = absolute(program, workingDirectory);
        switch (check(path)) {
        case Runnable::Yes:
            return path;
        case Runnable::Missing:
            error = program + ": no such file";
            break;
        case Runnable::Directory:
            error = program + ": is a directory, not a program";
            break;
        case Runnable::NotExecutable:
            error = program + ": is not executable (permission denied; chmod +x?)";
            break;
        }
        return std::nullopt;
    }
    std::optional<std::string> notExecutable;
    std::size_t begin = 0;
    while (begin <= pathVariable.size()) {
        const std::size_t colon = std::min(pathVariable.find(':', begin), pathVariable.size());
        std::string folder = pathVariable.substr(begin, colon - begin);
        if (folder.empty())
            folder = "."; // an empty PATH entry means the current folder, as in execvp
        const std::string candidate = absolute(folder + "/" + program, workingDirectory);
        const Runnable runnable = check(candidate);
        if (runnable == Runnable::Yes)
            return candidate;
        if (runnable == Runnable::NotExecutable && !notExecutable)
            notExecutable = candidate;
        begin = colon + 1;
    }
    if (notExecutable)
        error = program + ": " + *notExecutable + " is not executable (permission denied)";
    else
        error = program + ": command not found (searched PATH)";
    return std::nullopt;
}

std::optional<std::string> findInjectionLibrary(std::string& error)
{
    std::vector<std::string> candidates;
    if (const char* forced = std::getenv("GAPSCOPE_INJECT_LIBRARY"); forced && *forced) {
        if (isFile(forced))
            return absolute(forced, {});
        error = "GAPSCOPE_INJECT_LIBRARY names " + std::string(forced) + ", which does not exist";
        return std::nullopt;
    }
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const auto dir = exe.parent_path();
        for (const auto& relative :
            { std::filesystem::path(kLibraryName), "../capture" / std::filesystem::path(kLibraryName),
                "../lib/gapscope" / std::filesystem::path(kLibraryName),
                "../lib" / std::filesystem::path(kLibraryName) })
            candidates.push_back((dir / relative).lexically_normal().string());
    }
    if (*GAPSCOPE_INJECT_BUILD_PATH)
        candidates.push_back(GAPSCOPE_INJECT_BUILD_PATH);
    for (const std::string& candidate : candidates) {
        if (isFile(candidate))
            return candidate;
    }
    error = std::string("the collector library ") + kLibraryName + " was not found (looked at:";
    for (const std::string& candidate : candidates)
        error += " " + candidate;
    error += "). It is built only where the CUDA toolkit (CUPTI) or the NVTX headers were found.";
    return std::nullopt;
}

bool nvidiaDriverPresent()
{
    // The device node too: some containers show the GPU (and nvidia-smi works) without
    // /proc/driver/nvidia.
    return ::access("/proc/driver/nvidia/version", F_OK) == 0 || ::access("/dev/nvidiactl", F_OK) == 0;
}

} // namespace gapscope::capture
