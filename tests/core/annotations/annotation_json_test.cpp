// SPDX-License-Identifier: MIT
#include "core/annotations/annotation_json.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gapscope {
namespace {

const std::string kHead = "{\"format\": \"gapscope-annotations\", \"version\": 1, \"annotations\": [";

struct BadSidecar {
    const char* name;
    std::string text;
    /// The error's offset is the position of this text in `text` (the nth occurrence, from 1)...
    std::string at;
    int occurrence = 1;
    /// ...and its message contains this.
    std::string message;
};

std::size_t nth(const std::string& text, const std::string& needle, int occurrence)
{
    std::size_t position = std::string::npos;
    for (int i = 0; i < occurrence; ++i)
        position = text.find(needle, position == std::string::npos ? 0 : position + 1);
    return position;
}

class UnreadableSidecar : public ::testing::TestWithParam<BadSidecar> { };

TEST_P(UnreadableSidecar, IsReportedWithFileAndByteOffset)
{
    const BadSidecar& c = GetParam();
    const auto parsed = parseAnnotationDocument(c.text, "/notes/t.json.gapscope.json");
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.error().file, "/notes/t.json.gapscope.json");
    const std::size_t expected = c.at.empty() ? 0 : nth(c.text, c.at, c.occurrence);
    ASSERT_NE(expected, std::string::npos) << "bad test case";
    EXPECT_EQ(parsed.error().byteOffset, std::optional<std::uint64_t>(expected)) << parsed.error().toString();
    EXPECT_NE(parsed.error().message.find(c.message), std::string::npos) << parsed.error().message;
}

INSTANTIATE_TEST_SUITE_P(Cases, UnreadableSidecar,
    ::testing::Values(BadSidecar { "BrokenJson", kHead + " }", "}", 1, "not valid JSON" },
        BadSidecar { "Empty", "", "", 1, "not valid JSON" },
        BadSidecar { "NotAnObject", "[1, 2]", "", 1, "not a GapScope annotation file" },
        BadSidecar { "SomeoneElsesJson", "{\"traceEvents\": []}", "", 1, "not a GapScope annotation file" },
        BadSidecar { "NoVersion", "{\"format\": \"gapscope-annotations\", \"annotations\": []}", "", 1,
            "no integer \"version\"" },
        BadSidecar { "NewerVersion", "{\"format\": \"gapscope-annotations\", \"version\": 7, \"annotations\": []}",
            "\"version\"", 1, "written by a newer GapScope (annotation format version 7; this build reads version 1)" },
        BadSidecar { "NoAnnotations", "{\"format\": \"gapscope-annotations\", \"version\": 1}", "", 1,
            "no \"annotations\" array" },
        BadSidecar { "AnnotationNotAnObject", kHead + "{\"id\": \"a\", \"start\": 1, \"end\": 2},\n   42]}", "42", 1,
            "an annotation must be an object" },
        BadSidecar { "StartIsAString", kHead + "{\"id\": \"a\", \"start\": \"12\", \"end\": 20}]}", "\"start\"", 1,
            "\"start\" must be an integer" },
        BadSidecar { "MissingEnd", kHead + "{\"id\": \"a\", \"start\": 12}]}", "{\"id\"", 1, "missing \"end\"" },
        BadSidecar { "EndBeforeStart", kHead + "{\"id\": \"a\", \"start\": 30, \"end\": 20}]}", "\"end\"", 1,
            "\"end\" is before \"start\"" },
        BadSidecar { "UnknownStatus",
            kHead
                + "{\"id\": \"a\", \"start\": 1, \"end\": 2, \"status\": \"open\"}, "
                  "{\"id\": \"b\", \"start\": 1, \"end\": 2, \"status\": \"done\"}]}",
            "\"status\"", 2, "unknown status \"done\"" },
        BadSidecar { "BadColour", kHead + "{\"id\": \"a\", \"start\": 1, \"end\": 2, \"colour\": \"red\"}]}",
            "\"colour\"", 1, "\"colour\" must be #rrggbb, got \"red\"" },
        BadSidecar { "DuplicateId",
            kHead + "{\"id\": \"a\", \"start\": 1, \"end\": 2}, {\"id\": \"a\", \"start\": 3, \"end\": 4}]}", "\"id\"",
            2, "duplicate annotation id \"a\"" },
        BadSidecar { "LaneWithoutPid",
            kHead + "{\"id\": \"a\", \"start\": 1, \"end\": 2, \"lanes\": [{\"pid\": 1, \"tid\": 2}, {\"tid\": 3}]}]}",
            "{\"tid\": 3}", 1, "missing \"pid\"" },
        BadSidecar { "TitleNotAString", kHead + "{\"id\": \"a\", \"start\": 1, \"end\": 2, \"title\": [\"x\"]}]}",
            "\"title\"", 1, "\"title\" must be a string" }),
    [](const ::testing::TestParamInfo<BadSidecar>& info) { return std::string(info.param.name); });

TEST(AnnotationJson, KeysOfANewerMinorVersionSurviveARewrite)
{
    const std::string text = R"({
  "format": "gapscope-annotations",
  "version": 1,
  "viewState": {"zoom": [10, 20], "lanesHidden": ["pid 1 thread 2"]},
  "annotations": [
    {"id": "a", "start": 10, "end": 20, "confidence": 0.8, "links": ["https://example.org/run/1"],
     "status": "supported", "lanes": [{"pid": 1, "device": 0, "stream": 7}]}
  ]
})";
    auto parsed = parseAnnotationDocument(text, "t.gapscope.json");
    ASSERT_TRUE(parsed.ok()) << parsed.error().toString();
    AnnotationDocument& document = parsed.value();
    ASSERT_EQ(document.annotations.size(), 1u);
    Annotation& a = document.annotations[0];
    EXPECT_EQ(a.status, AnnotationStatus::Supported);
    ASSERT_EQ(a.lanes.size(), 1u);
    EXPECT_EQ(a.lanes[0], LaneIdentity::gpuStream(1, 0, 7));
    a.title = "edited here";

    const nlohmann::json written = nlohmann::json::parse(serializeAnnotationDocument(document));
    EXPECT_EQ(written["viewState"], nlohmann::json::parse(R"({"zoom": [10, 20], "lanesHidden": ["pid 1 thread 2"]})"));
    EXPECT_EQ(written["annotations"][0]["confidence"], 0.8);
    EXPECT_EQ(written["annotations"][0]["links"][0], "https://example.org/run/1");
    EXPECT_EQ(written["annotations"][0]["title"], "edited here");
    EXPECT_EQ(written["version"], 1);
}

TEST(AnnotationJson, MissingOptionalFieldsTakeTheirDefaults)
{
    const auto parsed = parseAnnotationDocument(kHead + "{\"id\": \"a\", \"start\": 5, \"end\": 5}]}", "f");
    ASSERT_TRUE(parsed.ok()) << parsed.error().toString();
    const Annotation& a = parsed.value().annotations.at(0);
    EXPECT_EQ(a.status, AnnotationStatus::Open);
    EXPECT_EQ(a.colour, "#e69f00");
    EXPECT_EQ(a.title, "");
    EXPECT_FALSE(a.gap.has_value());
    EXPECT_EQ(a.unknownFieldsJson, "");
    EXPECT_EQ(parsed.value().unknownFieldsJson, "");
}

TEST(AnnotationJson, WritesTheRecordInReadingOrder)
{
    AnnotationDocument document;
    Annotation a;
    a.id = "a";
    a.gap = GapOrigin { 1, 0, std::nullopt, 100, 200, "sync" };
    document.annotations.push_back(a);
    const std::string text = serializeAnnotationDocument(document);
    // A person opening the sidecar reads the record in the order of an experiment.
    const char* order[]
        = { "\"format\"", "\"version\"", "\"annotations\"", "\"id\"", "\"start\"", "\"end\"", "\"title\"", "\"status\"",
              "\"colour\"", "\"gap\"", "\"problem\"", "\"baseline\"", "\"hypothesis\"", "\"change\"",
              "\"correctnessCheck\"", "\"performanceChange\"", "\"sideEffects\"", "\"created\"", "\"modified\"" };
    std::size_t previous = 0;
    for (const char* key : order) {
        const std::size_t at = text.find(key);
        ASSERT_NE(at, std::string::npos) << key;
        EXPECT_GT(at, previous) << key;
        previous = at;
    }
    EXPECT_EQ(text.find("\"stream\""), std::string::npos); // a device gap has no stream
    EXPECT_EQ(text.back(), '\n');
}

} // namespace
} // namespace gapscope
