// SPDX-License-Identifier: MIT
#include "app/timeline/timeline_palette.h"

#include <array>

namespace gapscope::timeline {

namespace {

// Kernel colours: mid-saturation greens and blues, none of them a gap-cause colour.
constexpr std::array<QRgb, 12> kKernelColors { 0x4e9a62, 0x3f8f9a, 0x5b7fc7, 0x6aa84f, 0x2e86ab, 0x4f9d8d, 0x7b8fd1,
    0x58a05a, 0x3b7ea1, 0x66a3a3, 0x5d6fb3, 0x8cb369 };
// Host ranges (CPU ops, Python, NVTX): muted warm and neutral tones.
constexpr std::array<QRgb, 8> kHostColors { 0xc9b79c, 0xb5a7c9, 0xa9c4b5, 0xd1b3a1, 0xb9c29a, 0xa7b8cc, 0xcbb0bf,
    0xbfbf9f };

std::uint32_t hashName(StringId name)
{
    // Knuth's multiplicative hash spreads consecutive string ids over the palette.
    return (name.value * 2654435761u) >> 16;
}

} // namespace

QColor eventColor(const Event& event)
{
    switch (event.kind) {
    case EventKind::Kernel:
        return QColor::fromRgb(kKernelColors[hashName(event.name) % kKernelColors.size()]);
    case EventKind::Memcpy:
        switch (event.copyKind) {
        case CopyKind::HtoD:
        case CopyKind::HtoA:
            return QColor(0x9c, 0x27, 0xb0); // host to device: purple
        case CopyKind::DtoH:
        case CopyKind::AtoH:
            return QColor(0xc2, 0x18, 0x5b); // device to host: magenta
        case CopyKind::DtoD:
        case CopyKind::AtoA:
        case CopyKind::AtoD:
        case CopyKind::DtoA:
            return QColor(0x79, 0x55, 0x48); // on device: brown
        case CopyKind::PtoP:
            return QColor(0x00, 0x83, 0x8f); // peer to peer: teal
        case CopyKind::HtoH:
        case CopyKind::Unknown:
            return QColor(0x8d, 0x6e, 0x63);
        }
        return QColor(0x8d, 0x6e, 0x63);
    case EventKind::Memset:
        return QColor(0x00, 0x97, 0xa7);
    case EventKind::Sync:
        return QColor(0xb0, 0xb0, 0xb0);
    case EventKind::GpuUserAnnotation:
        return QColor(0xd7, 0xcc, 0xc8);
    case EventKind::RuntimeApi:
    case EventKind::DriverApi:
        return QColor(0x7a, 0x9c, 0xc6);
    case EventKind::NvtxRange:
    case EventKind::NvtxMark:
        return QColor(0xe0, 0xc0, 0x6a);
    case EventKind::Overhead:
        return QColor(0x9e, 0x9e, 0x9e);
    case EventKind::CpuOp:
    case EventKind::PythonFunction:
    case EventKind::UserAnnotation:
    case EventKind::Other:
        return QColor::fromRgb(kHostColors[hashName(event.name) % kHostColors.size()]);
    }
    return QColor(0x9e, 0x9e, 0x9e);
}

QColor foldedColor(const Event& longest)
{
    // Folds of GPU work get one slate colour: the longest op of a fold (often a large copy) is not what
    // most of it is, and the utilization lane above tells how busy it is.
    if (isGpuLaneKind(longest.kind))
        return QColor(0x52, 0x73, 0x85);
    // Host folds: darker(125) of the longest, without the HSV round trip (scaling the value by 100/125
    // scales R, G and B alike).
    const QColor c = eventColor(longest);
    return QColor(c.red() * 4 / 5, c.green() * 4 / 5, c.blue() * 4 / 5);
}

QColor gapCauseColor(GapCause cause)
{
    switch (cause) {
    case GapCause::Sync:
        return QColor(0xd6, 0x27, 0x28); // red: the host drained the GPU
    case GapCause::Host:
        return QColor(0xff, 0x8c, 0x00); // orange: the GPU waited for the CPU
    case GapCause::Launch:
        return QColor(0xe6, 0xc2, 0x00); // yellow: launch latency, fragmentation
    case GapCause::Dependency:
        return QColor(0x1f, 0x5f, 0xd4); // blue: waited on another stream/event/device
    case GapCause::Unknown:
        return QColor(0x80, 0x80, 0x80);
    }
    return QColor(0x80, 0x80, 0x80);
}

QColor gapBandColor(GapCause cause, bool selected)
{
    QColor color = gapCauseColor(cause);
    color.setAlpha(selected ? 150 : 70);
    return color;
}

QColor laneBackground(bool alternate)
{
    return alternate ? QColor(0xf4, 0xf5, 0xf7) : QColor(0xff, 0xff, 0xff);
}

QColor headerBackground()
{
    return QColor(0xe3, 0xe6, 0xea);
}

QColor labelBackground()
{
    return QColor(0xee, 0xf0, 0xf3);
}

QColor rulerBackground()
{
    return QColor(0xe8, 0xeb, 0xef);
}

QColor utilizationColor()
{
    return QColor(0x2e, 0x7d, 0x32);
}

QColor selectionColor()
{
    return QColor(0x10, 0x10, 0x10);
}

QColor rangeSelectionEdgeColor()
{
    return QColor(0x42, 0x85, 0xf4);
}

QColor rangeOutsideColor()
{
    return QColor(0x20, 0x20, 0x20, 40);
}

QColor flowColor()
{
    return QColor(0xd0, 0x00, 0x6f);
}

QColor stepMarkerColor()
{
    return QColor(0x37, 0x47, 0x4f);
}

QColor textColor()
{
    return QColor(0x21, 0x21, 0x21);
}

QColor blendOver(const QColor& under, const QColor& over)
{
    const double a = over.alphaF();
    const auto mix = [a](int u, int o) { return static_cast<int>(o * a + u * (1.0 - a) + 0.5); };
    return QColor(mix(under.red(), over.red()), mix(under.green(), over.green()), mix(under.blue(), over.blue()));
}

QColor searchMatchColor()
{
    return QColor(0xff, 0x6d, 0x00);
}

QColor focusFrameColor()
{
    return QColor(0x1e, 0x88, 0xe5);
}

} // namespace gapscope::timeline
