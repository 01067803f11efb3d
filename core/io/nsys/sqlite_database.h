// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace gapscope::nsys {

/// One prepared statement. Rows are read with step() and the typed column accessors; a column that is NULL
/// reads as 0 (integers) or an empty view (text), and isNull() tells them apart.
class SqliteStatement {
public:
    SqliteStatement() = default;
    explicit SqliteStatement(sqlite3_stmt* statement)
        : m_statement(statement)
    { }
    ~SqliteStatement();
    SqliteStatement(SqliteStatement&& other) noexcept
        : m_statement(other.m_statement)
    {
        other.m_statement = nullptr;
    }
    SqliteStatement& operator=(SqliteStatement&& other) noexcept;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    enum class Step { Row, Done, Error };
    Step step();
    std::int64_t integer(int column) const;
    double real(int column) const;
    bool isNull(int column) const;
    /// Valid until the next step().
    std::string_view text(int column) const;

private:
    sqlite3_stmt* m_statement = nullptr;
};

/// A database opened read-only: SQLite never writes to, indexes or locks the file for writing. A file another
/// program is writing (an exclusive lock) is reported as such instead of being read half-written.
class SqliteDatabase {
public:
    /// Opens `path` (a plain path, not a URI). On failure, openError() says why; the database is then closed.
    /// `withoutLocking` opens it as immutable: no lock is taken or honoured, for a file another program holds.
    explicit SqliteDatabase(const std::string& path, bool withoutLocking = false);
    ~SqliteDatabase();
    SqliteDatabase(const SqliteDatabase&) = delete;
    SqliteDatabase& operator=(const SqliteDatabase&) = delete;

    bool isOpen() const { return m_db != nullptr; }
    const std::string& openError() const { return m_openError; }

    /// The names of the tables in the schema; nullopt (see lastError()) when the schema cannot be read: not a
    /// database, damaged, or locked by a writer.
    std::optional<std::vector<std::string>> tableNames();
    /// The columns of a table (PRAGMA table_info), empty when it has none or cannot be read.
    std::vector<std::string> columns(std::string_view table);
    /// Prepares one statement; an empty statement (see lastError()) on failure.
    std::optional<SqliteStatement> prepare(const std::string& sql);
    /// The last error in words, with a hint for the usual causes (locked, damaged, not a database).
    std::string lastError() const;
    /// Whether the last error was another connection's lock (SQLITE_BUSY / SQLITE_LOCKED).
    bool lastErrorIsLock() const;
    /// Whether the last error was a damaged file (SQLITE_CORRUPT), such as one shorter than its header says.
    bool lastErrorIsCorrupt() const;
    /// Lets SQLite read a file shorter than its header says (PRAGMA writable_schema, which writes nothing on a
    /// read-only connection): the pages that are there can be read, the others fail as damaged. False on failure.
    bool tolerateCutOffFile();

private:
    sqlite3* m_db = nullptr;
    std::string m_openError;
};

/// The URI that opens `path` read-only: `file:` with '%', '?' and '#' escaped, plus `query`.
std::string sqliteUri(const std::string& path, std::string_view query);

} // namespace gapscope::nsys
