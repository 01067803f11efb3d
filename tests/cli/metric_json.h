// SPDX-License-Identifier: MIT
#pragma once

// The experiment tests' look-up into `diff --json`'s `metrics`.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace gapscope::test {

/// The entry of `doc["metrics"]` named `name` (a test failure and null when there is none).
inline const nlohmann::json& metricNamed(const nlohmann::json& doc, const std::string& name)
{
    for (const nlohmann::json& m : doc["metrics"]) {
        if (m["name"] == name)
            return m;
    }
    static const nlohmann::json none;
    ADD_FAILURE() << "no metric " << name;
    return none;
}

} // namespace gapscope::test
