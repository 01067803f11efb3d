// SPDX-License-Identifier: MIT
#pragma once

// The note the what-if tests predict and measure: "the data loader holds the main thread" of the ResNet-50 run
// with num_workers=0, as the viewer would save it.

#include "core/annotations/annotation.h"

namespace gapscope::test {

inline Annotation loaderNote()
{
    Annotation note;
    note.id = "loader";
    note.title = "The data loader holds the main thread";
    note.start = 0;
    note.end = 1;
    return note;
}

} // namespace gapscope::test
