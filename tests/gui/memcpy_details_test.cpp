// SPDX-License-Identifier: MIT
// Details of a Kineto memcpy: its bytes, bandwidth and correlation id once each (the rows GapScope computes), not
// again from the args that carry the same figures.
#include "app/models/event_details.h"
#include "core/io/trace_file.h"
#include "tests/test_paths.h"

#include <QRegularExpression>

#include <gtest/gtest.h>

using namespace gapscope;

TEST(MemcpyDetails, BytesBandwidthAndCorrelationOnceEach)
{
    auto loaded = loadTraceFile(
        test::dataPath("kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz"));
    ASSERT_TRUE(loaded.ok());
    const Trace& trace = loaded.value();
    std::optional<EventRef> copy;
    for (std::uint32_t l = 0; l < trace.lanes().size() && !copy; ++l) {
        const Lane& lane = trace.lanes()[l];
        for (std::uint32_t i = 0; i < lane.events.size(); ++i) {
            const Event& e = lane.events[i];
            if (e.kind == EventKind::Memcpy && e.bytes > 0 && e.duration() > 0 && e.correlation
                && trace.argsJson(e).find("\"bytes\"") != std::string_view::npos) {
                copy = EventRef { LaneIndex { l }, i };
                break;
            }
        }
    }
    ASSERT_TRUE(copy) << "a memcpy with bytes in its args";
    const QString html = models::eventDetailsHtml(trace, *copy, trace.timeSpan()->first);
    const auto rows = [&](const QString& label) {
        return html.count(
            QRegularExpression(QStringLiteral("<td[^>]*>%1</td>").arg(QRegularExpression::escape(label))));
    };
    EXPECT_EQ(rows(QStringLiteral("bytes")), 1) << html.toStdString();
    EXPECT_EQ(rows(QStringLiteral("bandwidth")), 1) << html.toStdString();
    EXPECT_EQ(rows(QStringLiteral("correlation id")), 1) << html.toStdString();
    EXPECT_EQ(rows(QStringLiteral("memory bandwidth (GB/s)")), 0) << html.toStdString();
    EXPECT_EQ(rows(QStringLiteral("correlation")), 0) << html.toStdString();
}
