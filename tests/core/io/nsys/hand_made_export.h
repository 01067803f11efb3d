// SPDX-License-Identifier: MIT
#pragma once

// Databases built by hand in the nsys tests, with nsys's table and column names.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

namespace gapscope::test {

/// Runs `sql` (one or more statements) on `db`; a failure fails the calling test with SQLite's message.
inline void execute(sqlite3* db, const std::string& sql)
{
    char* error = nullptr;
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
}

} // namespace gapscope::test
