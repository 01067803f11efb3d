// SPDX-License-Identifier: MIT
// View › Critical Path on the ResNet-50 run with the data loader on the main thread: the dock's breakdown, the
// outline on the lanes (pixels), the what-if of an op and the prediction written into a note, then checked by
// Measure against… with the run with four loader workers.
#include "app/annotations/annotation_controller.h"
#include "app/annotations/annotation_editor.h"
#include "app/annotations/annotation_session.h"
#include "app/annotations/note_measure_panel.h"
#include "app/critical_path/critical_path_overlay.h"
#include "app/critical_path/critical_path_session.h"
#include "app/export/annotated_picture.h"
#include "app/export/picture_header.h"
#include "app/timeline/timeline_painter.h"
#include "app/timeline/timeline_view.h"
#include "cli/commands.h"
#include "core/analysis/compare_text.h"
#include "core/model/time_format.h"
#include "gui/annotations_test_support.h"
#include "tests/test_paths.h"

#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTextBrowser>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

using namespace gapscope;

namespace {

constexpr std::string_view kNext = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";

bool isPathColour(QColor c)
{
    return c.red() > 170 && c.green() < 90 && c.blue() < 90;
}

TEST(CriticalPathDock, ShowsTheMedianStepsPathOutlinedAndItsWhatIfGoesIntoTheNote)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString trace = dir.filePath(QStringLiteral("before.json.gz"));
    ASSERT_TRUE(QFile::copy(QString::fromStdString(test::dataPath(test::kResnet50Trace)), trace));
    app::MainWindow window;
    ASSERT_TRUE(test::showAndOpen(window, trace, QSize(1500, 900)));
    auto* session = window.findChild<app::CriticalPathSession*>();
    ASSERT_NE(session, nullptr);
    // Not computed at load: only when the user asks for it.
    EXPECT_TRUE(session->dockWidget()->isHidden());
    EXPECT_EQ(session->summary()->toPlainText(), QStringLiteral("Not computed yet."));
    EXPECT_EQ(session->overlay()->outline(), nullptr);

    QSignalSpy shown(session, &app::CriticalPathSession::pathShown);
    session->dockWidget()->toggleViewAction()->trigger(); // View › Critical Path
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_TRUE(session->dockWidget()->isVisible()); // shown, and raised over the tabs beside it
    // What the user reads in the dock (the rendered text: tables become tab-separated cells).
    const QString text = session->summary()->toPlainText();
    // The median step, as `gapscope critical-path` takes it: ProfilerStep#6, 175.2 ms, cpu 106.2 ms of it.
    EXPECT_TRUE(text.contains(QStringLiteral("Critical path of ProfilerStep#6"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("(175.2 ms, window steps)"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QRegularExpression(QStringLiteral("cpu\\s+106.2 ms\\s+60.6 %")))) << text.toStdString();
    EXPECT_TRUE(text.contains(QRegularExpression(QStringLiteral("unexplained\\s+0 ns\\s+0.0 %"))))
        << text.toStdString();
    // The longest name on the path: the data loader's __next__, 37.95 ms by innermost range (docs/critical-path.md).
    EXPECT_TRUE(text.contains(QRegularExpression(QStringLiteral("__next__\\s+cpu\\s+37.95 ms")))) << text.toStdString();
    EXPECT_TRUE(text.contains(QString::fromUtf8(kNext.data(), kNext.size()))) << text.toStdString();

    // The outline: zoomed to the step, the longest kernel stretch on its stream lane is drawn in the path's colour.
    const app::CriticalPathOverlay* overlay = session->overlay();
    ASSERT_NE(overlay->outline(), nullptr);
    const PathOutline& outline = *overlay->outline();
    EXPECT_EQ(outline.path.lengthNs, 175'153'000);
    // One hand-over where the path changes lanes, no other edge: the step goes host -> GPU and back at least once.
    std::size_t laneChanges = 0;
    for (std::size_t i = 1; i < outline.segments.size(); ++i)
        laneChanges += outline.segments[i].event.lane != outline.segments[i - 1].event.lane ? 1 : 0;
    EXPECT_EQ(outline.handOvers.size(), laneChanges);
    EXPECT_GE(outline.handOvers.size(), 2u);
    timeline::TimelineView* view = window.timelineView();
    view->zoomToRange(outline.path.window.start, outline.path.window.end, 0.02);
    const PathOutlineSegment* longest = nullptr;
    for (const PathOutlineSegment& s : outline.segments) {
        if (s.category == PathCategory::Compute && (!longest || s.end - s.start > longest->end - longest->start))
            longest = &s;
    }
    ASSERT_NE(longest, nullptr);
    view->revealLane(longest->event.lane);
    QCoreApplication::processEvents();
    const auto rect = app::CriticalPathOverlay::stretchRect(view->scene(), *longest);
    ASSERT_TRUE(rect);
    const QImage withPath = view->canvas()->grab().toImage();
    const QPoint top(static_cast<int>(rect->center().x()), static_cast<int>(rect->top()));
    EXPECT_TRUE(isPathColour(withPath.pixelColor(top))) << withPath.pixelColor(top).name().toStdString();
    if (const QByteArray shot = qgetenv("GAPSCOPE_CRITICAL_PATH_SHOT"); !shot.isEmpty())
        window.grab().save(QString::fromLocal8Bit(shot));
    // View › Critical Path off: the outline goes.
    session->dockWidget()->toggleViewAction()->trigger();
    QCoreApplication::processEvents();
    EXPECT_FALSE(isPathColour(view->canvas()->grab().toImage().pixelColor(top)));
    session->dockWidget()->toggleViewAction()->trigger();

    // What if the data loader's __next__ took 50 % less? The same prediction as `gapscope whatif`.
    // Its longest stretch on the path: the widest to right-click at the step's zoom.
    const PathOutlineSegment* next = nullptr;
    const Trace& t = *window.trace();
    for (const PathOutlineSegment& s : outline.segments) {
        if (t.strings().view(t.event(s.event).name) == kNext && (!next || s.end - s.start > next->end - next->start))
            next = &s;
    }
    ASSERT_NE(next, nullptr);
    QSignalSpy predicted(session, &app::CriticalPathSession::whatIfShown);
    EXPECT_FALSE(session->recordButton()->isEnabled());
    EXPECT_FALSE(session->percentBox()->isEnabled()); // nothing asked about yet
    const std::string pattern = "^enumerate\\(DataLoader\\)#_SingleProcessDataLoaderIter\\.__next__$";
    // `gapscope whatif --json --scale PATTERN=F` of the same trace: the figures the dock must show.
    const auto cliPredicted = [&](const std::string& factor) {
        std::ostringstream out;
        std::ostringstream err;
        EXPECT_EQ(cli::runWhatIf({ "--json", "--scale", pattern + "=" + factor, trace.toStdString() }, out, err), 0)
            << err.str();
        return nlohmann::json::parse(out.str())["predicted_p50_ns"].get<TimeNs>();
    };
    // What the dock shows at once: the prediction and its sentence with the predicted p50.
    const auto expectShown = [&](TimeNs expected, const QString& factor) {
        ASSERT_TRUE(session->prediction());
        EXPECT_EQ(session->prediction()->predictedP50Ns, expected);
        EXPECT_EQ(session->prediction()->measuredP50Ns, 175'153'000);
        const QString shown = session->whatIfLabel()->text();
        EXPECT_TRUE(shown.contains(QStringLiteral("took %1x) over 5 steps (warm-up 1 excluded): step p50 175.2 ms "
                                                  "-&gt; %2 (")
                                       .arg(factor, QString::fromStdString(formatDuration(expected)))))
            << shown.toStdString();
    };

    // Right-click on the __next__ range on its lane: What if this took less? 25 / 50 / 75 % less, or removed.
    view->revealLane(next->event.lane);
    QCoreApplication::processEvents();
    const auto nextRect = app::CriticalPathOverlay::stretchRect(view->scene(), *next);
    ASSERT_TRUE(nextRect);
    QMenu menu;
    emit window.annotations()->timelineMenuAboutToShow(&menu, nextRect->center().toPoint());
    QMenu* shares = nullptr;
    for (QAction* action : menu.actions()) {
        if (action->menu() && action->text() == QStringLiteral("What if this took less?"))
            shares = action->menu();
    }
    ASSERT_NE(shares, nullptr);
    QStringList offered;
    for (const QAction* action : shares->actions())
        offered << action->text();
    EXPECT_EQ(offered,
        (QStringList { QStringLiteral("25 % less"), QStringLiteral("50 % less"), QStringLiteral("75 % less"),
            QStringLiteral("Removed (no time at all)") }));
    shares->actions()[2]->trigger(); // 75 % less
    ASSERT_TRUE(predicted.wait(60'000));
    expectShown(cliPredicted("0.25"), QStringLiteral("0.25"));
    EXPECT_TRUE(session->percentBox()->isEnabled());
    EXPECT_EQ(session->percentBox()->value(), 75);
    // The dock's box asks again for the same op at once: 100 % less is the loader gone (118.7 ms).
    session->percentBox()->setValue(100);
    ASSERT_TRUE(predicted.wait(60'000));
    const TimeNs removed = cliPredicted("0");
    EXPECT_EQ(removed / 100'000, 1187);
    expectShown(removed, QStringLiteral("0"));
    session->whatIfShorter(next->event, 50);
    ASSERT_TRUE(predicted.wait(60'000));
    const TimeNs half = cliPredicted("0.5");
    EXPECT_EQ(half / 100'000, 1466); // 175.2 -> 146.6 ms (docs/critical-path.md)
    expectShown(half, QStringLiteral("0.5"));
    EXPECT_EQ(session->percentBox()->value(), 50);

    // The longest gap waits for the host: its cause is that same __next__ range, and so is its what-if.
    const TimeNs byEvent = session->prediction()->predictedP50Ns;
    const std::size_t longestGap = window.analysis()->longestDeviceGaps.front();
    ASSERT_TRUE(session->whatIfGap(longestGap, 50));
    ASSERT_TRUE(predicted.wait(60'000));
    EXPECT_EQ(session->prediction()->predictedP50Ns, byEvent);

    // Into the selected note, and saved.
    EXPECT_FALSE(session->recordButton()->isEnabled()); // no note selected yet
    const QString id = test::explainLongestGapFromTheDock(window);
    ASSERT_FALSE(id.isEmpty());
    ASSERT_TRUE(session->recordButton()->isEnabled());
    session->recordButton()->click();
    const std::vector<Annotation> saved = test::readNotes(trace + QStringLiteral(".gapscope.json"));
    ASSERT_EQ(saved.size(), 1u);
    ASSERT_TRUE(saved[0].prediction);
    EXPECT_EQ(saved[0].prediction->predictedP50Ns, session->prediction()->predictedP50Ns);

    session->dockWidget()->raise();
    QCoreApplication::processEvents(); // the Note panel's label lays its new lines out
    if (const QByteArray shot = qgetenv("GAPSCOPE_CRITICAL_PATH_SHOT"); !shot.isEmpty())
        window.grab().save(QString::fromLocal8Bit(shot).replace(QStringLiteral(".png"), QStringLiteral("-whatif.png")));

    // Measure against… the run with four workers: the panel says predicted against measured.
    app::NoteMeasurePanel* panel = window.annotations()->editor()->measurePanel();
    EXPECT_TRUE(panel->resultLabel()->text().contains(QStringLiteral("Prediction: What-if (")))
        << panel->resultLabel()->text().toStdString();
    QSignalSpy measured(panel, &app::NoteMeasurePanel::measured);
    panel->measureAgainst(QString::fromStdString(test::dataPath(test::kResnet50Workers4Trace)));
    ASSERT_TRUE(measured.wait(60'000));
    ASSERT_TRUE(panel->measurement()->prediction);
    EXPECT_TRUE(panel->resultLabel()->text().contains(QStringLiteral("Predicted step p50 change")))
        << panel->resultLabel()->text().toStdString();
    EXPECT_EQ(panel->measurement()->prediction->measuredChangeNs, (126'183 - 175'153) * 1'000LL);

    // The exported picture's line for the note carries predicted against measured too.
    picture::PictureRequest request;
    request.annotations = { *window.annotations()->controller()->find(id) };
    request.measurements.emplace(id.toStdString(), *panel->measurement());
    const QStringList lines = picture::measuredNoteLines(request);
    ASSERT_EQ(lines.size(), 1);
    const PredictionCheck& c = *panel->measurement()->prediction;
    EXPECT_TRUE(lines[0].contains(QStringLiteral("; predicted %1, measured -48.97 ms, error %2, ")
                                      .arg(QString::fromStdString(signedDuration(c.predictedChangeNs)),
                                          QString::fromStdString(signedDuration(c.errorNs)))))
        << lines[0].toStdString();
}

} // namespace
