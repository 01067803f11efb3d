// SPDX-License-Identifier: MIT
// The annotated picture of `gapscope export --png`, drawn headless from a real trace and a sidecar with one
// note over its longest idle gap: size, gap band colours, the note's bracket and callout, header, legend, PDF.
#include "app/export/cli_picture_exporter.h"
#include "app/export/picture_header.h"
#include "app/timeline/annotation_layer.h"
#include "app/timeline/timeline_palette.h"
#include "core/annotations/annotation_store.h"
#include "core/io/trace_file.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <QImage>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

// The host-bound ResNet-50 training trace (num_workers=0): its longest device gaps are 62.34 ms and
// 60.91 ms, both `host` (the GPU waits for the data loader), per `gapscope report` and SOURCES.md.
const char* const kTrace = test::kResnet50Trace;
const QColor kSupported(0x00, 0x9e, 0x73);

class ExportPictureTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        auto loaded = loadTraceFile(test::dataPath(kTrace));
        ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
        s_trace = std::make_unique<Trace>(std::move(loaded.value()));
        AnalysisOptions options;
        s_analysis = std::make_unique<AnalysisResult>(analyze(*s_trace, options));
    }
    static void TearDownTestSuite()
    {
        s_analysis.reset();
        s_trace.reset();
    }

    void SetUp() override
    {
        std::filesystem::copy_file(test::dataPath(kTrace), m_tracePath);
        // The two longest device gaps: one gets the note, the other stays bare.
        std::vector<Gap> gaps;
        for (const Gap& gap : s_analysis->gaps) {
            if (!gap.stream)
                gaps.push_back(gap);
        }
        std::sort(gaps.begin(), gaps.end(), [](const Gap& a, const Gap& b) { return a.duration() > b.duration(); });
        ASSERT_GE(gaps.size(), 2u);
        m_longest = gaps[0];
        m_second = gaps[1];
        ASSERT_EQ(m_longest.duration(), 62'339'000);
        ASSERT_EQ(m_longest.cause, GapCause::Host);
        ASSERT_EQ(m_second.cause, GapCause::Host);

        AnnotationStore store = AnnotationStore::openForTrace(m_tracePath);
        Annotation note;
        note.start = m_longest.start;
        note.end = m_longest.end;
        note.title = "GPU idle 62 ms: waiting for the data loader";
        note.record.hypothesis = "With num_workers=0 the main thread prepares each batch itself; more workers "
                                 "should overlap loading with compute.";
        note.status = AnnotationStatus::Supported;
        store.add(note);
        ASSERT_TRUE(store.save().ok());
        m_annotations = AnnotationStore::openForTrace(m_tracePath).annotations();
        ASSERT_EQ(m_annotations.size(), 1u);
    }

    cli::ExportOptions options(const std::string& output, int width, int height) const
    {
        cli::ExportOptions o;
        o.trace = m_tracePath;
        o.png = output;
        o.pictureIsPdf = output.ends_with(".pdf");
        o.width = width;
        o.height = height;
        return o;
    }

    /// Picture x of a time, worked out from the window and the label column alone.
    static int xOf(const picture::PicturePlan& plan, const Window& window, TimeNs t)
    {
        const double lanesWidth = plan.timeline.width() - plan.scene.labelWidth;
        return plan.timeline.left() + plan.scene.labelWidth
            + static_cast<int>(
                static_cast<double>(t - window.start()) * lanesWidth / static_cast<double>(window.length()));
    }

    static void expectNear(const QColor& actual, const QColor& expected, int tolerance)
    {
        EXPECT_NEAR(actual.red(), expected.red(), tolerance) << actual.name().toStdString();
        EXPECT_NEAR(actual.green(), expected.green(), tolerance) << actual.name().toStdString();
        EXPECT_NEAR(actual.blue(), expected.blue(), tolerance) << actual.name().toStdString();
    }

    static int darkPixels(const QImage& image, const QRect& rect)
    {
        int count = 0;
        for (int y = rect.top(); y <= rect.bottom(); ++y)
            for (int x = rect.left(); x <= rect.right(); ++x)
                count += qGray(image.pixel(x, y)) < 110 ? 1 : 0;
        return count;
    }

    static bool contains(const QImage& image, const QRect& rect, const QColor& colour)
    {
        for (int y = rect.top(); y <= rect.bottom(); ++y)
            for (int x = rect.left(); x <= rect.right(); ++x)
                if (image.pixelColor(x, y) == colour)
                    return true;
        return false;
    }

    /// Exports at a size and checks what a reader relies on; returns the picture.
    QImage exportAndCheck(int width, int height)
    {
        const std::string output = m_dir.file("picture-" + std::to_string(width) + ".png");
        const auto written = picture::exportPictureForCli(*s_trace, m_annotations, options(output, width, height));
        EXPECT_TRUE(written.ok()) << (written.ok() ? "" : written.error().toString());
        QImage image(QString::fromStdString(output));
        EXPECT_EQ(image.size(), QSize(width, height));
        if (image.size() != QSize(width, height))
            return image;
        image = image.convertToFormat(QImage::Format_RGB32);

        // The same geometry the exporter drew with; the default window is the gpu window.
        auto prepared = picture::prepareCliPicture(*s_trace, m_annotations, options(output, width, height));
        EXPECT_TRUE(prepared.ok());
        const picture::PicturePlan plan = picture::planPicture(prepared.value()->request);
        const Window& window = s_analysis->windows[0];
        EXPECT_EQ(plan.scene.axis.start, window.start());
        EXPECT_EQ(plan.scene.axis.end, window.end());
        EXPECT_DOUBLE_EQ(plan.scene.axis.width, width - plan.scene.labelWidth);

        // The utilization lane of GPU 0: no bars inside a gap, so the band shows over the white lane.
        const auto& rows = plan.layout->rows();
        const auto utilization = std::find_if(
            rows.begin(), rows.end(), [](const LayoutRow& row) { return row.kind == RowKind::UtilizationLane; });
        EXPECT_NE(utilization, rows.end());
        const int y = plan.timeline.top() + TimelinePainter::contentYToScreen(plan.scene, utilization->y)
            + utilization->height / 2;
        EXPECT_GT(y, plan.timeline.top() + TimelinePainter::lanesTop(plan.scene));
        EXPECT_LT(y, plan.legend.top());
        const int bareX = xOf(plan, window, (m_second.start + m_second.end) / 2);
        expectNear(image.pixelColor(bareX, y), picture::bandOnWhite(GapCause::Host), 2);
        // The annotated gap: the same band, the colour of its cause in the legend (a note no longer tints it).
        const int noteX = xOf(plan, window, (m_longest.start + m_longest.end) / 2);
        expectNear(image.pixelColor(noteX, y), picture::bandOnWhite(GapCause::Host), 2);
        // A busy moment of the same lane is not a band: 10 ms after the annotated gap the GPU computes.
        EXPECT_NE(image.pixelColor(xOf(plan, window, m_longest.end + 10'000'000), y + utilization->height / 2 - 2),
            picture::bandOnWhite(GapCause::Host));

        // The note's bracket over the gap, in the status colour, in the strip under the ruler.
        const int bracketLine = plan.timeline.top() + plan.scene.rulerHeight + 1 + kAnnotationRowHeight - 2 - 1 - 3;
        EXPECT_EQ(image.pixelColor(noteX, bracketLine), kSupported);

        // The callout: beside the gap (within 20 px of its end or its start, not over it), with its colour
        // bar and border in the status colour and text inside.
        const auto boxes = annotationCalloutRects(plan.scene, picture::pictureFont());
        EXPECT_TRUE(boxes[0].has_value());
        if (!boxes[0])
            return image;
        const QRect box = boxes[0]->translated(plan.timeline.topLeft());
        const int gapStartX = xOf(plan, window, m_longest.start);
        const int gapEndX = xOf(plan, window, m_longest.end);
        const bool right = box.left() > gapEndX && box.left() <= gapEndX + 20;
        const bool left = box.right() < gapStartX && box.right() >= gapStartX - 20;
        EXPECT_TRUE(right || left) << "box [" << box.left() << ", " << box.right() << "], gap [" << gapStartX << ", "
                                   << gapEndX << "]";
        EXPECT_GE(box.top(), plan.timeline.top() + TimelinePainter::lanesTop(plan.scene));
        EXPECT_EQ(image.pixelColor(box.left() + 1, box.center().y()), kSupported);
        EXPECT_EQ(image.pixelColor(box.center().x(), box.top() + 1), kSupported);
        EXPECT_EQ(image.pixelColor(box.right() - 1, box.center().y()), kSupported);
        EXPECT_GT(darkPixels(image, box.adjusted(8, 4, -4, -4)), 200);
        EXPECT_FALSE(box.contains(noteX, y));

        // The header names things (text) and shows the host swatch; the legend shows every cause's swatch.
        EXPECT_GT(darkPixels(image, plan.header), 1000);
        EXPECT_TRUE(contains(image, plan.header, picture::bandOnWhite(GapCause::Host)));
        EXPECT_GT(darkPixels(image, plan.legend), 1000);
        for (int c = 0; c < kGapCauseCount; ++c)
            EXPECT_TRUE(contains(image, plan.legend, picture::bandOnWhite(static_cast<GapCause>(c)))) << c;
        return image;
    }

    static std::unique_ptr<Trace> s_trace;
    static std::unique_ptr<AnalysisResult> s_analysis;
    test::TempDir m_dir;
    std::string m_tracePath = m_dir.file("worker0.1623143089861.pt.trace.json.gz");
    Gap m_longest;
    Gap m_second;
    std::vector<Annotation> m_annotations;
};

std::unique_ptr<Trace> ExportPictureTest::s_trace;
std::unique_ptr<AnalysisResult> ExportPictureTest::s_analysis;

} // namespace

TEST_F(ExportPictureTest, FullHdPictureShowsGapsAndTheNote)
{
    exportAndCheck(1600, 900);
}

TEST_F(ExportPictureTest, SmallPictureShowsGapsAndTheNote)
{
    exportAndCheck(1000, 640);
}

TEST_F(ExportPictureTest, PdfIsOnePageOfThePicturesAspect)
{
    const std::string output = m_dir.file("picture.pdf");
    const auto written = picture::exportPictureForCli(*s_trace, m_annotations, options(output, 1600, 900));
    ASSERT_TRUE(written.ok()) << written.error().toString();
    std::ifstream in(output, std::ios::binary);
    std::stringstream content;
    content << in.rdbuf();
    const std::string pdf = content.str();
    EXPECT_EQ(pdf.substr(0, 5), "%PDF-");
    EXPECT_GT(pdf.size(), 20'000u);
    // 1600 x 900 pixels at 96 per inch are 1200 x 675 points.
    const auto box = pdf.find("/MediaBox [");
    ASSERT_NE(box, std::string::npos);
    std::istringstream numbers(pdf.substr(box + 11, 80));
    double x0 = -1, y0 = -1, x1 = 0, y1 = 0;
    numbers >> x0 >> y0 >> x1 >> y1;
    EXPECT_EQ(x0, 0.0);
    EXPECT_EQ(y0, 0.0);
    EXPECT_NEAR(x1, 1200.0, 0.5);
    EXPECT_NEAR(y1, 675.0, 0.5);
    // One page, with text drawn as text (embedded fonts), not as an image.
    EXPECT_NE(pdf.find("/Count 1"), std::string::npos);
    EXPECT_NE(pdf.find("/FontFile2"), std::string::npos);
    EXPECT_NE(pdf.find("%%EOF"), std::string::npos);
}

TEST_F(ExportPictureTest, UnwritablePathIsAnErrorNamingTheFile)
{
    for (const char* name : { "no-such-folder/picture.png", "no-such-folder/picture.pdf" }) {
        const std::string output = m_dir.file(name);
        const auto written = picture::exportPictureForCli(*s_trace, m_annotations, options(output, 800, 600));
        ASSERT_FALSE(written.ok()) << name;
        EXPECT_EQ(written.error().file, output);
        EXPECT_NE(written.error().toString().find(output), std::string::npos);
        EXPECT_FALSE(std::filesystem::exists(output));
    }
}

TEST(PictureFormat, ByExtension)
{
    EXPECT_EQ(picture::pictureFormatFor("a/b.png"), picture::PictureFormat::Png);
    EXPECT_EQ(picture::pictureFormatFor("B.PDF"), picture::PictureFormat::Pdf);
    EXPECT_EQ(picture::pictureFormatFor("b.svg"), std::nullopt);
    EXPECT_EQ(picture::pictureFormatFor("pdf"), std::nullopt);
}
