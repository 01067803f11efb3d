// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/event.h"

#include <string_view>

namespace gapscope {

/// The one mapping between EventKind and the `cat` of a Chrome trace-event, shared by
/// ChromeTraceReader and ChromeTraceWriter so that write → read gives back the same kind.
///
/// Written (Kineto's current names where Kineto has the kind; our own names otherwise):
///
/// | EventKind         | cat written           | also read as (legacy / other producers)          |
/// |-------------------|-----------------------|--------------------------------------------------|
/// | Kernel            | `kernel`              | `Kernel`                                         |
/// | Memcpy            | `gpu_memcpy`          | `Memcpy`                                         |
/// | Memset            | `gpu_memset`          | `Memset`                                         |
/// | Sync              | `cuda_sync`           |                                                  |
/// | RuntimeApi        | `cuda_runtime`        | `Runtime`, `privateuse1_runtime`                 |
/// | DriverApi         | `cuda_driver`         | `Driver`, `privateuse1_driver`                   |
/// | NvtxRange         | `nvtx_range` (ours)   | `nvtx`, `NVTX`                                   |
/// | NvtxMark          | `nvtx_mark` (ours)    |                                                  |
/// | CpuOp             | `cpu_op`              | `Operator`                                       |
/// | PythonFunction    | `python_function`     |                                                  |
/// | UserAnnotation    | `user_annotation`     |                                                  |
/// | GpuUserAnnotation | `gpu_user_annotation` |                                                  |
/// | Overhead          | `overhead`            | `Overhead`                                       |
/// | Other             | `other` (ours)        | anything not listed                              |
///
/// Matching is ASCII case-insensitive, so `KERNEL` or `Gpu_Memcpy` are read too.
/// NVTX marks are written as instant events (`"ph":"i"`) with cat `nvtx_mark`.
std::string_view categoryForKind(EventKind kind);
/// The kind a category names; EventKind::Other for categories not in the table (including empty).
EventKind kindFromCategory(std::string_view category);

} // namespace gapscope
