// SPDX-License-Identifier: MIT
#include "test_paths.h"

namespace gapscope::test {

std::string dataPath(const std::string& relative)
{
    return std::string(GAPSCOPE_TEST_DATA_DIR) + "/" + relative;
}

} // namespace gapscope::test
