// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace gapscope::test {

/// Absolute path of a file under tests/data/.
std::string dataPath(const std::string& relative);

// The real traces most tests read, relative to tests/data/ (pass them to dataPath()): PyTorch profiler (Kineto)
// traces of ResNet-50 training steps on one GPU, from the TensorBoard plugin's samples (tests/data/NOTICE.md).

/// ResNet-50 with `num_workers=0`: the data loader runs in the training process, so the GPU waits on it.
inline constexpr const char* kResnet50Trace
    = "kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";
/// The same training with `num_workers=4`: the run that kResnet50Trace is compared with.
inline constexpr const char* kResnet50Workers4Trace
    = "kineto/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz";
/// kResnet50Trace's run in Kineto's older dialect (a bare JSON array of events).
inline constexpr const char* kResnet50LegacyTrace
    = "kineto/legacy_array_format/tb_plugin/samples/resnet50_num_workers_0/worker0.pt.trace.json.gz";

} // namespace gapscope::test
