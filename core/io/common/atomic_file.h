// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/common/io_error.h"

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace gapscope {

/// Replaces a file so that, whatever happens, the path holds either its previous content or the
/// complete new content, never a mix or a truncated file: the data goes to a temporary file in the
/// same folder, which commit() flushes, fsyncs and renames over the target (then fsyncs the folder).
/// If commit() is not reached (an error, an early return, a crash) the target is untouched and the
/// destructor removes the temporary file.
///
///     auto file = AtomicFile::create(path);
///     if (!file) return file.error();
///     file.value().stream() << content;
///     auto committed = file.value().commit();
///
/// Not thread-safe; one writer per instance. Two writers to the same path: the last commit wins.
class AtomicFile {
public:
    struct Options {
        /// When set and the target exists, the previous content is kept at this path (replacing any
        /// older backup) before the new content takes the target's place.
        std::optional<std::string> backupPath;
    };

    /// Creates the temporary file next to `path`. Fails (with `path` in the error) when the folder is
    /// missing or not writable.
    static IoResult<AtomicFile> create(const std::string& path, Options options);
    static IoResult<AtomicFile> create(const std::string& path) { return create(path, Options {}); }

    AtomicFile(AtomicFile&& other) noexcept;
    AtomicFile& operator=(AtomicFile&& other) noexcept;
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    /// Removes the temporary file if commit() did not succeed.
    ~AtomicFile();

    /// The buffered stream over the temporary file. A write error sets its badbit; commit() reports it.
    std::ostream& stream();
    /// Flushes, fsyncs, keeps the backup if asked, renames over the target and fsyncs the folder.
    /// After a failure the target still holds its previous content. Call at most once.
    IoResult<void> commit();

    const std::string& path() const { return m_path; }
    const std::string& temporaryPath() const { return m_temporaryPath; }

private:
    class FdStreamBuf;
    AtomicFile() = default;
    void discard();

    std::string m_path;
    std::string m_temporaryPath;
    Options m_options;
    int m_fd = -1;
    bool m_committed = false;
    std::unique_ptr<FdStreamBuf> m_buffer;
    std::unique_ptr<std::ostream> m_stream;
};

/// Convenience for small files: replaces `path` with `content` atomically.
IoResult<void> writeFileAtomically(const std::string& path, std::string_view content, AtomicFile::Options options = {});

} // namespace gapscope
