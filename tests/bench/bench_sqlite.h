// SPDX-License-Identifier: MIT
#pragma once

// Writing the SQLite databases the nsys benchmarks generate: a failed statement ends the benchmark (it measures
// nothing without its input).

#include <sqlite3.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

namespace gapscope::bench {

inline void exec(sqlite3* db, const std::string& sql)
{
    char* error = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        std::fprintf(stderr, "bench: %s: %s\n", sql.c_str(), error ? error : "");
        std::abort();
    }
}

inline sqlite3_stmt* prepare(sqlite3* db, const char* sql)
{
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &statement, nullptr) != SQLITE_OK) {
        std::fprintf(stderr, "bench: %s: %s\n", sql, sqlite3_errmsg(db));
        std::abort();
    }
    return statement;
}

/// Binds `values` to the statement's parameters in order, runs it and resets it for the next row.
inline void insert(sqlite3_stmt* statement, std::initializer_list<std::int64_t> values)
{
    int column = 1;
    for (const std::int64_t v : values)
        sqlite3_bind_int64(statement, column++, v);
    if (sqlite3_step(statement) != SQLITE_DONE)
        std::abort();
    sqlite3_reset(statement);
}

} // namespace gapscope::bench
