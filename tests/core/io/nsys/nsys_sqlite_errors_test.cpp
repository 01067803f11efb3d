// SPDX-License-Identifier: MIT
// NsysSqliteReader on damaged or partial exports, made from copies of the real exports in tests/data with the
// SQLite API: each table missing in turn, a missing column, a bad row, an empty database, a database that is not
// an nsys export, a cut-off file, a file another connection holds a write lock on. Each is a clear IoError or a
// warning that names what is missing, and what can be read is read.
#include "core/io/nsys/nsys_sqlite_reader.h"
#include "core/io/trace_file.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include "tests/core/hand_trace.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>

namespace gapscope {
namespace {

using test::allWarnings;
using test::countKind;

using test::dataPath;
using test::TempDir;

const std::string kMock = "nsys/nsys-ai/mock.sqlite";
const std::string kSaxpy = "nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite";

std::string copyOf(const TempDir& dir, const std::string& relative, const std::string& name = "copy.sqlite")
{
    const std::string path = dir.file(name);
    std::filesystem::copy_file(dataPath(relative), path);
    std::filesystem::permissions(path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    return path;
}

/// Runs SQL on a database with a writable connection of its own.
void execute(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    EXPECT_EQ(rc, SQLITE_OK) << (error ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
}

/// The warning whose place is `place`, or nullptr.
const ImportWarning* warningAt(const Trace& trace, std::string_view place)
{
    for (const ImportWarning& w : trace.warnings())
        if (w.place == place)
            return &w;
    return nullptr;
}

// ---- each table missing in turn -------------------------------------------------------------------------------

struct MissingTableCase {
    const char* label;
    const std::string* file;
    const char* table;
    std::size_t kernels;
    std::size_t memcpys;
    std::size_t apiCalls;
    std::size_t nvtxRanges;
    const char* warning; // a warning holds this text
    const char* deviceName; // what the device is called then
    const char* processName;
};

class NsysMissingTable : public testing::TestWithParam<MissingTableCase> { };

TEST_P(NsysMissingTable, LoadsTheRestAndNamesTheTable)
{
    const MissingTableCase& c = GetParam();
    TempDir dir;
    const std::string path = copyOf(dir, *c.file);
    execute(path, std::string("DROP TABLE ") + c.table);
    auto loaded = loadTraceFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    const Trace& trace = loaded.value();
    const std::string warnings = allWarnings(trace);
    EXPECT_NE(warnings.find(c.warning), std::string::npos) << warnings;
    EXPECT_NE(warnings.find(c.table), std::string::npos) << warnings;
    EXPECT_EQ(countKind(trace, { EventKind::Kernel }), c.kernels);
    EXPECT_EQ(countKind(trace, { EventKind::Memcpy }), c.memcpys);
    EXPECT_EQ(countKind(trace, { EventKind::RuntimeApi, EventKind::DriverApi }), c.apiCalls);
    EXPECT_EQ(countKind(trace, { EventKind::NvtxRange }), c.nvtxRanges);
    if (!trace.devices().empty()) {
        EXPECT_EQ(trace.devices()[0].name, c.deviceName);
    }
    ASSERT_FALSE(trace.processes().empty());
    EXPECT_EQ(trace.processes()[0].name, c.processName);
}

const char* const kA100 = "NVIDIA A100-SXM4-40GB";
const char* const kRtx = "NVIDIA GeForce RTX 3080";
const char* const kSaxpyName = "./saxpy-mpi-cuda";
const char* const kMockName = "/home/rich-wsl/nsys-tui/.venv-gpu/bin/python";
const char* const kNotRecorded = "tables not in this export";

INSTANTIATE_TEST_SUITE_P(EachTable, NsysMissingTable,
    testing::Values(MissingTableCase { "Kernel", &kSaxpy, "CUPTI_ACTIVITY_KIND_KERNEL", 0, 15, 57, 22, kNotRecorded,
                        kA100, kSaxpyName },
        MissingTableCase {
            "Memcpy", &kSaxpy, "CUPTI_ACTIVITY_KIND_MEMCPY", 5, 0, 57, 22, kNotRecorded, kA100, kSaxpyName },
        MissingTableCase {
            "Memset", &kSaxpy, "CUPTI_ACTIVITY_KIND_MEMSET", 5, 15, 57, 22, kNotRecorded, kA100, kSaxpyName },
        MissingTableCase { "Synchronization", &kMock, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", 2, 1, 9, 0, kNotRecorded,
            kRtx, kMockName },
        MissingTableCase {
            "Runtime", &kSaxpy, "CUPTI_ACTIVITY_KIND_RUNTIME", 5, 15, 0, 22, "no launch calls", kA100, kSaxpyName },
        MissingTableCase { "Nvtx", &kSaxpy, "NVTX_EVENTS", 5, 15, 57, 0, kNotRecorded, kA100, kSaxpyName },
        // saxpy's OSRT_API has no rows: without it, the same events.
        MissingTableCase { "OsRuntime", &kSaxpy, "OSRT_API", 5, 15, 57, 22, kNotRecorded, kA100, kSaxpyName },
        MissingTableCase { "StringIds", &kSaxpy, "StringIds", 5, 15, 57, 22, "names refer to ids that StringIds lacks",
            kA100, kSaxpyName },
        // Without ThreadNames the lanes have no names; PROCESSES still names the process.
        MissingTableCase { "ThreadNames", &kMock, "ThreadNames", 2, 1, 9, 0, kNotRecorded, kRtx, kMockName },
        // Without PROCESSES a process is named after its main thread.
        MissingTableCase { "Processes", &kMock, "PROCESSES", 2, 1, 9, 0, kNotRecorded, kRtx, "python" },
        MissingTableCase { "TargetGpu", &kSaxpy, "TARGET_INFO_GPU", 5, 15, 57, 22, kNotRecorded, "", kSaxpyName },
        MissingTableCase {
            "TargetCudaDevice", &kMock, "TARGET_INFO_CUDA_DEVICE", 2, 1, 9, 0, kNotRecorded, kRtx, kMockName },
        MissingTableCase {
            "ExportMetadataNew", &kMock, "META_DATA_EXPORT", 2, 1, 9, 0, "nsys version not stated", kRtx, kMockName },
        MissingTableCase { "ExportMetadataOld", &kSaxpy, "EXPORT_META_DATA", 5, 15, 57, 22, "nsys version not stated",
            kA100, kSaxpyName }),
    [](const auto& info) { return std::string(info.param.label); });

TEST(NsysSqliteErrors, EveryEventTableMissingLeavesAnEmptyTraceWithWarnings)
{
    TempDir dir;
    const std::string path = copyOf(dir, kSaxpy);
    execute(path,
        "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY; DROP TABLE "
        "CUPTI_ACTIVITY_KIND_MEMSET; DROP TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION; DROP TABLE "
        "CUPTI_ACTIVITY_KIND_RUNTIME; DROP TABLE NVTX_EVENTS");
    auto loaded = loadTraceFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    EXPECT_EQ(loaded.value().eventCount(), 0u);
    const std::string warnings = allWarnings(loaded.value());
    for (const char* table : { "CUPTI_ACTIVITY_KIND_KERNEL (kernels)", "CUPTI_ACTIVITY_KIND_MEMCPY (memory copies)",
             "CUPTI_ACTIVITY_KIND_RUNTIME (CUDA runtime and driver calls)", "NVTX_EVENTS (NVTX ranges and marks)" })
        EXPECT_NE(warnings.find(table), std::string::npos) << table << "\n" << warnings;
}

// ---- columns and rows ------------------------------------------------------------------------------------------

TEST(NsysSqliteErrors, MissingRequiredColumnSkipsTheTableWithAWarning)
{
    TempDir dir;
    const std::string path = copyOf(dir, kSaxpy);
    execute(path, "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN streamId");
    auto loaded = loadTraceFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    EXPECT_EQ(countKind(loaded.value(), { EventKind::Kernel }), 0u);
    EXPECT_EQ(countKind(loaded.value(), { EventKind::Memcpy }), 15u);
    const ImportWarning* warning = warningAt(loaded.value(), "table CUPTI_ACTIVITY_KIND_KERNEL");
    ASSERT_NE(warning, nullptr) << allWarnings(loaded.value());
    EXPECT_EQ(warning->message.rfind("no column streamId (", 0), 0u) << warning->message;
    EXPECT_EQ(warning->toString().rfind(path + ": table CUPTI_ACTIVITY_KIND_KERNEL: no column streamId", 0), 0u);
}

TEST(NsysSqliteErrors, RowEndingBeforeItStartsIsSkippedAndCounted)
{
    TempDir dir;
    const std::string path = copyOf(dir, kSaxpy);
    execute(path, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 1 WHERE correlationId = 156");
    auto loaded = loadTraceFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    EXPECT_EQ(loaded.value().skippedEvents(), 1u);
    EXPECT_EQ(countKind(loaded.value(), { EventKind::Kernel }), 4u);
    // The place names the table and the row (1-based, in the table's row order), the message what was wrong.
    const ImportWarning* warning = warningAt(loaded.value(), "table CUPTI_ACTIVITY_KIND_KERNEL, row 2");
    ASSERT_NE(warning, nullptr) << allWarnings(loaded.value());
    EXPECT_EQ(warning->message.rfind("skipped: it ends before it starts", 0), 0u) << warning->message;
}

// ---- files that are not (whole) exports ------------------------------------------------------------------------

TEST(NsysSqliteErrors, DatabaseWithoutTablesIsAnError)
{
    TempDir dir;
    const std::string path = dir.file("empty.sqlite");
    execute(path, "CREATE TABLE t(x); DROP TABLE t");
    auto loaded = loadTraceFile(path);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().file, path);
    EXPECT_NE(loaded.error().message.find("an SQLite database without tables, not an Nsight Systems export"),
        std::string::npos)
        << loaded.error().message;
}

TEST(NsysSqliteErrors, EmptyFileIsAnError)
{
    TempDir dir;
    const std::string path = dir.file("zero.sqlite");
    test::writeWholeFile(path, "");
    auto loaded = loadTraceFile(path);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().toString(), path + ": the file is empty");
}

TEST(NsysSqliteErrors, OtherDatabaseIsNotTakenForAnExport)
{
    TempDir dir;
    const std::string path = dir.file("people.sqlite");
    execute(path, "CREATE TABLE people(name TEXT, age INTEGER); INSERT INTO people VALUES ('Ada', 36)");
    auto loaded = loadTraceFile(path);
    ASSERT_FALSE(loaded.ok());
    EXPECT_NE(loaded.error().message.find("an SQLite database, but not an Nsight Systems export"), std::string::npos)
        << loaded.error().message;
}

TEST(NsysSqliteErrors, FileCutOffInsideItsHeaderIsAnError)
{
    TempDir dir;
    const std::string path = copyOf(dir, kMock);
    std::filesystem::resize_file(path, 60);
    auto loaded = loadTraceFile(path);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().file, path);
    EXPECT_NE(loaded.error().message.find("cannot read the database's list of tables: the database is damaged or "
                                          "cut off"),
        std::string::npos)
        << loaded.error().message;
}

TEST(NsysSqliteErrors, FileCutOffHalfwayLoadsWhatItHoldsWithWarnings)
{
    TempDir dir;
    const std::string path = copyOf(dir, kSaxpy);
    // 806,912 of 1,613,824 bytes: the kernels, copies, API calls and NVTX ranges are in the first half; tables
    // written later (TARGET_INFO_*, ThreadNames, ...) are partly gone.
    std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
    auto loaded = loadTraceFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    const std::string warnings = allWarnings(loaded.value());
    EXPECT_NE(warnings.find("the database is damaged or cut off (shorter than its header says)"), std::string::npos)
        << warnings;
    EXPECT_EQ(countKind(loaded.value(), { EventKind::Kernel }), 5u);
    EXPECT_EQ(countKind(loaded.value(), { EventKind::Memcpy }), 15u);
    EXPECT_EQ(countKind(loaded.value(), { EventKind::RuntimeApi, EventKind::DriverApi }), 57u);
}

TEST(NsysSqliteErrors, FileLockedByAWriterIsReadAsOnDiskWithAWarning)
{
    TempDir dir;
    const std::string path = copyOf(dir, kSaxpy);
    // Another connection takes the exclusive lock and deletes every kernel, without committing.
    sqlite3* writer = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &writer), SQLITE_OK);
    ASSERT_EQ(
        sqlite3_exec(writer, "BEGIN EXCLUSIVE; DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL", nullptr, nullptr, nullptr),
        SQLITE_OK);
    auto loaded = loadTraceFile(path);
    sqlite3_exec(writer, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(writer);
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    EXPECT_NE(
        allWarnings(loaded.value()).find("another program holds a write lock on this database"), std::string::npos)
        << allWarnings(loaded.value());
    // What is on disk is the committed export: all five kernels.
    EXPECT_EQ(countKind(loaded.value(), { EventKind::Kernel }), 5u);
}

TEST(NsysSqliteErrors, ReaderNeverWritesTheFile)
{
    TempDir dir;
    const std::string path = copyOf(dir, kMock);
    std::filesystem::permissions(path, std::filesystem::perms::owner_read);
    const auto before = std::filesystem::last_write_time(path);
    auto loaded = NsysSqliteReader::readFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    EXPECT_EQ(std::filesystem::last_write_time(path), before);
    EXPECT_EQ(dir.entries(), std::vector<std::string> { "copy.sqlite" }); // no journal, no -wal, no -shm
}

} // namespace
} // namespace gapscope
