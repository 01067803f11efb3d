// SPDX-License-Identifier: MIT
#include "core/io/chrome/chrome_event_parser.h"

#include <charconv>

#include <cstdlib>
#include <cstring>
#include <string>

namespace gapscope::chrome {

using json::Scanner;

namespace {

bool keyIs(std::string_view key, std::string_view expected)
{
    return key.size() == expected.size() && std::memcmp(key.data(), expected.data(), key.size()) == 0;
}

} // namespace

const char* ChromeEventParser::parse(const char* p, ParsedEvent& ev)
{
    ev.reset();
    if (*p != '{') {
        ev.isObject = false;
        return m_scan.skipValue(p);
    }
    p = Scanner::skipSpace(p + 1);
    if (*p != '}') {
        for (;;) {
            std::string_view key;
            p = m_scan.scanKey(p, key);
            if (!p)
                return nullptr;
            p = parseField(key, p, ev);
            if (!p)
                return nullptr;
            p = Scanner::skipSpace(p);
            if (*p == ',') {
                p = Scanner::skipSpace(p + 1);
                continue;
            }
            if (*p == '}')
                break;
            return m_scan.fail(p, "expected ',' or '}' in an event");
        }
    }
    return p + 1;
}

const char* ChromeEventParser::parseField(std::string_view key, const char* p, ParsedEvent& ev)
{
    const auto stringField = [&](std::string_view& out, bool& present, bool* escaped, const char* wrongType) {
        if (*p != '"') {
            if (!ev.problem)
                ev.problem = wrongType;
            return m_scan.skipValue(p);
        }
        bool esc = false;
        const char* end = m_scan.scanString(p, esc);
        if (end) {
            out = std::string_view(p + 1, static_cast<std::size_t>(end - p - 2));
            present = true;
            if (escaped)
                *escaped = esc;
        }
        return end;
    };
    switch (key.size()) {
    case 2:
        if (keyIs(key, "ph"))
            return stringField(ev.ph, ev.hasPh, nullptr, "\"ph\" is not a string");
        if (keyIs(key, "ts"))
            return parseTime(p, ev.ts, ev.hasTs, ev, "\"ts\" is not a number");
        if (keyIs(key, "id")) {
            // Flow ids: a number, or a string holding one (decimal or 0x-hex).
            if (*p == '"') {
                std::string_view text;
                bool present = false;
                const char* end = stringField(text, present, nullptr, nullptr);
                if (end) {
                    // Decimal, as the format means ("010" is ten, not octal eight), or 0x-hex.
                    const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
                    const std::string_view digits = hex ? text.substr(2) : text;
                    std::uint64_t v = 0;
                    const auto [parsedEnd, ec]
                        = std::from_chars(digits.data(), digits.data() + digits.size(), v, hex ? 16 : 10);
                    if (!digits.empty() && ec == std::errc() && parsedEnd == digits.data() + digits.size()) {
                        ev.id = v;
                        ev.hasId = true;
                    }
                }
                return end;
            }
            std::optional<std::int64_t> v;
            const char* end = parseInteger(p, v);
            if (v && *v >= 0) {
                ev.id = static_cast<std::uint64_t>(*v);
                ev.hasId = true;
            }
            return end;
        }
        break;
    case 3:
        if (keyIs(key, "cat"))
            return stringField(ev.cat, ev.hasCat, &ev.catEscaped, "\"cat\" is not a string");
        if (keyIs(key, "pid"))
            return parseId(p, ev.pid, ev, "\"pid\" is neither an integer nor a string");
        if (keyIs(key, "tid"))
            return parseId(p, ev.tid, ev, "\"tid\" is neither an integer nor a string");
        if (keyIs(key, "dur"))
            return parseTime(p, ev.dur, ev.hasDur, ev, "\"dur\" is not a number");
        break;
    case 4:
        if (keyIs(key, "name"))
            return stringField(ev.name, ev.hasName, &ev.nameEscaped, "\"name\" is not a string");
        if (keyIs(key, "args"))
            return parseArgs(p, ev);
        break;
    default:
        break;
    }
    return m_scan.skipValue(p);
}

const char* ChromeEventParser::parseId(const char* p, IdField& field, ParsedEvent& ev, const char* wrongType)
{
    if (*p == '"') {
        bool escaped = false;
        const char* end = m_scan.scanString(p, escaped);
        if (!end)
            return nullptr;
        std::string_view text(p + 1, static_cast<std::size_t>(end - p - 2));
        field.present = true;
        if (auto number = json::parseInteger(text)) {
            field.id = RawId { *number, false };
        } else {
            // Escaped pid/tid strings are so rare that their raw text serves as their identity.
            field.id = RawId { syntheticId(text), true };
            field.text = text;
        }
        return end;
    }
    if (*p == '-' || Scanner::isDigit(*p)) {
        std::int64_t number = 0;
        bool isInteger = false;
        const char* end = m_scan.scanInteger(p, number, isInteger);
        if (end && isInteger) {
            field.present = true;
            field.id = RawId { number, false };
        } else if (end && !ev.problem) {
            ev.problem = wrongType;
        }
        return end;
    }
    if (!ev.problem)
        ev.problem = wrongType;
    return m_scan.skipValue(p);
}

const char* ChromeEventParser::parseTime(
    const char* p, TimeNs& value, bool& present, ParsedEvent& ev, const char* wrongType)
{
    if (*p != '-' && !Scanner::isDigit(*p)) {
        if (!ev.problem)
            ev.problem = wrongType;
        return m_scan.skipValue(p);
    }
    bool ok = false;
    const char* end = m_scan.scanMicroseconds(p, value, ok);
    if (end && !ok && !ev.problem)
        ev.problem = "a time is out of range (more than 292 years in nanoseconds)";
    present = ok;
    return end;
}

const char* ChromeEventParser::parseInteger(const char* p, std::optional<std::int64_t>& value)
{
    if (*p != '-' && !Scanner::isDigit(*p))
        return m_scan.skipValue(p);
    std::int64_t v = 0;
    bool isInteger = false;
    const char* end = m_scan.scanInteger(p, v, isInteger);
    if (end && isInteger)
        value = v;
    return end;
}

const char* ChromeEventParser::parseArgs(const char* p, ParsedEvent& ev)
{
    if (*p != '{') {
        if (!ev.problem)
            ev.problem = "\"args\" is not an object";
        return m_scan.skipValue(p);
    }
    const char* start = p;
    p = Scanner::skipSpace(p + 1);
    if (*p != '}') {
        ev.argsEmpty = false;
        for (;;) {
            std::string_view key;
            p = m_scan.scanKey(p, key);
            if (!p)
                return nullptr;
            switch (key.size()) {
            case 4:
                if (keyIs(key, "name") && *p == '"') {
                    bool escaped = false;
                    const char* s = p;
                    p = m_scan.scanString(p, escaped);
                    if (p) {
                        ev.argName = std::string_view(s + 1, static_cast<std::size_t>(p - s - 2));
                        ev.argNameEscaped = escaped;
                    }
                } else {
                    p = m_scan.skipValue(p);
                }
                break;
            case 5:
                p = keyIs(key, "bytes") ? parseInteger(p, ev.bytes) : m_scan.skipValue(p);
                break;
            case 6:
                if (keyIs(key, "device"))
                    p = parseInteger(p, ev.device);
                else if (keyIs(key, "stream"))
                    p = parseInteger(p, ev.stream);
                else
                    p = m_scan.skipValue(p);
                break;
            case 10:
                p = keyIs(key, "sort_index") ? parseInteger(p, ev.sortIndex) : m_scan.skipValue(p);
                break;
            case 11:
                p = keyIs(key, "correlation") ? parseInteger(p, ev.correlation) : m_scan.skipValue(p);
                break;
            default:
                p = m_scan.skipValue(p);
                break;
            }
            if (!p)
                return nullptr;
            p = Scanner::skipSpace(p);
            if (*p == ',') {
                p = Scanner::skipSpace(p + 1);
                continue;
            }
            if (*p == '}')
                break;
            return m_scan.fail(p, "expected ',' or '}' in args");
        }
    }
    ev.hasArgs = true;
    ev.argsText = std::string_view(start, static_cast<std::size_t>(p + 1 - start));
    return p + 1;
}

} // namespace gapscope::chrome
