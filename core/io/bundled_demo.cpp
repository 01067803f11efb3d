// SPDX-License-Identifier: MIT
#include "core/io/bundled_demo.h"

#include <filesystem>
#include <system_error>

namespace gapscope {

std::vector<std::string> bundledDemoFolders()
{
    std::vector<std::string> folders;
    std::error_code error;
    // The program's own file, whoever runs it and from wherever (Linux), as QCoreApplication::applicationDirPath.
    const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
    if (!error)
        folders.push_back((program.parent_path() / ".." / "share" / "gapscope" / "demo").lexically_normal().string());
#ifdef GAPSCOPE_SOURCE_RESOURCES_DIR
    folders.push_back((std::filesystem::path(GAPSCOPE_SOURCE_RESOURCES_DIR) / "demo").lexically_normal().string());
#endif
    return folders;
}

std::string bundledDemoTrace()
{
    for (const std::string& folder : bundledDemoFolders()) {
        const std::filesystem::path candidate = std::filesystem::path(folder) / kBundledDemoFile;
        std::error_code error;
        if (std::filesystem::is_regular_file(candidate, error))
            return candidate.lexically_normal().string();
    }
    return {};
}

} // namespace gapscope
