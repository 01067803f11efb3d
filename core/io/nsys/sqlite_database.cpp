// SPDX-License-Identifier: MIT
#include "core/io/nsys/sqlite_database.h"

#include <sqlite3.h>

namespace gapscope::nsys {

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(m_statement);
}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_statement);
        m_statement = other.m_statement;
        other.m_statement = nullptr;
    }
    return *this;
}

SqliteStatement::Step SqliteStatement::step()
{
    switch (sqlite3_step(m_statement)) {
    case SQLITE_ROW:
        return Step::Row;
    case SQLITE_DONE:
        return Step::Done;
    default:
        return Step::Error;
    }
}

std::int64_t SqliteStatement::integer(int column) const
{
    return sqlite3_column_int64(m_statement, column);
}

double SqliteStatement::real(int column) const
{
    return sqlite3_column_double(m_statement, column);
}

bool SqliteStatement::isNull(int column) const
{
    return sqlite3_column_type(m_statement, column) == SQLITE_NULL;
}

std::string_view SqliteStatement::text(int column) const
{
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(m_statement, column));
    if (!data)
        return {};
    return { data, static_cast<std::size_t>(sqlite3_column_bytes(m_statement, column)) };
}

std::string sqliteUri(const std::string& path, std::string_view query)
{
    std::string uri = "file:";
    for (const char c : path) {
        if (c == '%' || c == '?' || c == '#') {
            static constexpr char kHex[] = "0123456789ABCDEF";
            uri += '%';
            uri += kHex[static_cast<unsigned char>(c) >> 4];
            uri += kHex[static_cast<unsigned char>(c) & 15];
        } else {
            uri += c;
        }
    }
    if (!query.empty()) {
        uri += '?';
        uri += query;
    }
    return uri;
}

SqliteDatabase::SqliteDatabase(const std::string& path, bool withoutLocking)
{
    // mode=ro with SQLITE_OPEN_READONLY: no journal is created and nothing is written, but SQLite still takes
    // the shared lock that keeps it from reading a file halfway through another program's commit. immutable=1
    // takes no lock at all and reads the file as it is on disk.
    const std::string uri = sqliteUri(path, withoutLocking ? "mode=ro&immutable=1" : "mode=ro");
    // NOMUTEX: a connection is used by one thread at a time, so SQLite need not lock a mutex in every
    // sqlite3_column_* call (a sixth of the import's time with it).
    const int rc
        = sqlite3_open_v2(uri.c_str(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        m_openError = m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc);
        sqlite3_close(m_db);
        m_db = nullptr;
        return;
    }
    // A writer's lock is usually held for a moment (a commit): wait a little before calling the file locked.
    sqlite3_busy_timeout(m_db, 200);
    sqlite3_extended_result_codes(m_db, 1);
}

SqliteDatabase::~SqliteDatabase()
{
    sqlite3_close(m_db);
}

std::optional<SqliteStatement> SqliteDatabase::prepare(const std::string& sql)
{
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.c_str(), static_cast<int>(sql.size()), &statement, nullptr) != SQLITE_OK) {
        sqlite3_finalize(statement);
        return std::nullopt;
    }
    return SqliteStatement(statement);
}

std::optional<std::vector<std::string>> SqliteDatabase::tableNames()
{
    auto statement = prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    if (!statement)
        return std::nullopt;
    std::vector<std::string> names;
    for (;;) {
        const SqliteStatement::Step step = statement->step();
        if (step == SqliteStatement::Step::Done)
            return names;
        if (step == SqliteStatement::Step::Error)
            return std::nullopt;
        names.emplace_back(statement->text(0));
    }
}

std::vector<std::string> SqliteDatabase::columns(std::string_view table)
{
    std::vector<std::string> names;
    // Table names come from sqlite_master; quote them anyway.
    std::string sql = "PRAGMA table_info(\"";
    for (const char c : table)
        sql += c == '"' ? std::string("\"\"") : std::string(1, c);
    sql += "\")";
    auto statement = prepare(sql);
    if (!statement)
        return names;
    while (statement->step() == SqliteStatement::Step::Row)
        names.emplace_back(statement->text(1));
    return names;
}

bool SqliteDatabase::lastErrorIsLock() const
{
    if (!m_db)
        return false;
    const int code = sqlite3_extended_errcode(m_db) & 0xff;
    return code == SQLITE_BUSY || code == SQLITE_LOCKED;
}

bool SqliteDatabase::lastErrorIsCorrupt() const
{
    return m_db && (sqlite3_extended_errcode(m_db) & 0xff) == SQLITE_CORRUPT;
}

bool SqliteDatabase::tolerateCutOffFile()
{
    return sqlite3_exec(m_db, "PRAGMA writable_schema = ON", nullptr, nullptr, nullptr) == SQLITE_OK;
}

std::string SqliteDatabase::lastError() const
{
    if (!m_db)
        return m_openError;
    const int code = sqlite3_extended_errcode(m_db);
    const std::string detail = sqlite3_errmsg(m_db);
    switch (code & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return "the database is locked by another program that is writing it (is `nsys export` still running?); "
               "open it when that program has finished (SQLite: "
            + detail + ")";
    case SQLITE_CORRUPT:
        return "the database is damaged or cut off (SQLite: " + detail + ")";
    case SQLITE_NOTADB:
        return "not an SQLite database, or its header is damaged (SQLite: " + detail + ")";
    case SQLITE_IOERR:
        return (code == SQLITE_IOERR_SHORT_READ ? "the database is damaged or cut off (SQLite: "
                                                : "cannot read the file (SQLite: ")
            + detail + ")";
    default:
        return "SQLite: " + detail;
    }
}

} // namespace gapscope::nsys
