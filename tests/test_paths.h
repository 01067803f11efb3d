// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace gapscope::test {

/// Absolute path of a file under tests/data/.
std::string dataPath(const std::string& relative);

} // namespace gapscope::test
