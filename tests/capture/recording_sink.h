// SPDX-License-Identifier: MIT
#pragma once

#include "capture/stream/native_stream_writer.h"

#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace gapscope::capture::test {

/// A NativeSink that keeps what it is given in memory (no file, no core), for the tests of the
/// collector's pieces that also run in the ThreadSanitizer build. `onEvent`, when set, runs inside
/// addEvent() before the event is kept, on the thread that added it, with no lock of the sink held.
class RecordingSink final : public NativeSink {
public:
    std::uint32_t internString(std::string_view text) override
    {
        if (text.empty())
            return 0;
        std::lock_guard lock(m_mutex);
        auto [it, inserted] = m_ids.try_emplace(std::string(text), 0);
        if (inserted) {
            m_strings.emplace_back(text);
            it->second = static_cast<std::uint32_t>(m_strings.size());
        }
        return it->second;
    }
    void addEvent(const native::EventRecord& event) override
    {
        if (onEvent)
            onEvent(event);
        std::lock_guard lock(m_mutex);
        m_events.push_back(event);
    }
    void addMetadata(const native::MetadataRecord& record) override
    {
        std::lock_guard lock(m_mutex);
        m_metadata.push_back(record);
    }
    void addCounters(const native::CountersRecord&) override { }

    std::vector<native::EventRecord> events() const
    {
        std::lock_guard lock(m_mutex);
        return m_events;
    }
    std::string text(std::uint32_t id) const
    {
        std::lock_guard lock(m_mutex);
        return id == 0 || id > m_strings.size() ? std::string() : m_strings[id - 1];
    }

    std::function<void(const native::EventRecord&)> onEvent;

private:
    mutable std::mutex m_mutex;
    std::vector<std::string> m_strings;
    std::unordered_map<std::string, std::uint32_t> m_ids;
    std::vector<native::EventRecord> m_events;
    std::vector<native::MetadataRecord> m_metadata;
};

} // namespace gapscope::capture::test
