// SPDX-License-Identifier: MIT
// NVTX injection (NVTX_INJECTION64_PATH): NVTX calls the exported InitializeInjectionNvtx2 on the
// program's first NVTX call, and the collector fills the CORE and CORE2 slots it handles. Every
// call is timestamped here on the collector's clock: when GapScope owns NVTX, CUPTI sees none.
//
// Handlers are called from C through function pointers: nothing may throw out of them.

#include "capture/collector_env.h"
#include "capture/inject/collector.h"
#include "capture/inject/nvtx_recorder.h"

#include <cstdio>
#include <cstdlib>

using gapscope::capture::Collector;

namespace {

using namespace gapscope::capture::nvtx;

/// Runs a handler body; an exception (only std::bad_alloc is possible) becomes `fallback`.
template <typename Result, typename Body> Result guarded(Result fallback, Body body) noexcept
{
    try {
        return body();
    } catch (...) {
        return fallback;
    }
}

template <typename Body> void guarded(Body body) noexcept
{
    try {
        body();
    } catch (...) { }
}

// ---- CORE handlers --------------------------------------------------------------------------------

void NVTX_API markEx(const nvtxEventAttributes_t* a)
{
    guarded([&] { mark(describe(domainOf(nullptr), a)); });
}
void NVTX_API markA(const char* m)
{
    guarded([&] { mark(describe(domainOf(nullptr), m ? m : "")); });
}
void NVTX_API markW(const wchar_t* m)
{
    guarded([&] { mark(describe(domainOf(nullptr), toUtf8(m))); });
}
nvtxRangeId_t NVTX_API rangeStartEx(const nvtxEventAttributes_t* a)
{
    return guarded<nvtxRangeId_t>(0, [&] { return start(describe(domainOf(nullptr), a)); });
}
nvtxRangeId_t NVTX_API rangeStartA(const char* m)
{
    return guarded<nvtxRangeId_t>(0, [&] { return start(describe(domainOf(nullptr), m ? m : "")); });
}
nvtxRangeId_t NVTX_API rangeStartW(const wchar_t* m)
{
    return guarded<nvtxRangeId_t>(0, [&] { return start(describe(domainOf(nullptr), toUtf8(m))); });
}
void NVTX_API rangeEnd(nvtxRangeId_t id)
{
    guarded([&] { end(id); });
}
int NVTX_API rangePushEx(const nvtxEventAttributes_t* a)
{
    return guarded(-1, [&] { return push(describe(domainOf(nullptr), a)); });
}
int NVTX_API rangePushA(const char* m)
{
    return guarded(-1, [&] { return push(describe(domainOf(nullptr), m ? m : "")); });
}
int NVTX_API rangePushW(const wchar_t* m)
{
    return guarded(-1, [&] { return push(describe(domainOf(nullptr), toUtf8(m))); });
}
int NVTX_API rangePop()
{
    return guarded(-1, [&] { return pop(domainOf(nullptr)); });
}
void NVTX_API nameCategoryA(std::uint32_t c, const char* n)
{
    guarded([&] { nameCategory(domainOf(nullptr), c, n ? n : ""); });
}
void NVTX_API nameCategoryW(std::uint32_t c, const wchar_t* n)
{
    guarded([&] { nameCategory(domainOf(nullptr), c, toUtf8(n)); });
}
void NVTX_API nameOsThreadA(std::uint32_t tid, const char* n)
{
    guarded([&] { nameThread(tid, n ? n : ""); });
}
void NVTX_API nameOsThreadW(std::uint32_t tid, const wchar_t* n)
{
    guarded([&] { nameThread(tid, toUtf8(n)); });
}

// ---- CORE2 handlers (domains) -------------------------------------------------------------------

void NVTX_API domainMarkEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a)
{
    guarded([&] { mark(describe(domainOf(d), a)); });
}
nvtxRangeId_t NVTX_API domainRangeStartEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a)
{
    return guarded<nvtxRangeId_t>(0, [&] { return start(describe(domainOf(d), a)); });
}
void NVTX_API domainRangeEnd(nvtxDomainHandle_t, nvtxRangeId_t id)
{
    guarded([&] { end(id); });
}
int NVTX_API domainRangePushEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a)
{
    return guarded(-1, [&] { return push(describe(domainOf(d), a)); });
}
int NVTX_API domainRangePop(nvtxDomainHandle_t d)
{
    return guarded(-1, [&] { return pop(domainOf(d)); });
}
nvtxResourceHandle_t NVTX_API domainResourceCreate(nvtxDomainHandle_t, nvtxResourceAttributes_t*)
{
    static char resource; // resources are not recorded; any non-null handle will do
    return reinterpret_cast<nvtxResourceHandle_t>(&resource);
}
void NVTX_API domainResourceDestroy(nvtxResourceHandle_t) { }
void NVTX_API domainNameCategoryA(nvtxDomainHandle_t d, std::uint32_t c, const char* n)
{
    guarded([&] { nameCategory(domainOf(d), c, n ? n : ""); });
}
void NVTX_API domainNameCategoryW(nvtxDomainHandle_t d, std::uint32_t c, const wchar_t* n)
{
    guarded([&] { nameCategory(domainOf(d), c, toUtf8(n)); });
}
nvtxStringHandle_t NVTX_API domainRegisterStringA(nvtxDomainHandle_t, const char* s)
{
    return guarded<nvtxStringHandle_t>(nullptr, [&] { return registerString(s ? s : ""); });
}
nvtxStringHandle_t NVTX_API domainRegisterStringW(nvtxDomainHandle_t, const wchar_t* s)
{
    return guarded<nvtxStringHandle_t>(nullptr, [&] { return registerString(toUtf8(s)); });
}
nvtxDomainHandle_t NVTX_API domainCreateA(const char* n)
{
    return guarded<nvtxDomainHandle_t>(nullptr, [&] { return createDomain(n ? n : ""); });
}
nvtxDomainHandle_t NVTX_API domainCreateW(const wchar_t* n)
{
    return guarded<nvtxDomainHandle_t>(nullptr, [&] { return createDomain(toUtf8(n)); });
}
void NVTX_API domainDestroy(nvtxDomainHandle_t) { } // domains live as long as the process: handles may outlive this
void NVTX_API initialize(const void*) { }

template <typename Function> void fill(NvtxFunctionTable table, unsigned int size, unsigned int id, Function function)
{
    if (id < size && table[id])
        *table[id] = reinterpret_cast<NvtxFunctionPointer>(function);
}

bool fillCore(const NvtxExportTableCallbacks* callbacks)
{
    NvtxFunctionTable table = nullptr;
    unsigned int size = 0;
    if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) || !table)
        return false;
    fill(table, size, NVTX_CBID_CORE_MarkEx, static_cast<nvtxMarkEx_impl_fntype>(markEx));
    fill(table, size, NVTX_CBID_CORE_MarkA, static_cast<nvtxMarkA_impl_fntype>(markA));
    fill(table, size, NVTX_CBID_CORE_MarkW, static_cast<nvtxMarkW_impl_fntype>(markW));
    fill(table, size, NVTX_CBID_CORE_RangeStartEx, static_cast<nvtxRangeStartEx_impl_fntype>(rangeStartEx));
    fill(table, size, NVTX_CBID_CORE_RangeStartA, static_cast<nvtxRangeStartA_impl_fntype>(rangeStartA));
    fill(table, size, NVTX_CBID_CORE_RangeStartW, static_cast<nvtxRangeStartW_impl_fntype>(rangeStartW));
    fill(table, size, NVTX_CBID_CORE_RangeEnd, static_cast<nvtxRangeEnd_impl_fntype>(rangeEnd));
    fill(table, size, NVTX_CBID_CORE_RangePushEx, static_cast<nvtxRangePushEx_impl_fntype>(rangePushEx));
    fill(table, size, NVTX_CBID_CORE_RangePushA, static_cast<nvtxRangePushA_impl_fntype>(rangePushA));
    fill(table, size, NVTX_CBID_CORE_RangePushW, static_cast<nvtxRangePushW_impl_fntype>(rangePushW));
    fill(table, size, NVTX_CBID_CORE_RangePop, static_cast<nvtxRangePop_impl_fntype>(rangePop));
    fill(table, size, NVTX_CBID_CORE_NameCategoryA, static_cast<nvtxNameCategoryA_impl_fntype>(nameCategoryA));
    fill(table, size, NVTX_CBID_CORE_NameCategoryW, static_cast<nvtxNameCategoryW_impl_fntype>(nameCategoryW));
    fill(table, size, NVTX_CBID_CORE_NameOsThreadA, static_cast<nvtxNameOsThreadA_impl_fntype>(nameOsThreadA));
    fill(table, size, NVTX_CBID_CORE_NameOsThreadW, static_cast<nvtxNameOsThreadW_impl_fntype>(nameOsThreadW));
    return true;
}

bool fillCore2(const NvtxExportTableCallbacks* callbacks)
{
    NvtxFunctionTable table = nullptr;
    unsigned int size = 0;
    if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size) || !table)
        return false;
    fill(table, size, NVTX_CBID_CORE2_DomainMarkEx, static_cast<nvtxDomainMarkEx_impl_fntype>(domainMarkEx));
    fill(table, size, NVTX_CBID_CORE2_DomainRangeStartEx,
        static_cast<nvtxDomainRangeStartEx_impl_fntype>(domainRangeStartEx));
    fill(table, size, NVTX_CBID_CORE2_DomainRangeEnd, static_cast<nvtxDomainRangeEnd_impl_fntype>(domainRangeEnd));
    fill(table, size, NVTX_CBID_CORE2_DomainRangePushEx,
        static_cast<nvtxDomainRangePushEx_impl_fntype>(domainRangePushEx));
    fill(table, size, NVTX_CBID_CORE2_DomainRangePop, static_cast<nvtxDomainRangePop_impl_fntype>(domainRangePop));
    fill(table, size, NVTX_CBID_CORE2_DomainResourceCreate,
        static_cast<nvtxDomainResourceCreate_impl_fntype>(domainResourceCreate));
    fill(table, size, NVTX_CBID_CORE2_DomainResourceDestroy,
        static_cast<nvtxDomainResourceDestroy_impl_fntype>(domainResourceDestroy));
    fill(table, size, NVTX_CBID_CORE2_DomainNameCategoryA,
        static_cast<nvtxDomainNameCategoryA_impl_fntype>(domainNameCategoryA));
    fill(table, size, NVTX_CBID_CORE2_DomainNameCategoryW,
        static_cast<nvtxDomainNameCategoryW_impl_fntype>(domainNameCategoryW));
    fill(table, size, NVTX_CBID_CORE2_DomainRegisterStringA,
        static_cast<nvtxDomainRegisterStringA_impl_fntype>(domainRegisterStringA));
    fill(table, size, NVTX_CBID_CORE2_DomainRegisterStringW,
        static_cast<nvtxDomainRegisterStringW_impl_fntype>(domainRegisterStringW));
    fill(table, size, NVTX_CBID_CORE2_DomainCreateA, static_cast<nvtxDomainCreateA_impl_fntype>(domainCreateA));
    fill(table, size, NVTX_CBID_CORE2_DomainCreateW, static_cast<nvtxDomainCreateW_impl_fntype>(domainCreateW));
    fill(table, size, NVTX_CBID_CORE2_DomainDestroy, static_cast<nvtxDomainDestroy_impl_fntype>(domainDestroy));
    fill(table, size, NVTX_CBID_CORE2_Initialize, static_cast<nvtxInitialize_impl_fntype>(initialize));
    return true;
}

} // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t getExportTable)
{
    try {
        const char* kinds = std::getenv(gapscope::capture::kEnvKinds);
        if (kinds && *kinds && (std::strtoul(kinds, nullptr, 10) & gapscope::capture::RecordNvtx) == 0)
            return 0; // NVTX not asked for: NVTX turns every call into a no-op
        if (!getExportTable)
            return 0;
        const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(getExportTable(NVTX_ETID_CALLBACKS));
        if (!callbacks || callbacks->struct_size < sizeof(NvtxExportTableCallbacks))
            return 0;
        gapscope::capture::nvtx::installHooks();
        if (!Collector::instance().writer())
            return 0;
        const bool core = fillCore(callbacks);
        const bool core2 = fillCore2(callbacks);
        if (const auto* version = static_cast<const NvtxExportTableVersionInfo*>(getExportTable(NVTX_ETID_VERSIONINFO));
            version && version->struct_size >= sizeof(NvtxExportTableVersionInfo) && version->SetInjectionNvtxVersion)
            version->SetInjectionNvtxVersion(NVTX_VERSION);
        return core || core2 ? 1 : 0;
    } catch (...) {
        std::fprintf(stderr, "gapscope collector: NVTX injection failed; NVTX ranges are not recorded\n");
        return 0;
    }
}
