// SPDX-License-Identifier: MIT
#pragma once

// Traces sometimes name a pid or tid with text (Kineto's "Traces" / "PyTorch Profiler" pseudo-threads).
// Readers give such a lane a synthetic id in [2^62, 2^63) (chrome::syntheticId), far above any real pid or
// pthread id, so a label can tell that the number means nothing to the user.

#include <cstdint>

namespace gapscope {

inline constexpr std::int64_t kSyntheticIdBit = std::int64_t(1) << 62;

inline bool isSyntheticId(std::int64_t id)
{
    return id >= kSyntheticIdBit;
}

} // namespace gapscope
