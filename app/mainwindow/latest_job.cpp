// SPDX-License-Identifier: MIT
#include "app/mainwindow/latest_job.h"

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace gapscope::app {

void LatestJob::start(QObject* context, std::shared_ptr<Task> task)
{
    const quint64 job = m_current;
    auto* watcher = new QFutureWatcher<void>(context);
    QObject::connect(watcher, &QFutureWatcher<void>::finished, context, [this, watcher, job, task] {
        watcher->deleteLater();
        if (job != m_current)
            return;
        // A work that threw has no result: its exception comes out here, on the owner's thread.
        watcher->waitForFinished();
        task->deliver();
    });
    watcher->setFuture(QtConcurrent::run([task = std::move(task)] { task->work(); }));
}

} // namespace gapscope::app
