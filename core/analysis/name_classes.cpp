// SPDX-License-Identifier: MIT
#include "core/analysis/name_classes.h"

#include "core/analysis/analysis.h"
#include "core/model/call_names.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <regex>

namespace gapscope {

NameClasses::NameClasses(const Trace& trace, const std::string& stepPattern, std::vector<std::string>& warnings)
{
    std::optional<std::regex> pattern;
    if (!stepPattern.empty()) {
        try {
            pattern.emplace(stepPattern, std::regex::ECMAScript);
        } catch (const std::regex_error& error) {
            warnings.push_back("step pattern '" + stepPattern + "' is not a valid regular expression (" + error.what()
                + "): no NVTX range is taken as a step");
        }
    }
    m_flags.resize(std::max<std::size_t>(1, trace.strings.size()), 0); // [0]: the empty name, no flags
    for (std::uint32_t id = 1; id < m_flags.size(); ++id) {
        const std::string_view name = trace.strings.view(StringId { id });
        std::uint8_t f = 0;
        if (isCommunicationKernel(name))
            f |= kCommunication;
        if (isProfilerStepName(name))
            f |= kProfilerStep;
        if (pattern && std::regex_search(name.begin(), name.end(), *pattern))
            f |= kStepPattern;
        m_flags[id] = f;
    }
}

} // namespace gapscope
