// SPDX-License-Identifier: MIT
#pragma once

// The OS names of the process's threads, as the collector learnt them. A thread's name is read on the thread itself
// when it first records and when it exits, so a thread that ends before the next /proc scan keeps its name. Once a
// thread has exited, its tid's name is final: a later thread that gets the same tid does not rename the earlier one's
// lane. Header-only: the collector may not link core.

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace gapscope::capture {

class ThreadNameBook {
public:
    enum class Source {
        ThreadStart, // read on the thread when it first recorded
        ThreadExit, // read on the thread as it exits: final
        ProcScan, // /proc/self/task/<tid>/comm, read by the flush thread
    };

    /// Returns true when `name` is news for `tid` and must be written.
    bool note(std::int64_t tid, std::string_view name, Source source)
    {
        if (name.empty())
            return false;
        std::lock_guard lock(m_mutex);
        auto [it, inserted] = m_names.try_emplace(tid);
        Entry& entry = it->second;
        if (!inserted && entry.exited)
            return false; // a reused tid: the lane keeps the name of the thread that had it first
        if (source == Source::ThreadExit)
            entry.exited = true;
        if (!inserted && entry.name == name)
            return false;
        entry.name = name;
        return true;
    }

    void clear()
    {
        std::lock_guard lock(m_mutex);
        m_names.clear();
    }

private:
    struct Entry {
        std::string name;
        bool exited = false;
    };
    std::mutex m_mutex;
    std::unordered_map<std::int64_t, Entry> m_names;
};

} // namespace gapscope::capture
