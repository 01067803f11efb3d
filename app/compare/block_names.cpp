// SPDX-License-Identifier: MIT
#include "app/compare/block_names.h"

#include "app/models/event_details.h"

#include <QCoreApplication>

#include <algorithm>

namespace gapscope::app {

std::vector<DeviceFigures> devicesInBlockOrder(const AnalysisResult* result, const ComparedTraces* compared)
{
    std::vector<DeviceFigures> devices = result ? result->devices : std::vector<DeviceFigures> {};
    // A comparison lists BASE's devices first (rank order would sort the two runs' processes by pid).
    if (compared)
        std::stable_sort(devices.begin(), devices.end(), [&](const DeviceFigures& a, const DeviceFigures& b) {
            return (a.process.value < compared->newFirstProcess) > (b.process.value < compared->newFirstProcess);
        });
    return devices;
}

QString blockDeviceName(const Trace& trace, const ComparedTraces* compared, const DeviceFigures& device)
{
    QString name = models::deviceName(trace, device.device);
    if (!compared)
        return name;
    return (device.process.value < compared->newFirstProcess
            ? QCoreApplication::translate("gapscope::app::MainWindow", "Base %1")
            : QCoreApplication::translate("gapscope::app::MainWindow", "New %1"))
        .arg(name);
}

} // namespace gapscope::app
