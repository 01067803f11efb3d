// SPDX-License-Identifier: MIT
#include "core/annotations/notes_by_file.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace gapscope {

namespace {

std::string canonicalOrSame(const std::string& path)
{
    std::error_code ec;
    auto canonical = std::filesystem::weakly_canonical(path, ec);
    return ec ? path : canonical.string();
}

} // namespace

NotesByFile NotesByFile::openForTraces(
    const std::vector<std::string>& tracePaths, const Trace* trace, const NotesFolders& folders)
{
    NotesByFile notes;
    notes.m_paths = tracePaths;
    notes.m_stores.reserve(tracePaths.size());
    for (const std::string& path : tracePaths)
        notes.m_stores.push_back(AnnotationStore::openForTrace(path, folders));
    if (trace) {
        std::vector<std::string> canonical;
        for (const std::string& path : tracePaths)
            canonical.push_back(canonicalOrSame(path));
        for (const Process& process : trace->processes()) {
            auto it = std::find(tracePaths.begin(), tracePaths.end(), process.sourceFile);
            std::size_t file = static_cast<std::size_t>(it - tracePaths.begin());
            if (it == tracePaths.end() && !process.sourceFile.empty()) {
                const auto c = std::find(canonical.begin(), canonical.end(), canonicalOrSame(process.sourceFile));
                file = static_cast<std::size_t>(c - canonical.begin());
            }
            if (file < tracePaths.size())
                notes.m_fileOfPid.emplace(process.pid, file); // the first file with a pid keeps it
        }
    }
    notes.rebuild();
    return notes;
}

void NotesByFile::rebuild()
{
    m_all.clear();
    m_fileOfNote.clear();
    for (std::size_t file = 0; file < m_stores.size(); ++file) {
        for (const Annotation& a : m_stores[file].annotations()) {
            m_all.push_back(a);
            m_fileOfNote.push_back(file);
        }
    }
}

const Annotation* NotesByFile::find(std::string_view id) const
{
    const auto index = indexOf(id);
    return index ? &m_all[*index] : nullptr;
}

std::optional<std::size_t> NotesByFile::indexOf(std::string_view id) const
{
    const auto it = std::find_if(m_all.begin(), m_all.end(), [&](const Annotation& a) { return a.id == id; });
    if (it == m_all.end())
        return std::nullopt;
    return static_cast<std::size_t>(it - m_all.begin());
}

std::optional<std::size_t> NotesByFile::fileOf(std::string_view id) const
{
    const auto index = indexOf(id);
    if (!index)
        return std::nullopt;
    return m_fileOfNote[*index];
}

std::optional<std::size_t> NotesByFile::fileOfPid(std::int64_t pid) const
{
    const auto it = m_fileOfPid.find(pid);
    if (it == m_fileOfPid.end())
        return std::nullopt;
    return it->second;
}

std::size_t NotesByFile::fileFor(const Annotation& note) const
{
    for (const LaneIdentity& lane : note.lanes) {
        if (const auto file = fileOfPid(lane.pid))
            return *file;
    }
    if (note.gap) {
        if (const auto file = fileOfPid(note.gap->pid))
            return *file;
    }
    return 0;
}

std::string NotesByFile::add(Annotation annotation)
{
    if (m_stores.empty())
        return {};
    // Ids are unique within a store; a note's id must be unique among all the files' notes too.
    while (annotation.id.empty() || find(annotation.id))
        annotation.id = newAnnotationId();
    const std::size_t file = fileFor(annotation);
    std::string id = m_stores[file].add(std::move(annotation));
    rebuild();
    return id;
}

bool NotesByFile::update(Annotation annotation)
{
    const auto file = fileOf(annotation.id);
    if (!file)
        return false;
    const bool updated = m_stores[*file].update(std::move(annotation));
    rebuild();
    return updated;
}

bool NotesByFile::remove(std::string_view id)
{
    const auto file = fileOf(id);
    if (!file)
        return false;
    m_stores[*file].remove(id);
    m_removedFrom[std::string(id)] = *file;
    rebuild();
    return true;
}

void NotesByFile::restore(Annotation annotation, std::optional<std::size_t> position)
{
    if (m_stores.empty())
        return;
    if (const auto file = fileOf(annotation.id)) {
        m_stores[*file].restore(std::move(annotation));
        rebuild();
        return;
    }
    std::size_t file = fileFor(annotation);
    if (const auto removed = m_removedFrom.find(annotation.id); removed != m_removedFrom.end())
        file = removed->second;
    std::optional<std::size_t> inFile;
    if (position) {
        const std::size_t end = std::min(*position, m_all.size());
        inFile = static_cast<std::size_t>(
            std::count(m_fileOfNote.begin(), m_fileOfNote.begin() + static_cast<std::ptrdiff_t>(end), file));
    }
    m_stores[file].restore(std::move(annotation), inFile);
    rebuild();
}

std::vector<NotesByFile::SaveFailure> NotesByFile::save()
{
    std::vector<SaveFailure> failures;
    for (std::size_t file = 0; file < m_stores.size(); ++file) {
        if (!m_stores[file].dirty())
            continue;
        auto saved = m_stores[file].save();
        if (!saved)
            failures.push_back({ file, saved.error() });
    }
    return failures;
}

bool NotesByFile::dirty() const
{
    return std::any_of(m_stores.begin(), m_stores.end(), [](const AnnotationStore& s) { return s.dirty(); });
}

void NotesByFile::setClock(const AnnotationStore::Clock& clock)
{
    for (AnnotationStore& store : m_stores)
        store.setClock(clock);
}

} // namespace gapscope
