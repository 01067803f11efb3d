// SPDX-License-Identifier: MIT
#include "core/io/chrome/chrome_trace_reader.h"

#include "core/io/chrome/chrome_event_mapper.h"
#include "core/io/chrome/chrome_event_parser.h"
#include "core/io/chrome/chrome_trace_builder.h"
#include "core/io/chrome/content_window.h"
#include "core/io/chrome/event_pipeline.h"
#include "core/io/chrome/json_scanner.h"
#include "core/io/common/cut_short.h"
#include "core/io/common/finished_trace.h"
#include "core/io/common/gzip_file.h"

#include <cstring>
#include <limits>
#include <memory>
#include <thread>

namespace gapscope {

namespace {

using chrome::ChromeEventMapper;
using chrome::ChromeEventParser;
using chrome::ChromeTraceBuilder;
using chrome::EventPipeline;
using chrome::ParsedEvent;
using json::Scanner;

/// Streams a Chrome trace-event JSON document through a ContentWindow: this class walks the top-level
/// structure (an object with traceEvents and metadata keys, or a bare array), ChromeEventParser reads each
/// event, ChromeEventMapper maps it onto ChromeTraceBuilder, which assembles the Trace at the end.
class ChromeJsonImporter {
public:
    ChromeJsonImporter(ContentSource& source, const std::string& fileName, const ChromeReadOptions& options)
        : m_fileName(fileName)
        , m_builder(fileName)
        , m_mapper(m_builder, options.keepArgs, options.filter)
        , m_pipeline(mapsOnASecondThread(options) ? std::make_unique<EventPipeline>(m_mapper) : nullptr)
        , m_window(source, options.windowBytes, options.stop, m_pipeline.get())
        , m_eventParser(m_scan)
    { }

    IoResult<TraceBuilder> run();
    /// The content's size, known before the read: lets the builder size its lanes once (a large file).
    void expectContentBytes(std::uint64_t bytes) { m_builder.expectContentBytes(bytes); }

private:
    // Parses one item starting at m_pos with `parse` (which returns its end or nullptr after m_scan.fail),
    // sliding the window and retrying when the item runs past the data read so far. False on error.
    // `parse` must have no side effect before it succeeds.
    template <typename Parse> bool parseItem(Parse&& parse);
    bool refill();
    bool parseTopLevelObject();
    bool parseEventArray();
    bool checkTrailing();
    const char* parseTopLevelValue(const char* p, std::string_view key);
    /// skipValue(p), but a value that runs up to the window's end before the content's end may go on in the next
    /// window (a number such as 17128|67402 cut by the window): that is "not complete yet", so parseItem refills.
    const char* skipCompleteValue(const char* p);
    void setSyntaxError();
    void setError(std::uint64_t offset, std::string message);

    static bool mapsOnASecondThread(const ChromeReadOptions& options)
    {
        return options.threads > 1 || (options.threads == 0 && std::thread::hardware_concurrency() > 1);
    }
    /// Parses the events from m_pos and maps them, on the pipeline's thread when there is one.
    bool parseEvents();

    std::string m_fileName;
    ChromeTraceBuilder m_builder;
    ChromeEventMapper m_mapper;
    std::unique_ptr<EventPipeline> m_pipeline; // the window's buffer pool: declared before it, outlives it
    ContentWindow m_window;
    Scanner m_scan;
    const char* m_pos = nullptr;
    ChromeEventParser m_eventParser;
    ParsedEvent m_event;
    /// The error a failed parse left; a file that ended early after complete events loads them instead, with
    /// a warning (as a native capture cut off by a crash does).
    IoResult<TraceBuilder> failure();
    /// The events mapped, and the counters made tracks of: what the read returns.
    TraceBuilder takeTrace()
    {
        m_mapper.reportUnsupportedPhases();
        TraceBuilder trace = m_builder.takeTrace();
        m_mapper.counters().apply(trace);
        return trace;
    }
    std::optional<IoError> m_error;
    const char* m_context = "at the top level";
    std::uint64_t m_eventsRead = 0;
    bool m_endedEarly = false; // the content (or the gzip stream) ended before the JSON did
};

template <typename Parse> bool ChromeJsonImporter::parseItem(Parse&& parse)
{
    for (;;) {
        const char* end = parse(m_pos);
        if (end) {
            m_pos = end;
            return true;
        }
        if (m_scan.failAt < m_window.end()) {
            setSyntaxError();
            return false;
        }
        if (m_window.eof()) {
            m_endedEarly = true;
            if (m_window.endError()) {
                m_error = *m_window.endError();
                return false;
            }
            setError(
                m_window.contentEnd(), std::string("the JSON ends early (truncated file?): the end came ") + m_context);
            return false;
        }
        if (!refill())
            return false;
    }
}

bool ChromeJsonImporter::refill()
{
    if (auto failed = m_window.refill(m_pos)) {
        m_endedEarly = failed->message.find("truncated") != std::string::npos;
        m_error = std::move(*failed);
        return false;
    }
    return true;
}

IoResult<TraceBuilder> ChromeJsonImporter::failure()
{
    if (!m_endedEarly || m_eventsRead == 0)
        return *m_error;
    m_builder.warnEndedEarly(m_error->byteOffset.value_or(0),
        std::string(kJsonEndedEarly) + ": loaded the " + std::to_string(m_eventsRead)
            + " complete events before the cut (" + m_error->message + ")");
    return takeTrace();
}

void ChromeJsonImporter::setError(std::uint64_t offset, std::string message)
{
    m_error = IoError { m_fileName, offset, std::move(message) };
}

void ChromeJsonImporter::setSyntaxError()
{
    const char* at = m_scan.failAt;
    std::string message = "not valid JSON: ";
    if (*at == '\0')
        message += "a NUL byte";
    else
        message += m_scan.failMessage;
    message += ' ';
    message += m_context;
    setError(m_window.offsetOf(at), std::move(message));
}

IoResult<TraceBuilder> ChromeJsonImporter::run()
{
    m_pos = m_window.begin();
    if (!refill())
        return *m_error;
    if (m_window.eof() && m_window.begin() == m_window.end())
        return IoError { m_fileName, 0, "the file is empty" };
    if (m_window.end() - m_pos >= 3 && std::memcmp(m_pos, "\xef\xbb\xbf", 3) == 0)
        m_pos += 3; // UTF-8 byte order mark

    char first = 0;
    std::uint64_t valueOffset = 0;
    const bool started = parseItem([&](const char* p) -> const char* {
        p = Scanner::skipSpace(p);
        if (*p == '\0')
            return m_scan.fail(p, "expected a JSON value");
        first = *p;
        valueOffset = m_window.offsetOf(p);
        return p;
    });
    if (!started) {
        if (m_window.eof() && m_error && m_error->byteOffset == m_window.contentEnd())
            return IoError { m_fileName, m_window.contentEnd(), "the file holds only whitespace, no JSON value" };
        return *m_error;
    }
    if (first == '[') {
        ++m_pos;
        m_context = "inside the top-level array of events";
        if (!parseEventArray())
            return failure();
    } else if (first == '{') {
        ++m_pos;
        if (!parseTopLevelObject())
            return failure();
    } else {
        // Valid JSON that is not an object or array is "not a trace"; anything else is not JSON at all.
        if (!parseItem([&](const char* p) { return skipCompleteValue(p); }))
            return *m_error;
        if (!checkTrailing())
            return *m_error;
        return IoError { m_fileName, valueOffset,
            "not a Chrome trace: the top-level JSON value is neither an object with \"traceEvents\" "
            "nor an array of events" };
    }
    if (!checkTrailing())
        return failure();
    return takeTrace();
}

bool ChromeJsonImporter::checkTrailing()
{
    m_context = "after the top-level value";
    for (;;) {
        const char* p = Scanner::skipSpace(m_pos);
        if (p < m_window.end()) {
            m_scan.fail(p, "unexpected data");
            setSyntaxError();
            return false;
        }
        if (m_window.eof())
            return true;
        m_pos = p;
        if (!refill())
            return false;
    }
}

bool ChromeJsonImporter::parseTopLevelObject()
{
    const std::uint64_t objectOffset = m_window.offsetOf(m_pos - 1);
    bool sawTraceEvents = false;
    std::string key;
    m_context = "inside the top-level object";
    bool more = false;
    if (!parseItem([&](const char* p) -> const char* {
            p = Scanner::skipSpace(p);
            more = *p != '}';
            return more ? p : p + 1;
        }))
        return false;
    while (more) {
        m_context = "inside the top-level object";
        if (!parseItem([&](const char* p) -> const char* {
                std::string_view rawKey;
                p = m_scan.scanKey(Scanner::skipSpace(p), rawKey);
                if (p)
                    key.assign(rawKey);
                return p;
            }))
            return false;
        if (key == "traceEvents") {
            std::uint64_t valueOffset = 0;
            bool isArray = false;
            // Every item starts by skipping spaces: the previous one may have stopped at the end of the window
            // in the middle of a run of them.
            if (!parseItem([&](const char* p) -> const char* {
                    p = Scanner::skipSpace(p);
                    valueOffset = m_window.offsetOf(p);
                    if (*p == '[') {
                        isArray = true;
                        return p + 1;
                    }
                    return m_scan.skipValue(p);
                }))
                return false;
            if (!isArray) {
                setError(valueOffset, "not a Chrome trace: \"traceEvents\" is not an array");
                return false;
            }
            m_context = "inside the traceEvents array";
            if (!parseEventArray())
                return false;
            sawTraceEvents = true;
        } else {
            m_context = "inside a top-level value";
            if (!parseItem([&](const char* p) { return parseTopLevelValue(Scanner::skipSpace(p), key); }))
                return false;
        }
        m_context = "inside the top-level object";
        if (!parseItem([&](const char* p) -> const char* {
                p = Scanner::skipSpace(p);
                if (*p == ',')
                    return p + 1;
                if (*p == '}') {
                    more = false;
                    return p + 1;
                }
                return m_scan.fail(p, "expected ',' or '}'");
            }))
            return false;
    }
    if (!sawTraceEvents) {
        setError(objectOffset, "not a Chrome trace: the top-level object has no \"traceEvents\" array");
        return false;
    }
    return true;
}

const char* ChromeJsonImporter::skipCompleteValue(const char* p)
{
    const char* end = m_scan.skipValue(p);
    if (end && end == m_window.end() && !m_window.eof())
        return m_scan.fail(end, "the value may go on after the window");
    return end;
}

const char* ChromeJsonImporter::parseTopLevelValue(const char* p, std::string_view key)
{
    const char* end = skipCompleteValue(p);
    if (!end)
        return nullptr;
    const std::string_view raw(p, static_cast<std::size_t>(end - p));
    m_builder.addFileMetadata(key, raw);
    if (key == "distributedInfo" && *p == '{') {
        // {"backend": "nccl", "rank": 0, ...}: only the rank is modelled; the rest stays in the metadata.
        const char* q = Scanner::skipSpace(p + 1);
        while (*q == '"') {
            std::string_view k;
            q = m_scan.scanKey(q, k);
            std::optional<std::int64_t> rank;
            q = k == "rank" ? m_eventParser.parseInteger(q, rank) : m_scan.skipValue(q);
            if (rank && *rank >= 0 && *rank <= std::numeric_limits<int>::max())
                m_builder.setRank(static_cast<int>(*rank));
            q = Scanner::skipSpace(q);
            if (*q == ',')
                q = Scanner::skipSpace(q + 1);
        }
    } else if (key == "deviceProperties" && *p == '[') {
        // [{"id": 0, "name": "NVIDIA A100-PG509-200", ...}, ...]
        const char* q = Scanner::skipSpace(p + 1);
        while (*q == '{') {
            const char* entryStart = q;
            std::optional<std::int64_t> id;
            std::string name;
            q = Scanner::skipSpace(q + 1);
            while (*q == '"') {
                std::string_view k;
                q = m_scan.scanKey(q, k);
                if (k == "id") {
                    q = m_eventParser.parseInteger(q, id);
                } else if (k == "name" && *q == '"') {
                    bool escaped = false;
                    const char* s = q;
                    q = m_scan.scanString(q, escaped);
                    const std::string_view rawName(s + 1, static_cast<std::size_t>(q - s - 2));
                    if (!escaped || !json::unescapeString(rawName, name))
                        name.assign(rawName);
                } else {
                    q = m_scan.skipValue(q);
                }
                q = Scanner::skipSpace(q);
                if (*q == ',')
                    q = Scanner::skipSpace(q + 1);
            }
            q = q + 1; // the entry's '}' (the value was validated above)
            if (id && *id >= std::numeric_limits<int>::min() && *id <= std::numeric_limits<int>::max())
                m_builder.addDeviceProperties(static_cast<int>(*id), std::move(name),
                    std::string(entryStart, static_cast<std::size_t>(q - entryStart)));
            q = Scanner::skipSpace(q);
            if (*q == ',')
                q = Scanner::skipSpace(q + 1);
        }
    }
    return end;
}

bool ChromeJsonImporter::parseEventArray()
{
    if (!m_pipeline)
        return parseEvents();
    m_pipeline->start();
    bool parsed = false;
    try {
        parsed = parseEvents();
    } catch (...) {
        m_pipeline->finish();
        throw;
    }
    // Every event parsed is mapped before the reader goes on (to the keys after traceEvents, or failure()).
    m_pipeline->finish();
    return parsed;
}

bool ChromeJsonImporter::parseEvents()
{
    bool more = false;
    if (!parseItem([&](const char* p) -> const char* {
            p = Scanner::skipSpace(p);
            more = *p != ']';
            return more ? p : p + 1;
        }))
        return false;
    while (more) {
        if (!parseItem([&](const char* p) {
                p = Scanner::skipSpace(p);
                const std::uint64_t offset = m_window.offsetOf(p);
                ParsedEvent& event = m_pipeline ? m_pipeline->slot() : m_event;
                const char* end = m_eventParser.parse(p, event);
                if (end) {
                    if (m_pipeline)
                        m_pipeline->commit(offset);
                    else
                        m_mapper.map(event, offset);
                    ++m_eventsRead;
                }
                return end;
            }))
            return false;
        if (!parseItem([&](const char* p) -> const char* {
                p = Scanner::skipSpace(p);
                if (*p == ',')
                    return p + 1;
                if (*p == ']') {
                    more = false;
                    return p + 1;
                }
                return m_scan.fail(p, "expected ',' or ']' after an event");
            }))
            return false;
    }
    return true;
}

} // namespace

IoResult<Trace> ChromeTraceReader::readFile(const std::string& path)
{
    return readFile(path, ChromeReadOptions {});
}

IoResult<Trace> ChromeTraceReader::readFile(const std::string& path, const ChromeReadOptions& options)
{
    return finishedTrace(readUnfinished(path, options));
}

IoResult<TraceBuilder> ChromeTraceReader::readUnfinished(const std::string& path, const ChromeReadOptions& options)
{
    GzipFileReader file;
    if (auto failed = file.open(path))
        return *failed;
    FileContentSource source(file);
    ChromeJsonImporter importer(source, path, options);
    if (!file.isCompressed())
        importer.expectContentBytes(file.fileSize());
    return importer.run();
}

IoResult<Trace> ChromeTraceReader::parse(std::string_view json, const std::string& fileName)
{
    return parse(json, fileName, ChromeReadOptions {});
}

IoResult<Trace> ChromeTraceReader::parse(
    std::string_view json, const std::string& fileName, const ChromeReadOptions& options)
{
    MemoryContentSource source(json);
    ChromeJsonImporter importer(source, fileName, options);
    return finishedTrace(importer.run());
}

} // namespace gapscope
