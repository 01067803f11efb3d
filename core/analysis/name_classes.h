// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gapscope {

/// What the analysis needs to know about each distinct event name, decided once per trace from its
/// string table so that hot loops test a byte instead of a string.
class NameClasses {
public:
    /// An invalid `stepPattern` matches nothing; its error is appended to `warnings`.
    NameClasses(const Trace& trace, const std::string& stepPattern, std::vector<std::string>& warnings);

    bool isCommunication(StringId name) const { return flags(name) & kCommunication; }
    bool isProfilerStep(StringId name) const { return flags(name) & kProfilerStep; }
    bool matchesStepPattern(StringId name) const { return flags(name) & kStepPattern; }

private:
    static constexpr std::uint8_t kCommunication = 1;
    static constexpr std::uint8_t kProfilerStep = 2;
    static constexpr std::uint8_t kStepPattern = 4;
    std::uint8_t flags(StringId name) const { return name.value < m_flags.size() ? m_flags[name.value] : 0; }

    std::vector<std::uint8_t> m_flags;
};

} // namespace gapscope
