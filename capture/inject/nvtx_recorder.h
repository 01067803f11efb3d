// SPDX-License-Identifier: MIT
#pragma once

// What the collector does with NVTX calls: ranges (push/pop per thread and domain, start/end across
// threads), marks, thread and category names, domains and registered strings, all timestamped on
// the collector's clock and written as native events. nvtx_injection.cpp maps NVTX's function table
// onto these; they may throw std::bad_alloc, which the handlers there catch.

#ifndef NVTX_NO_IMPL
#define NVTX_NO_IMPL // the collector implements NVTX; it does not call it
#endif
#include <nvtx3/nvToolsExt.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

namespace gapscope::capture::nvtx {

struct Domain {
    std::string name; // empty for the default domain
    std::mutex mutex;
    std::unordered_map<std::uint32_t, std::string> categories;
};

struct RegisteredString {
    std::string text;
};

/// A range begun by push or start and not ended yet.
struct OpenRange {
    std::int64_t start = 0;
    std::string name;
    std::string args; // JSON object, or empty
    const Domain* domain = nullptr;
};

/// The default domain (a null nvtxDomainHandle_t) or the domain a handle names.
const Domain* domainOf(nvtxDomainHandle_t handle);
/// UTF-32 (wchar_t on Linux) to UTF-8.
std::string toUtf8(const wchar_t* text);
/// The message and the JSON args (domain, category, color, payload) of an event's attributes.
OpenRange describe(const Domain* domain, const nvtxEventAttributes_t* attributes);
OpenRange describe(const Domain* domain, std::string message);

/// NVTX's return values: push gives the new range's 0-based level, pop the level of the range it
/// ended (-1 when nothing was open).
int push(OpenRange range);
int pop(const Domain* domain);
nvtxRangeId_t start(OpenRange range);
void end(nvtxRangeId_t id);
void mark(const OpenRange& range);
void nameThread(std::uint32_t tid, const std::string& name);
void nameCategory(const Domain* domain, std::uint32_t category, std::string name);
nvtxDomainHandle_t createDomain(std::string name);
nvtxStringHandle_t registerString(std::string text);

/// Once, before the first handler runs: thread-exit and fork hooks, the collector's exit hook.
void installHooks();

} // namespace gapscope::capture::nvtx
