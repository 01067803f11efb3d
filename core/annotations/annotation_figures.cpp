// SPDX-License-Identifier: MIT
#include "core/annotations/annotation_figures.h"

#include <algorithm>

namespace gapscope {

bool annotationConcernsDevice(const Trace& trace, const Annotation& annotation, DeviceIndex deviceIndex)
{
    const Device& device = trace.devices()[deviceIndex.value];
    const std::int64_t pid = trace.processes()[device.process.value].pid;
    bool namesDevices = false;
    bool namesThreads = false;
    bool concerned = false;
    for (const LaneIdentity& lane : annotation.lanes) {
        if (lane.kind == LaneIdentity::Kind::Stream) {
            namesDevices = true;
            concerned = concerned || (lane.pid == pid && lane.deviceId == device.id);
        } else {
            namesThreads = true;
        }
    }
    if (annotation.gap) {
        namesDevices = true;
        concerned = concerned || (annotation.gap->pid == pid && annotation.gap->deviceId == device.id);
    }
    if (namesDevices)
        return concerned;
    if (namesThreads) {
        return std::any_of(annotation.lanes.begin(), annotation.lanes.end(),
            [&](const LaneIdentity& lane) { return lane.pid == pid; });
    }
    return true;
}

AnnotationFigures measureAnnotation(const Trace& trace, const Annotation& annotation, const AnalysisOptions& base)
{
    AnnotationFigures figures;
    figures.start = annotation.start;
    figures.end = annotation.end;
    if (annotation.end <= annotation.start)
        return figures;
    AnalysisOptions options = base;
    options.window.kind = WindowKind::Explicit;
    options.window.explicitStart = annotation.start;
    options.window.explicitEnd = annotation.end;
    // The figures need the device gaps only; stream gaps and kernel tables would cost more than the rest.
    options.streamGaps = false;
    options.kernelStatistics = false;
    AnalysisResult result = analyze(trace, options);
    for (DeviceFigures& device : result.devices) {
        if (annotationConcernsDevice(trace, annotation, device.device))
            figures.devices.push_back(std::move(device));
    }
    return figures;
}

} // namespace gapscope
