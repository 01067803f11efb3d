// SPDX-License-Identifier: MIT
#pragma once
// Objects the collector may neither use nor free, kept reachable for the process's life: what a forked
// child leaves of its parent's state (a lock in it may be held by a thread the child does not have, a
// container half-changed), and the writer closed at exit that a late thread may still hold. LeakSanitizer
// (scripts/ci_hardening.sh) reports memory no live pointer reaches; these stay reachable from here, so
// that only memory lost by mistake is reported.
// Header-only: the collector may not link core.

#include <atomic>

namespace gapscope::capture {

struct KeptObject {
    const void* object;
    KeptObject* next;
};

/// Every object kept, newest first: a list that grows by one node per kept object (a few per fork()).
inline std::atomic<KeptObject*> g_keptForLife { nullptr };

/// Keeps `object` (never freed) reachable for the process's life; thread-safe, and fine in a child
/// just after fork(). Null is ignored.
inline void keepForLife(const void* object)
{
    if (!object)
        return;
    auto* node = new KeptObject { object, g_keptForLife.load(std::memory_order_relaxed) };
    while (
        !g_keptForLife.compare_exchange_weak(node->next, node, std::memory_order_release, std::memory_order_relaxed)) {
    }
}

} // namespace gapscope::capture
