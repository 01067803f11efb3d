// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sqlite3.h>

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
    /// Back to before the first row, the bound values kept, for another run of the same statement.
    void reset();
    /// Binds `value` to parameter `index` (?1 is 1).
    void bind(int index, std::int64_t value);
    std::int64_t integer(int column) const;
    double real(int column) const;
    bool isNull(int column) const;
    /// Valid until the next step().
    std::string_view text(int column) const;

private:
    sqlite3_stmt* m_statement = nullptr;
};

/// The values of one row, as a scan hands them to its visitor: a value that is NULL reads as 0 (integers) or an
/// empty view (text), and isNull() tells them apart. Valid during the visitor's call only.
class SqliteRow {
public:
    explicit SqliteRow(sqlite3_value** values)
        : m_values(values)
    { }
    // Inline: a row of a large table reads a dozen values, and a call of our own around each is measurable.
    std::int64_t integer(int column) const { return sqlite3_value_int64(m_values[column]); }
    double real(int column) const { return sqlite3_value_double(m_values[column]); }
    bool isNull(int column) const { return sqlite3_value_type(m_values[column]) == SQLITE_NULL; }
    std::string_view text(int column) const;

private:
    sqlite3_value** m_values;
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

    /// Called once per row of a scan with its values.
    using RowVisitor = void (*)(void* context, const SqliteRow& row);
    enum class ScanEnd { Done, NotPrepared, Stopped };
    /// Reads `SELECT columns fromClause` row by row into `visitor`, in the table's row order. The rows are
    /// handed over from inside SQLite's own loop (an aggregate function over the selected columns): one
    /// sqlite3_step for the whole table instead of one per row, and no sqlite3_column_* call per value, a
    /// quarter fewer instructions than a row-by-row read (docs/performance.md). `rows` counts the rows handed
    /// over. NotPrepared or Stopped (see lastError()) when the statement cannot be prepared or reading stopped
    /// early: the rows handed over before stay handed over.
    ScanEnd scan(const std::string& columns, const std::string& fromClause, RowVisitor visitor, void* context,
        std::uint64_t& rows);
    /// The last error in words, with a hint for the usual causes (locked, damaged, not a database).
    std::string lastError() const;
    /// Whether the last error was another connection's lock (SQLITE_BUSY / SQLITE_LOCKED).
    bool lastErrorIsLock() const;
    /// Whether the last error was a damaged file (SQLITE_CORRUPT), such as one shorter than its header says.
    bool lastErrorIsCorrupt() const;
    /// Lets SQLite read a file shorter than its header says (PRAGMA writable_schema, which writes nothing on a
    /// read-only connection): the pages that are there can be read, the others fail as damaged. False on failure.
    bool tolerateCutOffFile();

    /// What a scan in progress hands its rows to (the aggregate function's state: one scan at a time).
    struct Scan {
        RowVisitor visitor = nullptr;
        void* context = nullptr;
        std::uint64_t rows = 0;
        std::exception_ptr exception;
    };

private:
    sqlite3* m_db = nullptr;
    std::string m_openError;
    bool m_scanFunctionMade = false;
    Scan m_scan;
};

/// The URI that opens `path` read-only: `file:` with '%', '?' and '#' escaped, plus `query`.
std::string sqliteUri(const std::string& path, std::string_view query);

} // namespace gapscope::nsys
