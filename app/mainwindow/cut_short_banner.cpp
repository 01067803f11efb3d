// SPDX-License-Identifier: MIT
#include "app/mainwindow/cut_short_banner.h"

#include "core/io/common/cut_short.h"

#include <QVBoxLayout>

namespace gapscope::app {

CutShortBanner::CutShortBanner(QWidget* parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("cutShortBanner"));
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The colours of a warning bar (Qt Creator's info bar, a browser's): amber, dark text, a rule below.
    setStyleSheet(QStringLiteral("QLabel#cutShortBanner { background: #fff3cd; color: #5c4400; "
                                 "border-bottom: 1px solid #e0b84c; padding: 6px 10px; font-weight: bold; }"));
    hide();
}

void CutShortBanner::setTrace(const Trace* trace)
{
    QStringList lines;
    if (trace) {
        for (const CutShortFile& cut : cutShortFiles(*trace))
            lines << QString::fromStdString(cutShortLine(cut));
    }
    setText(lines.join(QLatin1Char('\n')));
    setVisible(!lines.isEmpty());
}

QWidget* CutShortBanner::placeAbove(QWidget* content)
{
    auto* area = new QWidget(parentWidget());
    auto* layout = new QVBoxLayout(area);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(this);
    layout->addWidget(content, 1);
    return area;
}

} // namespace gapscope::app
