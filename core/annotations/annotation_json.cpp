// SPDX-License-Identifier: MIT
#include "core/annotations/annotation_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <iterator>
#include <limits>
#include <set>

namespace gapscope {

namespace {

// Ordered so that the sidecar reads in the order of the record, and unknown keys keep their place.
using Json = nlohmann::ordered_json;

const char* const kKnownAnnotationKeys[] = { "id", "start", "end", "lanes", "gap", "title", "problem", "baseline",
    "hypothesis", "change", "correctnessCheck", "performanceChange", "sideEffects", "status", "colour", "created",
    "modified", "afterTrace", "prediction" };
const char* const kKnownTopLevelKeys[] = { "format", "version", "trace", "annotations" };

// ---- locating a JSON pointer in the text -------------------------------------------------------

/// A char iterator that publishes how far the parser has read, so that a SAX handler knows where it is.
struct TrackingIterator {
    using iterator_category = std::forward_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    const char* position = nullptr;
    const char** cursor = nullptr;

    reference operator*() const { return *position; }
    TrackingIterator& operator++()
    {
        ++position;
        *cursor = position;
        return *this;
    }
    TrackingIterator operator++(int)
    {
        TrackingIterator before = *this;
        ++*this;
        return before;
    }
    friend bool operator==(const TrackingIterator& a, const TrackingIterator& b) { return a.position == b.position; }
};

/// Walks the text with nlohmann's SAX interface and stops at the value named by `target` (a list of
/// object keys and array indices): the byte offset of its key, or of its first character in an array.
class LocatingHandler {
public:
    LocatingHandler(std::string_view text, std::vector<std::string> target, const char** cursor)
        : m_text(text)
        , m_target(std::move(target))
        , m_cursor(cursor)
    { }
    std::optional<std::uint64_t> found() const { return m_found; }

    bool null() { return beginValue(); }
    bool boolean(bool) { return beginValue(); }
    bool number_integer(Json::number_integer_t) { return beginValue(); }
    bool number_unsigned(Json::number_unsigned_t) { return beginValue(); }
    bool number_float(Json::number_float_t, const Json::string_t&) { return beginValue(); }
    bool string(Json::string_t&) { return beginValue(); }
    bool binary(Json::binary_t&) { return beginValue(); }
    bool start_object(std::size_t)
    {
        if (!beginValue())
            return false;
        m_frames.push_back({ false, 0, {} });
        return true;
    }
    bool start_array(std::size_t)
    {
        if (!beginValue())
            return false;
        m_frames.push_back({ true, 0, {} });
        return true;
    }
    bool end_object() { return endContainer(); }
    bool end_array() { return endContainer(); }
    bool key(Json::string_t& name)
    {
        m_frames.back().token = name;
        if (!matches()) {
            m_lastEnd = offset();
            return true;
        }
        const std::size_t here = offset();
        const std::size_t quoted = m_text.rfind("\"" + name + "\"", here);
        m_found = quoted == std::string_view::npos ? here : quoted;
        return false;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

private:
    struct Frame {
        bool array;
        std::size_t count;
        std::string token;
    };

    std::size_t offset() const { return static_cast<std::size_t>(*m_cursor - m_text.data()); }
    bool matches() const
    {
        if (m_frames.size() != m_target.size())
            return false;
        for (std::size_t i = 0; i < m_frames.size(); ++i) {
            if (m_frames[i].token != m_target[i])
                return false;
        }
        return true;
    }
    bool beginValue()
    {
        if (!m_frames.empty() && m_frames.back().array)
            m_frames.back().token = std::to_string(m_frames.back().count++);
        // Object members were matched at their key; array elements are matched here. The element starts
        // at the first character after the previous event that is not a separator (the parser may have
        // read past the element's first character by now).
        if (!m_frames.empty() && m_frames.back().array && matches()) {
            std::size_t start = m_lastEnd;
            while (start < m_text.size()
                && (m_text[start] == ',' || std::isspace(static_cast<unsigned char>(m_text[start]))))
                ++start;
            m_found = start;
            return false;
        }
        m_lastEnd = offset();
        return true;
    }
    bool endContainer()
    {
        m_frames.pop_back();
        m_lastEnd = offset();
        return true;
    }

    std::string_view m_text;
    std::vector<std::string> m_target;
    const char** m_cursor;
    std::vector<Frame> m_frames;
    std::size_t m_lastEnd = 0;
    std::optional<std::uint64_t> m_found;
};

std::optional<std::uint64_t> locate(std::string_view text, const std::vector<std::string>& path)
{
    if (path.empty())
        return 0;
    const char* cursor = text.data();
    LocatingHandler handler(text, path, &cursor);
    const TrackingIterator first { text.data(), &cursor };
    const TrackingIterator last { text.data() + text.size(), &cursor };
    Json::sax_parse(first, last, &handler);
    return handler.found();
}

// ---- reading -----------------------------------------------------------------------------------

/// The first problem found in a parsed document, at a JSON path.
struct Problem {
    std::vector<std::string> path;
    std::string message;
};

/// Reads the parsed document into the model, stopping at the first problem.
class DocumentReader {
public:
    std::optional<Problem> problem;

    bool readDocument(const Json& root, AnnotationDocument& document)
    {
        if (!root.is_object() || !root.contains("format") || !root["format"].is_string()
            || root["format"].get<std::string>() != kAnnotationFormatName)
            return fail({}, "not a GapScope annotation file (expected \"format\": \"gapscope-annotations\")");
        if (!root.contains("version") || !root["version"].is_number_integer())
            return fail({}, "the annotation file has no integer \"version\"");
        const Json& version = root["version"];
        const bool newer = version.is_number_unsigned()
            ? version.get<std::uint64_t>() > static_cast<std::uint64_t>(kAnnotationFormatVersion)
            : version.get<std::int64_t>() > kAnnotationFormatVersion;
        if (newer)
            return fail({ "version" },
                "written by a newer GapScope (annotation format version " + version.dump()
                    + "; this build reads version " + std::to_string(kAnnotationFormatVersion)
                    + "): left unchanged, update GapScope to edit these notes");
        if (version.get<std::int64_t>() < 1)
            return fail({ "version" }, "invalid annotation format version " + version.dump());
        if (root.contains("trace") && !readString(root, "trace", {}, document.traceName))
            return false;
        if (!root.contains("annotations") || !root["annotations"].is_array())
            return fail({}, "the annotation file has no \"annotations\" array");
        const Json& list = root["annotations"];
        std::set<std::string> ids;
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::vector<std::string> at { "annotations", std::to_string(i) };
            Annotation annotation;
            if (!readAnnotation(list[i], at, annotation))
                return false;
            if (!ids.insert(annotation.id).second)
                return fail(extend(at, "id"), "duplicate annotation id \"" + annotation.id + "\"");
            document.annotations.push_back(std::move(annotation));
        }
        document.unknownFieldsJson = unknownKeys(root, kKnownTopLevelKeys);
        return true;
    }

private:
    static std::vector<std::string> extend(std::vector<std::string> path, std::string token)
    {
        path.push_back(std::move(token));
        return path;
    }

    bool fail(std::vector<std::string> path, std::string message)
    {
        problem = Problem { std::move(path), std::move(message) };
        return false;
    }

    template <std::size_t N> static std::string unknownKeys(const Json& object, const char* const (&known)[N])
    {
        Json unknown = Json::object();
        // Not a structured binding: clang before 16 cannot capture one in the lambda (the fuzz build uses clang 14).
        for (const auto& item : object.items()) {
            const std::string& key = item.key();
            if (std::find_if(std::begin(known), std::end(known), [&](const char* k) { return key == k; })
                == std::end(known))
                unknown[key] = item.value();
        }
        return unknown.empty() ? std::string() : unknown.dump();
    }

    bool readString(const Json& object, const char* key, const std::vector<std::string>& at, std::string& out)
    {
        if (!object.contains(key))
            return true;
        if (!object[key].is_string())
            return fail(extend(at, key), std::string("\"") + key + "\" must be a string");
        out = object[key].get<std::string>();
        return true;
    }

    bool readInteger(const Json& object, const char* key, const std::vector<std::string>& at, std::int64_t& out,
        bool required = true)
    {
        if (!object.contains(key))
            return required ? fail(at, std::string("missing \"") + key + "\"") : true;
        const Json& value = object[key];
        if (!value.is_number_integer()
            || (value.is_number_unsigned()
                && value.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())))
            return fail(extend(at, key), std::string("\"") + key + "\" must be an integer (ns on the trace clock)");
        out = value.get<std::int64_t>();
        return true;
    }

    bool readLane(const Json& object, const std::vector<std::string>& at, LaneIdentity& lane)
    {
        if (!object.is_object())
            return fail(at, "a lane must be an object {pid, tid} or {pid, device, stream}");
        if (!readInteger(object, "pid", at, lane.pid))
            return false;
        if (object.contains("tid")) {
            lane.kind = LaneIdentity::Kind::Thread;
            return readInteger(object, "tid", at, lane.tid);
        }
        std::int64_t device = 0;
        lane.kind = LaneIdentity::Kind::Stream;
        if (!readInteger(object, "device", at, device) || !readInteger(object, "stream", at, lane.stream))
            return false;
        lane.deviceId = static_cast<int>(device);
        return true;
    }

    bool readGap(const Json& object, const std::vector<std::string>& at, GapOrigin& gap)
    {
        if (!object.is_object())
            return fail(at, "\"gap\" must be an object {pid, device, stream?, start, end, cause}");
        std::int64_t device = 0;
        if (!readInteger(object, "pid", at, gap.pid) || !readInteger(object, "device", at, device)
            || !readInteger(object, "start", at, gap.start) || !readInteger(object, "end", at, gap.end)
            || !readString(object, "cause", at, gap.cause))
            return false;
        gap.deviceId = static_cast<int>(device);
        if (object.contains("stream")) {
            std::int64_t stream = 0;
            if (!readInteger(object, "stream", at, stream))
                return false;
            gap.stream = stream;
        }
        return true;
    }

    bool readNumber(const Json& object, const char* key, const std::vector<std::string>& at, double& out)
    {
        if (!object.contains(key) || !object[key].is_number())
            return fail(object.contains(key) ? extend(at, key) : at, std::string("\"") + key + "\" must be a number");
        out = object[key].get<double>();
        return true;
    }

    bool readPrediction(const Json& object, const std::vector<std::string>& at, PredictedChange& p)
    {
        if (!object.is_object())
            return fail(at, "\"prediction\" must be an object {scale, dropSyncs, window, measuredP50Ns, ...}");
        if (object.contains("scale")) {
            if (!object["scale"].is_array())
                return fail(extend(at, "scale"), "\"scale\" must be an array of {pattern, factor}");
            for (std::size_t i = 0; i < object["scale"].size(); ++i) {
                const Json& rule = object["scale"][i];
                const std::vector<std::string> ruleAt = extend(extend(at, "scale"), std::to_string(i));
                if (!rule.is_object())
                    return fail(ruleAt, "a scale rule must be an object {pattern, factor}");
                PredictedScale scale;
                if (!readString(rule, "pattern", ruleAt, scale.pattern)
                    || !readNumber(rule, "factor", ruleAt, scale.factor))
                    return false;
                p.scales.push_back(std::move(scale));
            }
        }
        if (object.contains("dropSyncs")) {
            if (!object["dropSyncs"].is_array())
                return fail(extend(at, "dropSyncs"), "\"dropSyncs\" must be an array of integers");
            for (const Json& n : object["dropSyncs"]) {
                if (!n.is_number_integer())
                    return fail(extend(at, "dropSyncs"), "\"dropSyncs\" must be an array of integers");
                p.droppedSyncs.push_back(n.get<std::int64_t>());
            }
        }
        if (object.contains("launchDelayMaxNs")) {
            TimeNs cap = 0;
            if (!readInteger(object, "launchDelayMaxNs", at, cap))
                return false;
            p.launchDelayCapNs = cap;
        }
        if (!object.contains("window") || !object["window"].is_object())
            return fail(object.contains("window") ? extend(at, "window") : at,
                "\"prediction\" needs a \"window\" object {kind, warmup, count, start, end}");
        const Json& window = object["window"];
        const std::vector<std::string> windowAt = extend(at, "window");
        std::string kind = "steps";
        std::int64_t warmup = 0;
        if (!readString(window, "kind", windowAt, kind) || !readInteger(window, "warmup", windowAt, warmup, false)
            || !readInteger(window, "count", windowAt, p.windowCount)
            || !readInteger(window, "start", windowAt, p.windowStartNs)
            || !readInteger(window, "end", windowAt, p.windowEndNs))
            return false;
        if (kind != "steps" && kind != "explicit")
            return fail(
                extend(windowAt, "kind"), "window \"kind\" must be \"steps\" or \"explicit\", got \"" + kind + "\"");
        p.steps = kind == "steps";
        p.warmupSteps = static_cast<int>(warmup);
        return readInteger(object, "measuredP50Ns", at, p.measuredP50Ns)
            && readInteger(object, "predictedP50Ns", at, p.predictedP50Ns) && readString(object, "made", at, p.made);
    }

    bool readAnnotation(const Json& object, const std::vector<std::string>& at, Annotation& a)
    {
        if (!object.is_object())
            return fail(at, "an annotation must be an object");
        if (!object.contains("id") || !object["id"].is_string() || object["id"].get<std::string>().empty())
            return fail(object.contains("id") ? extend(at, "id") : at, "an annotation needs a non-empty string \"id\"");
        a.id = object["id"].get<std::string>();
        if (!readInteger(object, "start", at, a.start) || !readInteger(object, "end", at, a.end))
            return false;
        if (a.end < a.start)
            return fail(extend(at, "end"), "\"end\" is before \"start\"");
        if (object.contains("lanes")) {
            if (!object["lanes"].is_array())
                return fail(extend(at, "lanes"), "\"lanes\" must be an array");
            const Json& lanes = object["lanes"];
            for (std::size_t i = 0; i < lanes.size(); ++i) {
                LaneIdentity lane;
                if (!readLane(lanes[i], extend(extend(at, "lanes"), std::to_string(i)), lane))
                    return false;
                a.lanes.push_back(lane);
            }
        }
        if (object.contains("gap") && !object["gap"].is_null()) {
            GapOrigin gap;
            if (!readGap(object["gap"], extend(at, "gap"), gap))
                return false;
            a.gap = gap;
        }
        if (object.contains("prediction") && !object["prediction"].is_null()) {
            PredictedChange prediction;
            if (!readPrediction(object["prediction"], extend(at, "prediction"), prediction))
                return false;
            a.prediction = std::move(prediction);
        }
        OptimizationRecord& r = a.record;
        if (!readString(object, "title", at, a.title) || !readString(object, "problem", at, r.problem)
            || !readString(object, "baseline", at, r.baseline) || !readString(object, "hypothesis", at, r.hypothesis)
            || !readString(object, "change", at, r.change)
            || !readString(object, "correctnessCheck", at, r.correctnessCheck)
            || !readString(object, "performanceChange", at, r.performanceChange)
            || !readString(object, "sideEffects", at, r.sideEffects)
            || !readString(object, "afterTrace", at, a.afterTrace) || !readString(object, "created", at, a.created)
            || !readString(object, "modified", at, a.modified))
            return false;
        std::string status = "open";
        if (!readString(object, "status", at, status))
            return false;
        const auto parsedStatus = annotationStatusFromName(status);
        if (!parsedStatus)
            return fail(extend(at, "status"),
                "unknown status \"" + status + "\" (expected open, supported, refuted or inconclusive)");
        a.status = *parsedStatus;
        if (!readString(object, "colour", at, a.colour))
            return false;
        if (!isValidColour(a.colour))
            return fail(extend(at, "colour"), "\"colour\" must be #rrggbb, got \"" + a.colour + "\"");
        a.unknownFieldsJson = unknownKeys(object, kKnownAnnotationKeys);
        return true;
    }
};

// ---- writing -----------------------------------------------------------------------------------

void appendUnknown(Json& object, const std::string& unknownJson)
{
    if (unknownJson.empty())
        return;
    const Json unknown = Json::parse(unknownJson, nullptr, false);
    if (!unknown.is_object())
        return; // not something this code made; dropping it is better than writing a broken file
    for (const auto& [key, value] : unknown.items()) {
        if (!object.contains(key))
            object[key] = value;
    }
}

Json predictionToJson(const PredictedChange& p)
{
    Json object = Json::object();
    Json scales = Json::array();
    for (const PredictedScale& scale : p.scales)
        scales.push_back(Json { { "pattern", scale.pattern }, { "factor", scale.factor } });
    object["scale"] = std::move(scales);
    object["dropSyncs"] = p.droppedSyncs;
    if (p.launchDelayCapNs)
        object["launchDelayMaxNs"] = *p.launchDelayCapNs;
    object["window"] = Json { { "kind", p.steps ? "steps" : "explicit" }, { "warmup", p.warmupSteps },
        { "count", p.windowCount }, { "start", p.windowStartNs }, { "end", p.windowEndNs } };
    object["measuredP50Ns"] = p.measuredP50Ns;
    object["predictedP50Ns"] = p.predictedP50Ns;
    // Derived, for a person reading the file; recomputed from the two p50s on reading.
    object["changeNs"] = p.changeNs();
    object["made"] = p.made;
    return object;
}

Json annotationToJson(const Annotation& a)
{
    Json object = Json::object();
    object["id"] = a.id;
    object["start"] = a.start;
    object["end"] = a.end;
    object["title"] = a.title;
    object["status"] = annotationStatusName(a.status);
    object["colour"] = a.colour;
    if (!a.lanes.empty()) {
        Json lanes = Json::array();
        for (const LaneIdentity& lane : a.lanes) {
            if (lane.kind == LaneIdentity::Kind::Thread)
                lanes.push_back(Json { { "pid", lane.pid }, { "tid", lane.tid } });
            else
                lanes.push_back(Json { { "pid", lane.pid }, { "device", lane.deviceId }, { "stream", lane.stream } });
        }
        object["lanes"] = std::move(lanes);
    }
    if (a.gap) {
        Json gap { { "pid", a.gap->pid }, { "device", a.gap->deviceId } };
        if (a.gap->stream)
            gap["stream"] = *a.gap->stream;
        gap["start"] = a.gap->start;
        gap["end"] = a.gap->end;
        gap["cause"] = a.gap->cause;
        object["gap"] = std::move(gap);
    }
    object["problem"] = a.record.problem;
    object["baseline"] = a.record.baseline;
    object["hypothesis"] = a.record.hypothesis;
    object["change"] = a.record.change;
    object["correctnessCheck"] = a.record.correctnessCheck;
    object["performanceChange"] = a.record.performanceChange;
    object["sideEffects"] = a.record.sideEffects;
    if (!a.afterTrace.empty())
        object["afterTrace"] = a.afterTrace;
    if (a.prediction)
        object["prediction"] = predictionToJson(*a.prediction);
    object["created"] = a.created;
    object["modified"] = a.modified;
    appendUnknown(object, a.unknownFieldsJson);
    return object;
}

} // namespace

IoResult<AnnotationDocument> parseAnnotationDocument(std::string_view text, const std::string& file)
{
    Json root;
    try {
        root = Json::parse(text);
    } catch (const Json::parse_error& error) {
        // nlohmann counts the byte it stopped at from 1.
        const std::uint64_t offset = error.byte > 0 ? error.byte - 1 : 0;
        std::string message = error.what();
        // Drop nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 5: " prefix:
        // IoError already says where.
        if (const auto colon = message.find(": "); colon != std::string::npos)
            message = message.substr(colon + 2);
        return IoError { file, offset, "not valid JSON: " + message };
    } catch (const Json::exception& error) {
        return IoError { file, std::nullopt, std::string("not valid JSON: ") + error.what() };
    }
    AnnotationDocument document;
    DocumentReader reader;
    if (!reader.readDocument(root, document))
        return IoError { file, locate(text, reader.problem->path).value_or(0), reader.problem->message };
    return document;
}

std::string serializeAnnotationDocument(const AnnotationDocument& document)
{
    Json root = Json::object();
    root["format"] = kAnnotationFormatName;
    root["version"] = kAnnotationFormatVersion;
    if (!document.traceName.empty())
        root["trace"] = document.traceName;
    Json list = Json::array();
    for (const Annotation& a : document.annotations)
        list.push_back(annotationToJson(a));
    root["annotations"] = std::move(list);
    appendUnknown(root, document.unknownFieldsJson);
    // Replacing bad UTF-8 (say, from a kernel name) rather than throwing: a note must always save.
    return root.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace gapscope
