// SPDX-License-Identifier: MIT
#pragma once

// Background jobs of which only the latest counts: a new request (another file, another window, another
// note) makes the running one stale. The stale job is asked to stop (its std::stop_token) and its result,
// if it still comes, is dropped; the latest one's is delivered on the owner's thread. The thread pool and the
// future behind it stay in latest_job.cpp, so that the files including this header do not compile QtConcurrent.

#include <QtGlobal>

#include <memory>
#include <optional>
#include <stop_token>
#include <type_traits>
#include <utility>

class QObject;

namespace gapscope::app {

class LatestJob {
public:
    LatestJob() = default;
    LatestJob(const LatestJob&) = delete;
    LatestJob& operator=(const LatestJob&) = delete;
    ~LatestJob() { m_stop.request_stop(); }

    /// Runs `work(std::stop_token)` on the global thread pool, after asking the previous job to stop. When it
    /// finishes, `deliver(result)` is called on `context`'s thread if this is still the latest job and
    /// `context` still exists. Returns the job's id.
    template <typename Work, typename Deliver> quint64 run(QObject* context, Work work, Deliver deliver)
    {
        drop();
        start(
            context, std::make_shared<TaskOf<Work, Deliver>>(std::move(work), std::move(deliver), m_stop.get_token()));
        return m_current;
    }

    /// Asks the running job to stop and drops its result.
    void drop()
    {
        m_stop.request_stop();
        m_stop = std::stop_source();
        ++m_current;
    }
    /// The id of the latest job (each run() and drop() makes a new one).
    quint64 current() const { return m_current; }
    /// A token that stops when the latest job is dropped or replaced.
    std::stop_token stopToken() const { return m_stop.get_token(); }

private:
    /// One job: work() runs on a pool thread, then deliver() on the context's thread if it is still the latest.
    class Task {
    public:
        virtual ~Task() = default;
        virtual void work() = 0;
        virtual void deliver() = 0;
    };
    template <typename Work, typename Deliver> class TaskOf final : public Task {
    public:
        TaskOf(Work work, Deliver deliver, std::stop_token stop)
            : m_work(std::move(work))
            , m_deliver(std::move(deliver))
            , m_stop(std::move(stop))
        { }
        // What the work holds (a trace, say) is let go on the pool thread, as soon as the result is there.
        void work() override
        {
            m_result.emplace((*m_work)(m_stop));
            m_work.reset();
        }
        void deliver() override { m_deliver(std::move(*m_result)); }

    private:
        std::optional<Work> m_work;
        Deliver m_deliver;
        std::stop_token m_stop;
        std::optional<std::invoke_result_t<Work, std::stop_token>> m_result;
    };

    /// Runs the task's work on the global thread pool, and its delivery on `context`'s thread when the work is
    /// done, if the job is still the latest (m_current) and `context` still exists.
    void start(QObject* context, std::shared_ptr<Task> task);

    quint64 m_current = 0;
    std::stop_source m_stop;
};

} // namespace gapscope::app
