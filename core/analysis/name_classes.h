// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/call_names.h"
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

    bool isProfilerStep(StringId name) const { return flags(name) & kProfilerStep; }
    bool matchesStepPattern(StringId name) const { return flags(name) & kStepPattern; }

    /// Whether a kernel name is a communication kernel's, as a value a hot loop keeps in registers (it reads
    /// the table NameClasses holds).
    class CommunicationTest {
    public:
        /// A select, not a branch: an unknown name reads the flags of the empty name (none).
        bool operator()(StringId name) const { return m_flags[name.value < m_size ? name.value : 0] & kCommunication; }

    private:
        friend class NameClasses;
        const std::uint8_t* m_flags = nullptr;
        std::uint32_t m_size = 0;
    };
    CommunicationTest communicationTest() const
    {
        CommunicationTest test;
        test.m_flags = m_flags.data();
        test.m_size = static_cast<std::uint32_t>(m_flags.size());
        return test;
    }

private:
    // The NameClass bits of classifyNames(), and one more.
    static constexpr std::uint8_t kCommunication = kCommunicationName;
    static constexpr std::uint8_t kProfilerStep = kProfilerStepName;
    static constexpr std::uint8_t kStepPattern = 8;
    std::uint8_t flags(StringId name) const { return name.value < m_flags.size() ? m_flags[name.value] : 0; }

    std::vector<std::uint8_t> m_flags;
};

} // namespace gapscope
