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
    bool isSynchronizing(StringId name) const { return flags(name) & kSynchronizing; }
    bool isProfilerStep(StringId name) const { return flags(name) & kProfilerStep; }
    bool matchesStepPattern(StringId name) const { return flags(name) & kStepPattern; }
    /// Whether any name could start a step or be a synchronizing call: when neither, host lanes need no scan.
    bool anyHostInterest() const { return m_anyHostInterest; }
    /// Whether the name could start a step or be a synchronizing call (one test for the host scan's hot loop).
    bool isHostInterest(StringId name) const { return flags(name) & (kSynchronizing | kProfilerStep | kStepPattern); }

private:
    static constexpr std::uint8_t kCommunication = 1;
    static constexpr std::uint8_t kSynchronizing = 2;
    static constexpr std::uint8_t kProfilerStep = 4;
    static constexpr std::uint8_t kStepPattern = 8;
    std::uint8_t flags(StringId name) const { return name.value < m_flags.size() ? m_flags[name.value] : 0; }

    std::vector<std::uint8_t> m_flags;
    bool m_anyHostInterest = false;
};

} // namespace gapscope
