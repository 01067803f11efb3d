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
    // The classes every use of the trace shares (Trace::nameClasses()), and the step pattern's matches beside them.
    m_flags = trace.nameClasses();
    for (std::uint32_t id = 1; pattern && id < m_flags.size(); ++id) {
        const std::string_view name = trace.strings().view(StringId { id });
        if (std::regex_search(name.begin(), name.end(), *pattern))
            m_flags[id] |= kStepPattern;
    }
}

} // namespace gapscope
