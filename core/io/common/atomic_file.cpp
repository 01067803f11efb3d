// SPDX-License-Identifier: MIT
#include "core/io/common/atomic_file.h"

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <streambuf>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gapscope {

namespace {

std::string errnoText(int error)
{
    return std::generic_category().message(error);
}

IoError fileError(const std::string& path, std::string message)
{
    return IoError { path, std::nullopt, std::move(message) };
}

/// Folder of `path` ("." for a bare name), for the temporary file and the folder fsync.
std::string folderOf(const std::string& path)
{
    const auto parent = std::filesystem::path(path).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
}

void fsyncFolder(const std::string& folder)
{
    // Makes the rename itself durable. Failing here cannot undo the rename, so it is best effort.
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    ::fsync(fd);
    ::close(fd);
}

bool keepBackup(const std::string& target, const std::string& backup, std::string& error)
{
    if (::access(target.c_str(), F_OK) != 0)
        return true; // nothing to keep
    if (::unlink(backup.c_str()) != 0 && errno != ENOENT) {
        error = "cannot replace the backup " + backup + ": " + errnoText(errno);
        return false;
    }
    // A hard link keeps the old content at no cost; the rename then only moves the target's name.
    if (::link(target.c_str(), backup.c_str()) == 0)
        return true;
    std::error_code ec;
    std::filesystem::copy_file(target, backup, std::filesystem::copy_options::overwrite_existing, ec);
    if (ec) {
        error = "cannot keep the backup " + backup + ": " + ec.message();
        return false;
    }
    return true;
}

} // namespace

/// A std::streambuf over a file descriptor with a large buffer; remembers the first write error.
class AtomicFile::FdStreamBuf : public std::streambuf {
public:
    explicit FdStreamBuf(int fd)
        : m_fd(fd)
        , m_buffer(1 << 20)
    {
        setp(m_buffer.data(), m_buffer.data() + m_buffer.size());
    }
    int error() const { return m_error; }

protected:
    int_type overflow(int_type ch) override
    {
        if (!drain())
            return traits_type::eof();
        if (!traits_type::eq_int_type(ch, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(ch);
            pbump(1);
        }
        return traits_type::not_eof(ch);
    }
    std::streamsize xsputn(const char* data, std::streamsize count) override
    {
        // Large blocks bypass the buffer once it is drained.
        if (count > epptr() - pptr()) {
            if (!drain())
                return 0;
            if (count >= static_cast<std::streamsize>(m_buffer.size()))
                return writeAll(data, static_cast<std::size_t>(count)) ? count : 0;
        }
        traits_type::copy(pptr(), data, static_cast<std::size_t>(count));
        pbump(static_cast<int>(count));
        return count;
    }
    int sync() override { return drain() ? 0 : -1; }

private:
    bool drain()
    {
        const auto pending = static_cast<std::size_t>(pptr() - pbase());
        setp(m_buffer.data(), m_buffer.data() + m_buffer.size());
        return pending == 0 || writeAll(m_buffer.data(), pending);
    }
    bool writeAll(const char* data, std::size_t size)
    {
        if (m_error != 0)
            return false;
        while (size > 0) {
            const ssize_t written = ::write(m_fd, data, size);
            if (written < 0) {
                if (errno == EINTR)
                    continue;
                m_error = errno;
                return false;
            }
            data += written;
            size -= static_cast<std::size_t>(written);
        }
        return true;
    }

    int m_fd;
    int m_error = 0;
    std::vector<char> m_buffer;
};

IoResult<AtomicFile> AtomicFile::create(const std::string& path, Options options)
{
    static std::atomic<unsigned> counter { 0 };
    const std::string folder = folderOf(path);
    const std::string base = std::filesystem::path(path).filename().string();
    if (base.empty())
        return fileError(path, "not a file name");

    AtomicFile file;
    file.m_path = path;
    file.m_options = std::move(options);
    for (int attempt = 0; attempt < 100 && file.m_fd < 0; ++attempt) {
        file.m_temporaryPath
            = folder + "/." + base + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1));
        // 0666 under the umask, like any new file; O_EXCL so that a stale or foreign file is never reused.
        file.m_fd = ::open(file.m_temporaryPath.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (file.m_fd < 0 && errno != EEXIST)
            return fileError(path, "cannot create a file in " + folder + ": " + errnoText(errno));
    }
    if (file.m_fd < 0)
        return fileError(path, "cannot create a temporary file in " + folder);
    // Replacing a file keeps its permissions.
    struct stat targetStat { };
    if (::stat(path.c_str(), &targetStat) == 0)
        ::fchmod(file.m_fd, targetStat.st_mode & 07777);
    file.m_buffer = std::make_unique<FdStreamBuf>(file.m_fd);
    file.m_stream = std::make_unique<std::ostream>(file.m_buffer.get());
    return file;
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : m_path(std::move(other.m_path))
    , m_temporaryPath(std::move(other.m_temporaryPath))
    , m_options(std::move(other.m_options))
    , m_fd(other.m_fd)
    , m_committed(other.m_committed)
    , m_buffer(std::move(other.m_buffer))
    , m_stream(std::move(other.m_stream))
{
    other.m_fd = -1;
    other.m_temporaryPath.clear();
}

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept
{
    if (this != &other) {
        discard();
        m_path = std::move(other.m_path);
        m_temporaryPath = std::move(other.m_temporaryPath);
        m_options = std::move(other.m_options);
        m_fd = other.m_fd;
        m_committed = other.m_committed;
        m_buffer = std::move(other.m_buffer);
        m_stream = std::move(other.m_stream);
        other.m_fd = -1;
        other.m_temporaryPath.clear();
    }
    return *this;
}

AtomicFile::~AtomicFile()
{
    discard();
}

void AtomicFile::discard()
{
    m_stream.reset();
    m_buffer.reset();
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    if (!m_committed && !m_temporaryPath.empty())
        ::unlink(m_temporaryPath.c_str());
    m_temporaryPath.clear();
}

std::ostream& AtomicFile::stream()
{
    return *m_stream;
}

IoResult<void> AtomicFile::commit()
{
    if (m_committed || m_fd < 0)
        return fileError(m_path, "internal error: commit() called twice");
    m_stream->flush();
    if (m_buffer->error() != 0 || !*m_stream) {
        const int error = m_buffer->error();
        discard();
        return fileError(m_path, "write failed: " + (error != 0 ? errnoText(error) : std::string("stream error")));
    }
    if (::fsync(m_fd) != 0) {
        const int error = errno;
        discard();
        return fileError(m_path, "fsync failed: " + errnoText(error));
    }
    if (::close(m_fd) != 0) {
        const int error = errno;
        m_fd = -1;
        discard();
        return fileError(m_path, "close failed: " + errnoText(error));
    }
    m_fd = -1;
    if (m_options.backupPath) {
        std::string error;
        if (!keepBackup(m_path, *m_options.backupPath, error)) {
            discard();
            return fileError(m_path, error);
        }
    }
    if (::rename(m_temporaryPath.c_str(), m_path.c_str()) != 0) {
        const int error = errno;
        discard();
        return fileError(m_path, "cannot replace the file: " + errnoText(error));
    }
    m_committed = true;
    fsyncFolder(folderOf(m_path));
    discard();
    return {};
}

IoResult<void> writeFileAtomically(const std::string& path, std::string_view content, AtomicFile::Options options)
{
    auto file = AtomicFile::create(path, std::move(options));
    if (!file)
        return file.error();
    file.value().stream().write(content.data(), static_cast<std::streamsize>(content.size()));
    return file.value().commit();
}

} // namespace gapscope
