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

void SqliteStatement::reset()
{
    sqlite3_reset(m_statement);
}

void SqliteStatement::bind(int index, std::int64_t value)
{
    sqlite3_bind_int64(m_statement, index, value);
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

std::string_view SqliteRow::text(int column) const
{
    const auto* data = reinterpret_cast<const char*>(sqlite3_value_text(m_values[column]));
    if (!data)
        return {};
    return { data, static_cast<std::size_t>(sqlite3_value_bytes(m_values[column])) };
}

namespace {

constexpr char kScanFunction[] = "gapscope_scan_rows";

// The aggregate's step: one call per row, inside the statement's loop. Nothing may unwind through SQLite's C
// frames: an exception is kept, the statement stopped with an error, and the exception rethrown by scan().
void scanStep(sqlite3_context* context, int, sqlite3_value** values)
{
    auto* scan = static_cast<SqliteDatabase::Scan*>(sqlite3_user_data(context));
    try {
        scan->visitor(scan->context, SqliteRow(values));
        ++scan->rows;
    } catch (...) {
        scan->exception = std::current_exception();
        sqlite3_result_error(context, "the import stopped (out of memory?)", -1);
    }
}

void scanFinal(sqlite3_context* context)
{
    sqlite3_result_null(context);
}

} // namespace

SqliteDatabase::ScanEnd SqliteDatabase::scan(
    const std::string& columns, const std::string& fromClause, RowVisitor visitor, void* context, std::uint64_t& rows)
{
    rows = 0;
    if (!m_scanFunctionMade) {
        // SQLITE_DIRECTONLY: the function can be called from this statement only, never from the file's own
        // views or triggers.
        if (sqlite3_create_function_v2(m_db, kScanFunction, -1, SQLITE_UTF8 | SQLITE_DIRECTONLY, &m_scan, nullptr,
                scanStep, scanFinal, nullptr)
            != SQLITE_OK)
            return ScanEnd::NotPrepared;
        m_scanFunctionMade = true;
    }
    auto statement = prepare(std::string("SELECT ") + kScanFunction + "(" + columns + ") " + fromClause);
    if (!statement)
        return ScanEnd::NotPrepared;
    m_scan = Scan { visitor, context, 0, nullptr };
    const SqliteStatement::Step step = statement->step();
    rows = m_scan.rows;
    const std::exception_ptr exception = m_scan.exception;
    m_scan = Scan {};
    if (exception)
        std::rethrow_exception(exception);
    return step == SqliteStatement::Step::Row ? ScanEnd::Done : ScanEnd::Stopped;
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
