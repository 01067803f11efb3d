// SPDX-License-Identifier: MIT
#pragma once

// Background jobs of which only the latest counts: a new request (another file, another window, another
// note) makes the running one stale. The stale job is asked to stop (its std::stop_token) and its result,
// if it still comes, is dropped; the latest one's is delivered on the owner's thread.

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <stop_token>
#include <type_traits>
#include <utility>

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
        using Result = std::invoke_result_t<Work, std::stop_token>;
        drop();
        const quint64 job = m_current;
        auto* watcher = new QFutureWatcher<Result>(context);
        QObject::connect(
            watcher, &QFutureWatcher<Result>::finished, context, [this, watcher, job, deliver = std::move(deliver)] {
                watcher->deleteLater();
                if (job == m_current)
                    deliver(watcher->result());
            });
        watcher->setFuture(
            QtConcurrent::run([work = std::move(work), stop = m_stop.get_token()] { return work(stop); }));
        return job;
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
    quint64 m_current = 0;
    std::stop_source m_stop;
};

} // namespace gapscope::app
