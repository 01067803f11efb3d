// SPDX-License-Identifier: MIT
#pragma once

// The banner above the lanes when a file of the trace on screen was cut short: where the eye goes first after
// opening it, so that a trace that ends early is never taken for a complete one (its figures cover only what
// was read). Hidden otherwise.

#include "core/model/trace.h"

#include <QLabel>

namespace gapscope::app {

class CutShortBanner : public QLabel {
    Q_OBJECT
public:
    explicit CutShortBanner(QWidget* parent = nullptr);

    /// Shows the cut-short line of each cut file of `trace` (cutShortLine()), or hides the banner; null hides it.
    void setTrace(const Trace* trace);
    /// A widget holding the banner above `content` (the lanes), for a window's central widget.
    QWidget* placeAbove(QWidget* content);
};

} // namespace gapscope::app
