// SPDX-License-Identifier: MIT
// Thread names as the collector learns them.

#include "capture/inject/thread_name_book.h"

#include <gtest/gtest.h>

namespace gapscope::capture {
namespace {

using Source = ThreadNameBook::Source;

TEST(ThreadNameBookTest, WritesANameOnceAndAgainWhenItChanges)
{
    ThreadNameBook book;
    EXPECT_TRUE(book.note(101, "loader", Source::ThreadStart));
    EXPECT_FALSE(book.note(101, "loader", Source::ProcScan)); // nothing new
    EXPECT_TRUE(book.note(101, "loader-2", Source::ProcScan)); // renamed itself
    EXPECT_FALSE(book.note(101, "", Source::ProcScan)); // /proc unreadable: no name is no news
    EXPECT_TRUE(book.note(101, "late", Source::ThreadExit)); // its last name, read as it left
}

TEST(ThreadNameBookTest, AReusedTidDoesNotRenameTheThreadThatHadItFirst)
{
    ThreadNameBook book;
    EXPECT_TRUE(book.note(200, "worker", Source::ThreadStart));
    EXPECT_FALSE(book.note(200, "worker", Source::ThreadExit));
    // The kernel gives tid 200 to a new thread: its names are not written over the first one's.
    EXPECT_FALSE(book.note(200, "pool-7", Source::ThreadStart));
    EXPECT_FALSE(book.note(200, "pool-7", Source::ProcScan));
    EXPECT_FALSE(book.note(200, "pool-7", Source::ThreadExit));
    // Another tid is unaffected; clear() (a forked child) starts over.
    EXPECT_TRUE(book.note(201, "pool-8", Source::ProcScan));
    book.clear();
    EXPECT_TRUE(book.note(200, "pool-7", Source::ThreadStart));
}

} // namespace
} // namespace gapscope::capture
