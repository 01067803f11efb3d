// SPDX-License-Identifier: MIT
#include "app/record/record_series.h"

#include "capture/launcher/run_series.h"

#include <QDir>

namespace gapscope::app {

RecordSeries::RecordSeries(const capture::RecordOptions& options, QString folder, int runs)
    : m_manifest(capture::seriesManifest(options))
    , m_folder(std::move(folder))
    , m_runs(runs)
{ }

QString RecordSeries::beginNextRun()
{
    ++m_current;
    m_manifest.runs.push_back(capture::beginSeriesRun(static_cast<std::size_t>(m_current)));
    return QDir(m_folder).filePath(QString::fromStdString(m_manifest.runs.back().file));
}

std::optional<QString> RecordSeries::endRun(
    const RecordingOutcome& outcome, const std::vector<std::string>& environment)
{
    if (m_current == 1)
        m_manifest.environmentChanges = capture::environmentChanges(environment);
    std::optional<capture::ProgramExit> exit;
    if (outcome.exited)
        exit = outcome.exit;
    capture::endSeriesRun(m_manifest.runs.back(), exit, outcome.wallSeconds,
        outcome.succeeded ? std::string() : outcome.error.toStdString());
    return writeManifest();
}

std::optional<QString> RecordSeries::endRunNotStarted(const QString& why)
{
    capture::endSeriesRun(m_manifest.runs.back(), std::nullopt, 0.0, why.toStdString());
    return writeManifest();
}

std::optional<QString> RecordSeries::writeManifest()
{
    if (auto written = writeRunsManifest(m_folder.toStdString(), m_manifest); !written)
        return QString::fromStdString(written.error().toString());
    return std::nullopt;
}

QString RecordSeries::lastGoodRun() const
{
    for (auto run = m_manifest.runs.rbegin(); run != m_manifest.runs.rend(); ++run) {
        if (!run->failed && !run->file.empty())
            return QDir(m_folder).filePath(QString::fromStdString(run->file));
    }
    return {};
}

QString RecordSeries::summaryLine() const
{
    return QString::fromStdString(capture::seriesSummaryLine(
        m_manifest, static_cast<std::size_t>(m_runs), QDir::toNativeSeparators(m_folder).toStdString()));
}

} // namespace gapscope::app
