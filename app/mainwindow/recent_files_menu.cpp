// SPDX-License-Identifier: MIT
#include "app/mainwindow/recent_files_menu.h"

#include <QFileInfo>
#include <QSettings>

namespace gapscope::app {

namespace {

constexpr int kMaxRecentFiles = 10;

} // namespace

RecentFilesMenu::RecentFilesMenu(const QString& title, QWidget* parent)
    : QMenu(title, parent)
{
    connect(this, &QMenu::aboutToShow, this, &RecentFilesMenu::rebuild);
}

void RecentFilesMenu::remember(const QString& file)
{
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    const QString path = QFileInfo(file).absoluteFilePath();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecentFiles)
        recent.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), recent);
}

void RecentFilesMenu::rebuild()
{
    clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& file : recent)
        addAction(QFileInfo(file).fileName(), this, [this, file] { emit fileChosen(file); })->setToolTip(file);
    if (recent.isEmpty())
        addAction(tr("(none)"))->setEnabled(false);
}

} // namespace gapscope::app
