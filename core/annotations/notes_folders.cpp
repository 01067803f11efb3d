// SPDX-License-Identifier: MIT
#include "core/annotations/notes_folders.h"

#include "core/io/bundled_demo.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include <unistd.h>

namespace gapscope {

namespace {

std::string environment(const char* name)
{
    const char* value = std::getenv(name);
    return value ? std::string(value) : std::string();
}

std::filesystem::path comparable(const std::filesystem::path& path)
{
    std::error_code ec;
    auto canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
    return ec ? path.lexically_normal() : canonical;
}

/// FNV-1a, 64 bits: stable from one run (and build) to the next, unlike std::hash.
std::string folderHash(const std::string& folder)
{
    std::uint64_t hash = 14695981039346656037ULL;
    for (const char c : folder) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 1099511628211ULL;
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
    return text;
}

} // namespace

NotesFolders NotesFolders::fromEnvironment()
{
    NotesFolders folders;
    const std::string xdg = environment("XDG_DATA_HOME");
    if (!xdg.empty() && xdg.front() == '/') {
        folders.user = (std::filesystem::path(xdg) / "gapscope" / "notes").string();
    } else {
        const std::string home = environment("HOME");
        if (!home.empty())
            folders.user = (std::filesystem::path(home) / ".local" / "share" / "gapscope" / "notes").string();
    }
    return folders;
}

NotesFolders NotesFolders::ofThisProgram()
{
    NotesFolders folders = fromEnvironment();
    folders.program = bundledDemoFolders();
    return folders;
}

SidecarPlace sidecarPlaceFor(const std::string& tracePath, const NotesFolders& folders)
{
    const std::string nextToTrace = tracePath + ".gapscope.json";
    if (folders.user.empty())
        return { nextToTrace, NotesHome::NextToTrace };
    const std::filesystem::path trace = comparable(tracePath);
    const std::filesystem::path folder = trace.parent_path();
    const std::string name = trace.filename().string();
    for (const std::string& program : folders.program) {
        if (!program.empty() && comparable(program) == folder)
            return { (std::filesystem::path(folders.user) / (name + ".gapscope.json")).string(),
                NotesHome::ProgramFolder };
    }
    // A folder that does not exist is left to the save to report, next to the trace.
    if (::access(folder.c_str(), W_OK) == 0 || (errno != EACCES && errno != EROFS))
        return { nextToTrace, NotesHome::NextToTrace };
    return {
        (std::filesystem::path(folders.user) / (name + "-" + folderHash(folder.string()) + ".gapscope.json")).string(),
        NotesHome::ReadOnlyFolder
    };
}

} // namespace gapscope
