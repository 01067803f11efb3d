// SPDX-License-Identifier: MIT
#pragma once

#include "core/io/chrome/chrome_trace_builder.h"
#include "core/io/chrome/json_scanner.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace gapscope::chrome {

/// A pid or tid value as parsed.
struct IdField {
    bool present = false;
    RawId id;
    std::string_view text; // the string, when it was a non-numeric one
};

/// The fields of one trace event that the reader uses; views point into the parser's buffer and are valid
/// until it moves. One instance is reused for every event: reset() clears only the flags and the fields read
/// without one (re-initialising the whole struct per event showed in profiles).
struct ParsedEvent {
    bool isObject; // false: the array element was another JSON value, skipped
    std::string_view ph, cat, name; // valid with hasPh, hasCat, hasName
    bool hasPh, hasCat, hasName, hasTs, hasDur, hasId;
    bool nameEscaped, catEscaped; // the view is raw JSON string text with escapes
    IdField pid, tid;
    TimeNs ts, dur; // valid with hasTs, hasDur
    std::uint64_t id; // flow id, valid with hasId
    bool hasArgs, argsEmpty;
    std::string_view argsText; // the raw `args` object, valid with hasArgs
    // From args: integers where they are integers.
    std::optional<std::int64_t> correlation, device, stream, bytes, sortIndex;
    std::string_view argName; // args.name (metadata events)
    bool argNameEscaped;
    const char* problem; // the first wrong-typed field, reported when the event is skipped

    void reset()
    {
        isObject = true;
        hasPh = hasCat = hasName = hasTs = hasDur = hasId = false;
        nameEscaped = catEscaped = false;
        pid = IdField {};
        tid = IdField {};
        hasArgs = false;
        argsEmpty = true;
        correlation.reset();
        device.reset();
        stream.reset();
        bytes.reset();
        sortIndex.reset();
        argName = {};
        argNameEscaped = false;
        problem = nullptr;
    }
};

/// Parses one element of a traceEvents array into a ParsedEvent, validating its JSON and allocating nothing.
/// Unknown keys are skipped; a known key of the wrong type is recorded in ParsedEvent::problem, not an error.
class ChromeEventParser {
public:
    explicit ChromeEventParser(json::Scanner& scanner)
        : m_scan(scanner)
    { }

    /// `p` at the element's first character. Returns one past the element, or nullptr after
    /// json::Scanner::fail (a syntax error, or the data ended).
    const char* parse(const char* p, ParsedEvent& event);
    /// An integer sets `value`; any other value is skipped.
    const char* parseInteger(const char* p, std::optional<std::int64_t>& value);

private:
    const char* parseField(std::string_view key, const char* p, ParsedEvent& ev);
    const char* parseId(const char* p, IdField& field, ParsedEvent& ev, const char* wrongType);
    const char* parseTime(const char* p, TimeNs& value, bool& present, ParsedEvent& ev, const char* wrongType);
    const char* parseArgs(const char* p, ParsedEvent& ev);

    json::Scanner& m_scan;
};

} // namespace gapscope::chrome
