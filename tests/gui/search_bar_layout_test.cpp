// SPDX-License-Identifier: MIT
// The find bar on the toolbar of a window of the size the viewer used to open at (1140x680): the field shows its
// whole placeholder, and the previous/next buttons sit beside it, not over it.
#include "app/mainwindow/main_window.h"
#include "app/mainwindow/search_bar.h"

#include <QLineEdit>
#include <QTest>
#include <QToolButton>

#include <gtest/gtest.h>

using namespace gapscope;

TEST(SearchBarLayout, PlaceholderWholeAndButtonsBesideTheField)
{
    app::MainWindow window;
    window.resize(1140, 680);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QLineEdit* field = window.searchBar()->field();
    ASSERT_TRUE(field->isVisible());
    // The text area: the field less its frame and the clear button's room.
    const int needed = field->fontMetrics().horizontalAdvance(field->placeholderText());
    EXPECT_GE(field->width() - 2 * field->fontMetrics().height() - 8, needed)
        << "field " << field->width() << " px for a placeholder of " << needed << " px";
    const QRect fieldRect = field->geometry();
    const auto buttons = window.searchBar()->findChildren<QToolButton*>(QString(), Qt::FindDirectChildrenOnly);
    ASSERT_EQ(buttons.size(), 2);
    for (const QToolButton* button : buttons) {
        EXPECT_TRUE(button->isVisible());
        EXPECT_GT(button->geometry().left(), fieldRect.right()) << button->text().toStdString();
    }
}
