// SPDX-License-Identifier: MIT
#include "core/annotations/annotation_store.h"

#include "core/io/common/atomic_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

namespace gapscope {

namespace {

/// How many `<trace>.gapscope-N.json` names are tried before giving up on finding a free one.
constexpr int kMaxAlternates = 100;

enum class ReadState { Missing, Read, Failed };

struct ReadOutcome {
    ReadState state = ReadState::Missing;
    AnnotationDocument document;
    std::optional<IoError> error;
};

ReadOutcome readSidecar(const std::string& path)
{
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec && ec != std::errc::no_such_file_or_directory)
        return { ReadState::Failed, {}, IoError { path, std::nullopt, "cannot read: " + ec.message() } };
    if (!std::filesystem::exists(status))
        return { ReadState::Missing, {}, std::nullopt };
    if (!std::filesystem::is_regular_file(status))
        return { ReadState::Failed, {}, IoError { path, std::nullopt, "not a regular file" } };
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return { ReadState::Failed, {},
            IoError { path, std::nullopt, std::string("cannot open: ") + std::strerror(errno) } };
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad())
        return { ReadState::Failed, {}, IoError { path, text.size(), "read failed" } };
    auto parsed = parseAnnotationDocument(text, path);
    if (!parsed)
        return { ReadState::Failed, {}, parsed.error() };
    return { ReadState::Read, std::move(parsed.value()), std::nullopt };
}

} // namespace

std::string AnnotationStore::sidecarPathFor(const std::string& tracePath)
{
    return tracePath + ".gapscope.json";
}

std::string AnnotationStore::alternatePathFor(const std::string& tracePath, int n)
{
    return tracePath + ".gapscope-" + std::to_string(n) + ".json";
}

IoResult<AnnotationDocument> AnnotationStore::readFile(const std::string& path)
{
    ReadOutcome outcome = readSidecar(path);
    if (outcome.state == ReadState::Missing)
        return IoError { path, std::nullopt, "no such file" };
    if (outcome.state == ReadState::Failed)
        return *outcome.error;
    return std::move(outcome.document);
}

AnnotationStore::AnnotationStore(std::string path)
    : m_savePath(std::move(path))
{ }

AnnotationStore AnnotationStore::openForTrace(const std::string& tracePath, const NotesFolders& folders)
{
    const SidecarPlace place = sidecarPlaceFor(tracePath, folders);
    AnnotationStore store(place.path);
    store.m_sidecarPath = place.path;
    store.m_home = place.home;
    const std::string traceName = std::filesystem::path(tracePath).filename().string();

    ReadOutcome sidecar = readSidecar(store.m_sidecarPath);
    if (sidecar.state == ReadState::Missing && place.home != NotesHome::NextToTrace) {
        // Notes saved next to the trace before it was known not to be the place: read them, save them here.
        const std::string nextToTrace = sidecarPathFor(tracePath);
        ReadOutcome old = readSidecar(nextToTrace);
        if (old.state == ReadState::Read) {
            store.m_document = std::move(old.document);
            store.m_document.traceName = traceName;
            store.m_loadedFrom = nextToTrace;
            return store;
        }
    }
    if (sidecar.state != ReadState::Failed) {
        if (sidecar.state == ReadState::Read) {
            store.m_document = std::move(sidecar.document);
            store.m_loadedFrom = store.m_sidecarPath;
        }
        store.m_document.traceName = traceName;
        return store;
    }
    // The sidecar is kept as it is for the user to inspect or repair. Notes go to the first alternate
    // that is free, or that a previous session (facing the same broken sidecar) already wrote.
    store.m_loadError = sidecar.error;
    store.m_document.traceName = traceName;
    const std::string sidecarBase = place.path.substr(0, place.path.size() - std::string_view(".json").size());
    for (int n = 1; n <= kMaxAlternates; ++n) {
        const std::string alternate = sidecarBase + "-" + std::to_string(n) + ".json";
        ReadOutcome outcome = readSidecar(alternate);
        if (outcome.state == ReadState::Failed)
            continue; // broken too: leave it alone as well
        store.m_savePath = alternate;
        if (outcome.state == ReadState::Read) {
            store.m_document = std::move(outcome.document);
            store.m_document.traceName = traceName;
            store.m_loadedFrom = alternate;
        }
        return store;
    }
    // Nowhere free next to the sidecar: saving needs saveAs(); say so on the first save.
    store.m_savePath.clear();
    return store;
}

const Annotation* AnnotationStore::find(std::string_view id) const
{
    const auto it = std::find_if(
        m_document.annotations.begin(), m_document.annotations.end(), [&](const Annotation& a) { return a.id == id; });
    return it == m_document.annotations.end() ? nullptr : &*it;
}

std::vector<Annotation>::iterator AnnotationStore::findMutable(std::string_view id)
{
    return std::find_if(
        m_document.annotations.begin(), m_document.annotations.end(), [&](const Annotation& a) { return a.id == id; });
}

std::optional<std::size_t> AnnotationStore::indexOf(std::string_view id) const
{
    const Annotation* a = find(id);
    if (!a)
        return std::nullopt;
    return static_cast<std::size_t>(a - m_document.annotations.data());
}

std::string AnnotationStore::now() const
{
    return formatIsoUtc(m_clock ? m_clock() : std::chrono::system_clock::now());
}

std::string AnnotationStore::add(Annotation annotation)
{
    while (annotation.id.empty() || find(annotation.id))
        annotation.id = newAnnotationId();
    if (annotation.end < annotation.start)
        std::swap(annotation.start, annotation.end);
    const std::string time = now();
    if (annotation.created.empty())
        annotation.created = time;
    if (annotation.modified.empty())
        annotation.modified = annotation.created;
    std::string id = annotation.id;
    m_document.annotations.push_back(std::move(annotation));
    m_dirty = true;
    return id;
}

bool AnnotationStore::update(Annotation annotation)
{
    const auto it = findMutable(annotation.id);
    if (it == m_document.annotations.end())
        return false;
    if (annotation.end < annotation.start)
        std::swap(annotation.start, annotation.end);
    annotation.modified = now();
    *it = std::move(annotation);
    m_dirty = true;
    return true;
}

bool AnnotationStore::remove(std::string_view id)
{
    const auto it = findMutable(id);
    if (it == m_document.annotations.end())
        return false;
    m_document.annotations.erase(it);
    m_dirty = true;
    return true;
}

void AnnotationStore::restore(Annotation annotation, std::optional<std::size_t> position)
{
    m_dirty = true;
    if (const auto it = findMutable(annotation.id); it != m_document.annotations.end()) {
        *it = std::move(annotation);
        return;
    }
    const std::size_t at = std::min(position.value_or(m_document.annotations.size()), m_document.annotations.size());
    m_document.annotations.insert(
        m_document.annotations.begin() + static_cast<std::ptrdiff_t>(at), std::move(annotation));
}

IoResult<void> AnnotationStore::save()
{
    if (m_savePath.empty()) {
        IoError error { m_sidecarPath, std::nullopt,
            "no file to save the notes to (the sidecar cannot be read and no free name was found next to it); "
            "the notes are kept in memory: save them elsewhere" };
        m_lastSaveError = error;
        return error;
    }
    return saveAs(m_savePath);
}

IoResult<void> AnnotationStore::saveAs(const std::string& path)
{
    const std::string text = serializeAnnotationDocument(m_document);
    if (m_home != NotesHome::NextToTrace && path == m_sidecarPath) {
        // The user's notes folder is made on the first save; a failure shows in the write's error below.
        std::error_code ec;
        std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    }
    auto written = writeFileAtomically(path, text, AtomicFile::Options { path + ".bak" });
    if (!written) {
        IoError error = written.error();
        error.message = "cannot save the notes: " + error.message
            + " (the file on disk is unchanged; the notes are kept in memory: save them elsewhere)";
        m_lastSaveError = error;
        return error;
    }
    m_savePath = path;
    m_lastSaveError.reset();
    m_dirty = false;
    return {};
}

} // namespace gapscope
