// SPDX-License-Identifier: MIT
// The CPU Samples dock: a selected range's samples top-down, made as they are expanded, with the counts SQL gives
// on saxpy's export (the SQL of each figure is in tests/core/model/sample_call_tree_test.cpp).
#include "app/mainwindow/main_window.h"
#include "app/mainwindow/samples_dock.h"
#include "app/timeline/timeline_state.h"
#include "gui/main_window_test_support.h"

#include <QApplication>
#include <QLabel>
#include <QTreeView>

#include <gtest/gtest.h>

using namespace gapscope;
using models::SampleTreeModel;

namespace {

QString cell(const QAbstractItemModel& model, const QModelIndex& parent, int row, int column)
{
    return model.index(row, column, parent).data().toString();
}

TEST(SamplesDock, ASelectedRangeOfSaxpyTopDownRowByRowAsItIsExpanded)
{
    app::MainWindow window;
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(test::openAndWait(window, { test::dataFile("nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite") }));
    app::SamplesDock* dock = window.samplesDock();
    SampleTreeModel* model = dock->model();
    EXPECT_EQ(model->rowCount(), 0);
    EXPECT_TRUE(dock->header()->text().startsWith(QStringLiteral("Select a range")))
        << dock->header()->text().toStdString();

    window.timelineState()->selectRange(timeline::TimeRange { 1'000'000'000, 1'100'000'000 });
    QApplication::processEvents();
    EXPECT_EQ(model->sampleCount(), 492u);
    EXPECT_TRUE(dock->header()->text().startsWith(QStringLiteral("492 CPU samples in the selected range (100.0 ms)")))
        << dock->header()->text().toStdString();
    // The one sampled thread (globalTid 302119224788637: pid and tid 1230493), expanded by the dock: its 18
    // outermost functions, and no row below them made yet.
    ASSERT_EQ(model->rowCount(), 1);
    const QModelIndex thread = model->index(0, 0);
    EXPECT_EQ(thread.data().toString(), QStringLiteral("thread 1230493 (pid 1230493)"));
    EXPECT_EQ(cell(*model, {}, 0, SampleTreeModel::TotalColumn), QStringLiteral("492"));
    EXPECT_TRUE(dock->tree()->isExpanded(thread));
    ASSERT_EQ(model->rowCount(thread), 18);
    EXPECT_EQ(model->rowsMade(), 19u);
    EXPECT_EQ(cell(*model, thread, 0, SampleTreeModel::FunctionColumn), QStringLiteral("main"));
    EXPECT_EQ(cell(*model, thread, 0, SampleTreeModel::SelfColumn), QStringLiteral("209"));
    EXPECT_EQ(cell(*model, thread, 0, SampleTreeModel::TotalColumn), QStringLiteral("209"));
    EXPECT_EQ(cell(*model, thread, 0, SampleTreeModel::ModuleColumn), QStringLiteral("saxpy-mpi-cuda"));
    EXPECT_FALSE(model->hasChildren(model->index(0, 0, thread)));
    const QModelIndex start = model->index(1, 0, thread);
    EXPECT_EQ(start.data().toString(), QStringLiteral("_start"));
    EXPECT_EQ(cell(*model, thread, 1, SampleTreeModel::SelfColumn), QStringLiteral("0"));
    EXPECT_EQ(cell(*model, thread, 1, SampleTreeModel::TotalColumn), QStringLiteral("121"));
    EXPECT_TRUE(model->hasChildren(start));
    EXPECT_EQ(model->rowCount(start), 0) << "not made before it is expanded";

    // Expanding _start, then __libc_start_main, then main makes one level each.
    dock->tree()->expand(start);
    ASSERT_EQ(model->rowCount(start), 1);
    const QModelIndex libcStart = model->index(0, 0, start);
    EXPECT_EQ(libcStart.data().toString(), QStringLiteral("__libc_start_main"));
    EXPECT_EQ(model->parent(libcStart), start);
    dock->tree()->expand(libcStart);
    ASSERT_EQ(model->rowCount(libcStart), 1);
    const QModelIndex main = model->index(0, 0, libcStart);
    EXPECT_EQ(main.data().toString(), QStringLiteral("main"));
    EXPECT_EQ(cell(*model, libcStart, 0, SampleTreeModel::SelfColumn), QStringLiteral("73"));
    EXPECT_EQ(cell(*model, libcStart, 0, SampleTreeModel::TotalColumn), QStringLiteral("121"));
    dock->tree()->expand(main);
    ASSERT_EQ(model->rowCount(main), 2);
    EXPECT_EQ(cell(*model, main, 0, SampleTreeModel::FunctionColumn), QStringLiteral("MPI_Recv"));
    EXPECT_EQ(cell(*model, main, 0, SampleTreeModel::TotalColumn), QStringLiteral("42"));
    EXPECT_EQ(cell(*model, main, 1, SampleTreeModel::FunctionColumn), QStringLiteral("std::abs(double)"));
    EXPECT_EQ(cell(*model, main, 1, SampleTreeModel::SelfColumn), QStringLiteral("6"));
    EXPECT_EQ(model->rowsMade(), 19u + 1 + 1 + 2);

    // Another selection empties the tree.
    window.timelineState()->clearSelection();
    EXPECT_EQ(model->rowCount(), 0);
}

} // namespace
