// SPDX-License-Identifier: MIT
#pragma once

// The menu bar and the Navigation toolbar of the main window, built from the actions of its parts (the notes', the
// comparison's, the partial load's) and the window's own (open, record, export, navigate).

class QAction;

namespace gapscope::app {

class MainWindow;

/// The actions of the menus that the Navigation toolbar shows too.
struct NavigationActions {
    QAction* open = nullptr;
    QAction* back = nullptr;
    QAction* forward = nullptr;
    QAction* fit = nullptr;
    QAction* fitWindow = nullptr;
};

/// File, Edit, View and Help. The View menu lists the docks the window holds when it is built.
NavigationActions buildMainMenus(MainWindow& window);
/// Open, back, forward, fit, annotate, the window selector and (while comparing) the align control.
void buildNavigationToolBar(MainWindow& window, const NavigationActions& actions);

} // namespace gapscope::app
