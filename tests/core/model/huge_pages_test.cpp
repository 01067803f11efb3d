// SPDX-License-Identifier: MIT
// Large buffers start on a 2 MiB boundary and are advised to be transparent huge pages; the last, partial huge
// page only where its padding is at most a quarter of the buffer. The advice is read back from the kernel's own
// account of this process's mappings (/proc/self/smaps, flag "hg").
#include "core/model/event.h"
#include "core/model/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace gapscope {
namespace {

constexpr std::size_t kMiB = std::size_t { 1 } << 20;

bool startsOnHugePage(const void* data)
{
    return reinterpret_cast<std::uintptr_t>(data) % kHugePageBytes == 0;
}

/// Whether the mapping that holds `address` is advised to be huge pages; nullopt when smaps cannot say.
std::optional<bool> advisedHuge(const void* address)
{
    std::ifstream smaps("/proc/self/smaps");
    if (!smaps)
        return std::nullopt;
    const auto at = reinterpret_cast<std::uintptr_t>(address);
    bool inside = false;
    for (std::string line; std::getline(smaps, line);) {
        std::uintptr_t begin = 0;
        std::uintptr_t end = 0;
        char dash = 0;
        std::istringstream range(line);
        if (range >> std::hex >> begin >> dash >> end && dash == '-' && line.find(':') > line.find(' ')) {
            inside = begin <= at && at < end;
            continue;
        }
        if (inside && line.starts_with("VmFlags:"))
            return line.find(" hg") != std::string::npos;
    }
    return std::nullopt;
}

bool transparentHugePagesAvailable()
{
    std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string text;
    return std::getline(mode, text) && text.find("[never]") == std::string::npos;
}

TEST(HugePagesTest, LaneBuffersFromTwoMiBUpStartOnAHugePage)
{
    EventVector events;
    events.reserve(kHugePageBytes / sizeof(Event) + 1);
    EXPECT_TRUE(startsOnHugePage(events.data()));
    HugePageVector<TimeNs> prefix;
    prefix.reserve(5 * kMiB / sizeof(TimeNs));
    EXPECT_TRUE(startsOnHugePage(prefix.data()));
    // Writable to the last element, and freed by the same allocator.
    events.resize(events.capacity());
    events.back().end = 7;
    EXPECT_EQ(events.back().end, 7);
}

TEST(HugePagesTest, TheLastPartialHugePageIsAdvisedOnlyWhereItsPaddingIsAtMostAQuarter)
{
    if (!transparentHugePagesAvailable())
        GTEST_SKIP() << "no transparent huge pages on this kernel";
    // 3.9 MiB: 0.1 MiB of padding to 4 MiB (under a quarter): both huge pages advised, the second one too.
    const std::size_t nearlyTwo = 4 * kMiB - kMiB / 10;
    void* rounded = allocateHugePageBuffer(nearlyTwo);
    ASSERT_TRUE(startsOnHugePage(rounded));
    EXPECT_EQ(advisedHuge(rounded), std::optional<bool>(true));
    EXPECT_EQ(advisedHuge(static_cast<char*>(rounded) + nearlyTwo - 1), std::optional<bool>(true));
    // 2.1 MiB: 1.9 MiB of padding (over a quarter): the whole first huge page only, the rest on 4 KiB pages.
    const std::size_t justOver = 2 * kMiB + kMiB / 10;
    void* notRounded = allocateHugePageBuffer(justOver);
    ASSERT_TRUE(startsOnHugePage(notRounded));
    EXPECT_EQ(advisedHuge(notRounded), std::optional<bool>(true));
    EXPECT_EQ(advisedHuge(static_cast<char*>(notRounded) + kHugePageBytes), std::optional<bool>(false));
    static_cast<char*>(notRounded)[justOver - 1] = 1; // the tail is there, on small pages
    freeHugePageBuffer(rounded);
    freeHugePageBuffer(notRounded);
}

} // namespace
} // namespace gapscope
