// SPDX-License-Identifier: MIT
#include "core/io/nsys/nsys_sqlite_reader.h"

#include "core/io/common/finished_trace.h"
#include "core/io/nsys/nsys_import.h"
#include "core/io/nsys/sqlite_database.h"

#include <memory>

namespace gapscope {

bool NsysSqliteReader::hasMagic(std::string_view head)
{
    constexpr std::string_view kMagic("SQLite format 3\0", 16);
    return head.starts_with(kMagic);
}

IoResult<Trace> NsysSqliteReader::readFile(const std::string& path, const NsysReadOptions& options)
{
    return finishedTrace(readUnfinished(path, options));
}

IoResult<TraceBuilder> NsysSqliteReader::readUnfinished(const std::string& path, const NsysReadOptions& options)
{
    using namespace nsys;
    auto db = std::make_unique<SqliteDatabase>(path);
    if (!db->isOpen())
        return IoError { path, std::nullopt, "cannot open the database: " + db->openError() };
    auto tables = db->tableNames();
    bool withoutLocking = false;
    if (!tables && db->lastErrorIsLock()) {
        // Another program is writing the file (an exclusive lock). Waiting could take as long as an export does;
        // what is on disk is read instead, and the user told.
        db = std::make_unique<SqliteDatabase>(path, true);
        if (!db->isOpen())
            return IoError { path, std::nullopt, "cannot open the database: " + db->openError() };
        tables = db->tableNames();
        withoutLocking = true;
    }
    bool cutOff = false;
    if (!tables && db->lastErrorIsCorrupt() && db->tolerateCutOffFile()) {
        // Usually a file shorter than its header says (a copy or an export cut off): read what is there.
        tables = db->tableNames();
        cutOff = tables.has_value();
    }
    if (!tables)
        return IoError { path, std::nullopt, "cannot read the database's list of tables: " + db->lastError() };
    if (tables->empty()) {
        return IoError { path, std::nullopt,
            "an SQLite database without tables, not an Nsight Systems export (make one with: nsys export --type "
            "sqlite REPORT.nsys-rep)" };
    }
    NsysImport import(*db, path, *tables, options.keepArgs);
    if (!import.looksLikeNsysExport()) {
        return IoError { path, std::nullopt,
            "an SQLite database, but not an Nsight Systems export: it has none of the tables nsys writes "
            "(CUPTI_ACTIVITY_KIND_KERNEL, CUPTI_ACTIVITY_KIND_RUNTIME, NVTX_EVENTS, StringIds, ...)" };
    }
    import.readExportMetadata();
    if (withoutLocking)
        import.warnLocked();
    if (cutOff)
        import.warnCutOff();
    import.setOpenMode(path, withoutLocking, cutOff);
    import.readStrings();
    import.readEventAndEvidenceTables(options.threads, options.parallelFromRows);
    import.readNvtx();
    import.readRanks();
    import.applyEvidence();
    return import.takeTrace();
}

} // namespace gapscope
