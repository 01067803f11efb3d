// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <cstring>

namespace gapscope {

// Decimal text of integers as std::to_chars writes it, in fewer steps for the long ones: a report writes
// hundreds of thousands of 19-digit nanosecond timestamps, which std::to_chars measures and then writes two
// digits per 64-bit division. Here a number is cut into pieces of eight digits, each written with 32-bit
// arithmetic, two digits per table entry.

namespace decimal_detail {

inline constexpr char kPairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                 "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                 "8081828384858687888990919293949596979899";

/// The two digits of `v` (< 100) at `out`.
inline void writePair(char* out, std::uint32_t v)
{
    std::memcpy(out, kPairs + 2 * v, 2);
}

/// The eight digits of `v` (< 10^8), leading zeros included, at `out`.
inline void writeEight(char* out, std::uint32_t v)
{
    const std::uint32_t high = v / 10000;
    const std::uint32_t low = v % 10000;
    writePair(out, high / 100);
    writePair(out + 2, high % 100);
    writePair(out + 4, low / 100);
    writePair(out + 6, low % 100);
}

/// The digits of `v` (< 10^8) without leading zeros (one "0" for 0) at `out`; returns the end.
inline char* writeUpToEight(char* out, std::uint32_t v)
{
    const int digits = v < 10 ? 1
        : v < 100             ? 2
        : v < 1000            ? 3
        : v < 10000           ? 4
        : v < 100000          ? 5
        : v < 1000000         ? 6
        : v < 10000000        ? 7
                              : 8;
    char* end = out + digits;
    char* p = end;
    while (v >= 100) {
        p -= 2;
        writePair(p, v % 100);
        v /= 100;
    }
    if (v >= 10)
        writePair(p - 2, v);
    else
        p[-1] = static_cast<char>('0' + v);
    return end;
}

} // namespace decimal_detail

/// The decimal digits of `v` at `out` (room for 20); returns the end. The same text as std::to_chars.
inline char* writeDecimal(char* out, std::uint64_t v)
{
    using namespace decimal_detail;
    constexpr std::uint64_t kE8 = 100000000;
    if (v < kE8)
        return writeUpToEight(out, static_cast<std::uint32_t>(v));
    if (v < kE8 * kE8) {
        out = writeUpToEight(out, static_cast<std::uint32_t>(v / kE8));
        writeEight(out, static_cast<std::uint32_t>(v % kE8));
        return out + 8;
    }
    const std::uint64_t rest = v % (kE8 * kE8);
    out = writeUpToEight(out, static_cast<std::uint32_t>(v / (kE8 * kE8)));
    writeEight(out, static_cast<std::uint32_t>(rest / kE8));
    writeEight(out + 8, static_cast<std::uint32_t>(rest % kE8));
    return out + 16;
}

/// `v` in decimal, a minus sign first when negative, at `out` (room for 20); returns the end.
inline char* writeDecimal(char* out, std::int64_t v)
{
    auto magnitude = static_cast<std::uint64_t>(v);
    if (v < 0) {
        *out++ = '-';
        magnitude = 0 - magnitude;
    }
    return writeDecimal(out, magnitude);
}

} // namespace gapscope
