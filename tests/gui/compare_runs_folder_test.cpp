// SPDX-License-Identifier: MIT
// A folder of repeated runs on each side of a comparison (`gapscope RUNS_A --compare RUNS_B`, File › Open Runs
// Folder… then Compare With Runs Folder…): the median run of each is shown, its block says which run it is, and the
// Diff dock's verdict pools every good run's steps, as `gapscope diff --window steps --warmup 1 RUNS_A RUNS_B` does.
#include "app/compare/comparison_controller.h"
#include "app/compare/diff_dock.h"
#include "app/mainwindow/main_window.h"
#include "app/timeline/timeline_view.h"
#include "cli/commands.h"
#include "core/experiment/runs_manifest.h"
#include "gui/main_window_test_support.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

/// A folder of repeated runs as `gapscope record --runs` writes it: run K is a copy of traces[K - 1], "" a run
/// that failed (no trace).
std::string runsFolder(const test::TempDir& dir, const std::string& name, const std::vector<std::string>& traces)
{
    const std::filesystem::path folder = dir.path() / name;
    std::filesystem::create_directories(folder);
    RunsManifest manifest;
    manifest.program = "train.py";
    manifest.kinds = "all";
    for (std::size_t r = 0; r < traces.size(); ++r) {
        ManifestRun run;
        if (traces[r].empty()) {
            run.exitCode = 1;
            run.failed = true;
            run.failure = "exit code 1";
        } else {
            run.exitCode = 0;
            run.file = "run-" + std::to_string(r + 1) + ".json.gz";
            std::filesystem::copy_file(traces[r], folder / run.file);
        }
        manifest.runs.push_back(run);
    }
    EXPECT_TRUE(writeRunsManifest(folder.string(), manifest));
    return folder.string();
}

QString cell(const QTableWidget* table, const QString& first, int column)
{
    for (int r = 0; r < table->rowCount(); ++r) {
        if (table->item(r, 0) && table->item(r, 0)->text() == first)
            return table->item(r, column)->text();
    }
    return {};
}

TEST(CompareRunsFolders, TheMedianRunIsShownAndTheVerdictPoolsEveryRunAsDiffDoes)
{
    // Counted steps (steps window, warm-up 1): num_workers_0 175153, 179733, 174564, 182172, 165983 µs (the
    // TensorBoard plugin's step durations, p50 175153), num_workers_4 p50 126.2 ms (`gapscope diff`'s "175.2 ms ->
    // 126.2 ms"), each of its five under 165983 µs. BASE: run 1 failed, run 2 with four loader workers, runs 3 and 4
    // without: the runs' p50s are 126.2, 175.2, 175.2 ms, so the median run is run 3. NEW: two runs with four
    // workers, the lower middle: run 1.
    const test::TempDir dir;
    const std::string none = test::dataPath(test::kResnet50Trace);
    const std::string four = test::dataPath(test::kResnet50Workers4Trace);
    const std::string base = runsFolder(dir, "base", { "", four, none, none });
    const std::string fresh = runsFolder(dir, "new", { four, four });

    app::MainWindow window;
    window.resize(1500, 900);
    window.show();
    ASSERT_TRUE(test::openAndWait(window, { QString::fromStdString(base) }));
    EXPECT_EQ(window.loadedTrace().files, std::vector<std::string> { base + "/run-3.json.gz" });
    QSignalSpy shown(&window, &app::MainWindow::traceShown);
    QSignalSpy diffShown(window.comparison(), &app::ComparisonController::diffShown);
    window.comparison()->compareWith({ QString::fromStdString(fresh) });
    ASSERT_TRUE(shown.wait(120'000));
    ASSERT_TRUE(diffShown.count() > 0 || diffShown.wait(120'000));

    std::vector<std::string> headers;
    for (const LayoutRow& row : window.timelineView()->layout().rows()) {
        if (row.kind == RowKind::ProcessHeader)
            headers.push_back(row.label);
    }
    ASSERT_EQ(headers.size(), 2u);
    EXPECT_TRUE(headers[0].starts_with("Base (run 3 of 4, the median): run-3.json.gz \u00b7 ")) << headers[0];
    EXPECT_TRUE(headers[1].starts_with("New (run 1 of 2, the median): run-1.json.gz \u00b7 ")) << headers[1];

    // Every good run's steps: 3 x 5 against 2 x 5. BASE's pooled p50 is the 8th of its 15 values: after the five
    // of num_workers_4, 165983 twice, then 174564 µs. NEW's is the 5th of its 10: num_workers_4's own p50.
    const app::DiffDock* dock = window.comparison()->dock();
    EXPECT_EQ(cell(dock->stepsTable(), QStringLiteral("steps"), 1), QStringLiteral("15"));
    EXPECT_EQ(cell(dock->stepsTable(), QStringLiteral("steps"), 2), QStringLiteral("10"));
    EXPECT_EQ(cell(dock->stepsTable(), QStringLiteral("p50"), 1), QStringLiteral("174.6 ms"));
    EXPECT_EQ(cell(dock->stepsTable(), QStringLiteral("p50"), 2), QStringLiteral("126.2 ms"));

    std::ostringstream out;
    std::ostringstream err;
    ASSERT_EQ(cli::runDiff({ "--window", "steps", "--warmup", "1", base, fresh }, out, err), 0) << err.str();
    const std::string verdict = dock->verdictLabel()->text().toStdString();
    ASSERT_FALSE(verdict.empty());
    EXPECT_NE(out.str().find(verdict + "\n"), std::string::npos) << verdict << "\n---\n" << out.str();
    EXPECT_TRUE(dock->windowLabel()->text().contains(QStringLiteral("BASE steps (warm-up 1 excluded)")))
        << dock->windowLabel()->text().toStdString();
}

} // namespace
