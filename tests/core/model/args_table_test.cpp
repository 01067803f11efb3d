// SPDX-License-Identifier: MIT
// ArgsTable: events' args text stored back to back in blocks that never move.
#include "core/model/args_table.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gapscope {
namespace {

std::string textNumber(std::size_t i)
{
    // 100 bytes each, all different: 1,000 of them fill the first 64 KiB block and spill into the next.
    std::string text = "{\"External id\": " + std::to_string(i) + ", \"pad\": \"";
    text.append(100 - text.size() - 2, static_cast<char>('a' + i % 26));
    return text + "\"}";
}

TEST(ArgsTableTest, TextsKeepTheirIdsAndBytesAcrossBlocks)
{
    ArgsTable table;
    std::vector<std::string_view> views;
    for (std::size_t i = 0; i < 1000; ++i) {
        const ArgsId id = table.add(textNumber(i));
        EXPECT_EQ(id.value, i);
        views.push_back(table[i]);
    }
    ASSERT_EQ(table.size(), 1000u);
    for (std::size_t i = 0; i < 1000; ++i) {
        EXPECT_EQ(table[i], textNumber(i)) << i;
        // Storage never moves: a view taken when the text was added still reads it.
        EXPECT_EQ(views[i].data(), table[i].data()) << i;
    }
    EXPECT_EQ(table[999].size(), 100u);
    // Blocks of 64 KiB, then 128 KiB: 100,000 bytes need both; the index is a view (16 bytes) per text.
    EXPECT_GE(table.memoryBytes(), (64u + 128u) * 1024u + 1000u * 16u);
    EXPECT_LT(table.memoryBytes(), (64u + 128u + 256u) * 1024u);
}

TEST(ArgsTableTest, AnEmptyTextAndOneLargerThanABlock)
{
    ArgsTable table;
    EXPECT_EQ(table.add("").value, 0u);
    const std::string large(200000, 'x'); // more than the first block's 64 KiB: a block of its own
    EXPECT_EQ(table.add(large).value, 1u);
    EXPECT_EQ(table.add("{}").value, 2u);
    EXPECT_EQ(table[0], "");
    EXPECT_EQ(table[1], large);
    EXPECT_EQ(table[2], "{}");
}

TEST(ArgsTableTest, AppendShiftsTheOtherTablesIdsAndCopiesAreDeep)
{
    ArgsTable first;
    first.add("{\"a\": 1}");
    first.add("{\"b\": 2}");
    ArgsTable second;
    second.add("{\"c\": 3}");
    const std::string_view secondText = second[0];
    first.append(std::move(second));
    EXPECT_TRUE(second.empty());
    ASSERT_EQ(first.size(), 3u);
    EXPECT_EQ(first[2], "{\"c\": 3}");
    EXPECT_EQ(first[2].data(), secondText.data()); // the block moved over, the text did not
    first.add("{\"d\": 4}"); // goes on after the appended text, in this table's own block
    EXPECT_EQ(first[3], "{\"d\": 4}");
    EXPECT_EQ(first[0], "{\"a\": 1}");

    const ArgsTable copy = first;
    ASSERT_EQ(copy.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(copy[i], first[i]);
        EXPECT_NE(copy[i].data(), first[i].data());
    }
    ArgsTable empty;
    empty.append(ArgsTable(copy));
    EXPECT_EQ(empty.size(), 4u);
    EXPECT_EQ(empty[3], "{\"d\": 4}");
}

} // namespace
} // namespace gapscope
