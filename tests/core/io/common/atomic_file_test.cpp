// SPDX-License-Identifier: MIT
#include "core/io/common/atomic_file.h"

#include "tests/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>

#include <sys/stat.h>

namespace gapscope {
namespace {

using test::FileSizeLimit;
using test::readWholeFile;
using test::TempDir;
using test::writeWholeFile;

TEST(AtomicFile, CreatesANewFileAndLeavesNoTemporaryBehind)
{
    TempDir dir;
    const std::string path = dir.file("notes.json");
    auto file = AtomicFile::create(path);
    ASSERT_TRUE(file) << file.error().toString();
    EXPECT_EQ(std::filesystem::path(file.value().temporaryPath()).parent_path(), dir.path());
    file.value().stream() << "{\"a\":1}";
    // Until commit the target does not exist; only the temporary does.
    EXPECT_FALSE(std::filesystem::exists(path));
    const auto committed = file.value().commit();
    ASSERT_TRUE(committed) << committed.error().toString();
    EXPECT_EQ(readWholeFile(path), "{\"a\":1}");
    EXPECT_EQ(dir.entries(), std::vector<std::string> { "notes.json" });
}

TEST(AtomicFile, ReplacesAnExistingFileAndKeepsItsPermissions)
{
    TempDir dir;
    const std::string path = dir.file("trace.json");
    writeWholeFile(path, "old content that is longer than the new one");
    ::chmod(path.c_str(), 0640);
    const auto written = writeFileAtomically(path, "new");
    ASSERT_TRUE(written) << written.error().toString();
    EXPECT_EQ(readWholeFile(path), "new");
    struct stat st { };
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0640u);
    EXPECT_EQ(dir.entries(), std::vector<std::string> { "trace.json" });
}

TEST(AtomicFile, WritesLargeContentThroughTheBuffer)
{
    TempDir dir;
    const std::string path = dir.file("big.bin");
    std::string content;
    for (int i = 0; i < 300000; ++i)
        content += std::to_string(i) + ',';
    auto file = AtomicFile::create(path);
    ASSERT_TRUE(file);
    // Mixed small and large writes: single chars, short strings and a block larger than the buffer.
    file.value().stream().put(content[0]);
    file.value().stream() << content.substr(1, 10);
    file.value().stream() << content.substr(11);
    ASSERT_TRUE(file.value().commit());
    EXPECT_EQ(readWholeFile(path), content);
}

TEST(AtomicFile, KeepsThePreviousVersionAsBackupWhenAsked)
{
    TempDir dir;
    const std::string path = dir.file("a.gapscope.json");
    const std::string backup = dir.file("a.gapscope.json.bak");
    AtomicFile::Options options;
    options.backupPath = backup;
    // First save: nothing to back up.
    ASSERT_TRUE(writeFileAtomically(path, "v1", options));
    EXPECT_FALSE(std::filesystem::exists(backup));
    ASSERT_TRUE(writeFileAtomically(path, "v2", options));
    EXPECT_EQ(readWholeFile(path), "v2");
    EXPECT_EQ(readWholeFile(backup), "v1");
    ASSERT_TRUE(writeFileAtomically(path, "v3", options));
    EXPECT_EQ(readWholeFile(path), "v3");
    EXPECT_EQ(readWholeFile(backup), "v2");
}

TEST(AtomicFile, MissingFolderIsAnErrorNamingTheFile)
{
    TempDir dir;
    const std::string path = dir.file("no/such/folder/out.json");
    auto file = AtomicFile::create(path);
    ASSERT_FALSE(file);
    EXPECT_EQ(file.error().file, path);
    EXPECT_NE(file.error().message.find("No such file or directory"), std::string::npos) << file.error().message;
    EXPECT_TRUE(dir.entries().empty());
}

TEST(AtomicFile, AbandonedWriteLeavesTheExistingFileIntact)
{
    TempDir dir;
    const std::string path = dir.file("trace.json");
    writeWholeFile(path, "precious");
    {
        auto file = AtomicFile::create(path);
        ASSERT_TRUE(file);
        file.value().stream() << "half of a new vers";
        // Leaves scope without commit(): an error elsewhere, an exception, an early return.
    }
    EXPECT_EQ(readWholeFile(path), "precious");
    EXPECT_EQ(dir.entries(), std::vector<std::string> { "trace.json" });
}

TEST(AtomicFile, FailedWriteReportsTheErrorAndLeavesTheExistingFileIntact)
{
    TempDir dir;
    const std::string path = dir.file("trace.json");
    writeWholeFile(path, "precious");
    IoResult<void> committed = IoError {};
    {
        FileSizeLimit limit(4096); // as if the disk filled up after 4 KiB
        if (!limit.active())
            GTEST_SKIP() << "setrlimit(RLIMIT_FSIZE) is not permitted here";
        auto file = AtomicFile::create(path);
        ASSERT_TRUE(file);
        file.value().stream() << std::string(3 << 20, 'x');
        committed = file.value().commit();
    }
    ASSERT_FALSE(committed);
    EXPECT_EQ(committed.error().file, path);
    EXPECT_NE(committed.error().message.find("write failed"), std::string::npos) << committed.error().message;
    EXPECT_EQ(readWholeFile(path), "precious");
    EXPECT_EQ(dir.entries(), std::vector<std::string> { "trace.json" });
}

TEST(AtomicFile, ReadOnlyFolderIsAnErrorAndLeavesTheExistingFileIntact)
{
    TempDir dir;
    const std::string path = dir.file("trace.json");
    writeWholeFile(path, "precious");
    ::chmod(dir.path().c_str(), 0555);
    {
        // root ignores folder permissions: then there is nothing to test.
        writeWholeFile(dir.file("probe"), "x");
        if (std::filesystem::exists(dir.file("probe"))) {
            std::filesystem::remove(dir.file("probe"));
            GTEST_SKIP() << "running with permission to write into read-only folders (root)";
        }
    }
    const auto written = writeFileAtomically(path, "replacement");
    ASSERT_FALSE(written);
    EXPECT_EQ(written.error().file, path);
    EXPECT_NE(written.error().message.find("Permission denied"), std::string::npos) << written.error().message;
    EXPECT_EQ(readWholeFile(path), "precious");
}

TEST(AtomicFile, MovedFromWriterDoesNotRemoveTheTemporary)
{
    TempDir dir;
    const std::string path = dir.file("moved.txt");
    std::optional<AtomicFile> holder;
    {
        auto created = AtomicFile::create(path);
        ASSERT_TRUE(created);
        holder.emplace(std::move(created.value()));
    } // the moved-from writer is destroyed here, before the commit
    holder->stream() << "moved";
    ASSERT_TRUE(holder->commit());
    EXPECT_EQ(readWholeFile(path), "moved");
}

} // namespace
} // namespace gapscope
