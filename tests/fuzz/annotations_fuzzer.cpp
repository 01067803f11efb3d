// SPDX-License-Identifier: MIT
// Fuzz target: the annotations sidecar reader (parseAnnotationDocument). A document it reads must write
// back to text that reads again into the same annotations, and writing that gives the same text.

#include "core/annotations/annotation_json.h"
#include "tests/fuzz/fuzz_analysis.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace gapscope;
    auto document = parseAnnotationDocument(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
    if (!document.ok())
        return 0;
    const std::string text = serializeAnnotationDocument(document.value());
    auto again = parseAnnotationDocument(text, "again.json");
    fuzz::require(again.ok());
    fuzz::require(again.value().annotations == document.value().annotations);
    fuzz::require(again.value().traceName == document.value().traceName);
    fuzz::require(serializeAnnotationDocument(again.value()) == text);
    return 0;
}
