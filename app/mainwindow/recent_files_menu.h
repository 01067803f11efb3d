// SPDX-License-Identifier: MIT
#pragma once

// File › Open Recent: the last ten files opened (kept in QSettings, newest first), listed afresh each time the
// menu opens.

#include <QMenu>

namespace gapscope::app {

class RecentFilesMenu : public QMenu {
    Q_OBJECT
public:
    RecentFilesMenu(const QString& title, QWidget* parent);

    /// Puts a file first in the list (by its absolute path).
    static void remember(const QString& file);

signals:
    void fileChosen(const QString& file);

private:
    void rebuild();
};

} // namespace gapscope::app
