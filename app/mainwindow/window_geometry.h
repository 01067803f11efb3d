// SPDX-License-Identifier: MIT
#pragma once

// The main window's size and place across sessions: maximized the first time (a timeline wants the whole
// screen, as Nsight Systems opens), then where the user left it.

class QMainWindow;
class QSettings;

namespace gapscope::app {

/// Shows `window` at the geometry saveWindowGeometry() stored in `settings`, or maximized when none is stored.
void showWithRememberedGeometry(QMainWindow& window, QSettings& settings);

/// Stores the window's geometry (size, place, maximized) in `settings` for the next showWithRememberedGeometry().
void saveWindowGeometry(const QMainWindow& window, QSettings& settings);

} // namespace gapscope::app
