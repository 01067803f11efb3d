// SPDX-License-Identifier: MIT
// The evidence tables of an export (CPU samples, memory usage, GPU metrics) read beside the event tables: their
// rows are as many as the events' on a sampled capture with GPU metrics, and the SQLite scan of a row is most of
// what a row costs, so they are scanned on a connection of their own while the event tables are.
#include "core/io/nsys/nsys_import.h"
#include "core/parallel_for.h"

#include <algorithm>
#include <array>
#include <memory>

namespace gapscope::nsys {

namespace {

constexpr std::array<std::string_view, 4> kEvidenceTables
    = { "COMPOSITE_EVENTS", "SAMPLING_CALLCHAINS", "CUDA_GPU_MEMORY_USAGE_EVENTS", "GPU_METRICS" };

} // namespace

void NsysImport::readEvidenceRows()
{
    readSampleRows();
    readGpuMemoryUsageRows();
    readGpuMetricRows();
}

void NsysImport::readEventAndEvidenceTables(unsigned threads, std::int64_t parallelFromRows)
{
    const bool hasEvidence
        = std::any_of(kEvidenceTables.begin(), kEvidenceTables.end(), [&](std::string_view t) { return has(t); });
    std::unique_ptr<SqliteDatabase> db;
    std::unique_ptr<NsysImport> reader;
    if (hasEvidence && threadsOrCores(threads) > 1 && !m_path.empty()) {
        db = std::make_unique<SqliteDatabase>(m_path, m_withoutLocking);
        if (db->isOpen() && (!m_cutOff || db->tolerateCutOffFile()))
            reader = std::make_unique<NsysImport>(
                *db, m_fileName, std::vector<std::string>(m_tables.begin(), m_tables.end()), m_keepArgs);
    }
    if (!reader) {
        readEventTables(threads, parallelFromRows);
        readEvidenceRows();
        return;
    }
    parallelFor(2, 2, [&](std::size_t part) {
        if (part == 0)
            readEventTables(threads, parallelFromRows);
        else
            reader->readEvidenceRows();
    });
    m_evidence = std::move(reader->m_evidence);
    m_evidenceWarnings = std::move(reader->m_trace.warnings());
}

void NsysImport::applyEvidence()
{
    m_trace.warnings().insert(m_trace.warnings().end(), m_evidenceWarnings.begin(), m_evidenceWarnings.end());
    m_evidenceWarnings.clear();
    applySampleRows();
    applyGpuMemoryUsageRows();
    applyGpuMetricRows();
}

} // namespace gapscope::nsys
