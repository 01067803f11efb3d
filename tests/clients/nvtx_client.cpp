// SPDX-License-Identifier: MIT
// Test client for the capture tests: a known shape of NVTX ranges, marks and thread names, on three
// threads. tests/capture/record_nvtx_test.cpp checks that a recording holds exactly this:
//
//   main thread "nvtx-main":
//     main:setup [payload 42, color]      (push Ex)
//       main:load                          (push A)
//       * main:loaded                      (mark)
//     async:shared                         (start on worker-b, end on main; drawn on worker-b)
//   thread "worker-a":
//     a:outer
//       a:inner-1
//       a:inner-2                          (push W)
//         * a:mark                         (mark)
//   thread "worker-b":
//     b:outer
//       b:middle
//         b:inner
//     b:domain-range [domain gapscope-test, category "phase"] (registered string, domain push)
//
// Every range lasts at least 2 ms so that order and nesting are unambiguous.

#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <thread>

#include <sys/syscall.h>
#include <unistd.h>

namespace {

void sleepMs(int ms)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

std::uint32_t osThreadId()
{
    return static_cast<std::uint32_t>(::syscall(SYS_gettid));
}

void workerA()
{
    nvtxNameOsThreadA(osThreadId(), "worker-a");
    nvtxRangePushA("a:outer");
    sleepMs(2);
    nvtxRangePushA("a:inner-1");
    sleepMs(2);
    nvtxRangePop();
    nvtxRangePushW(L"a:inner-2");
    sleepMs(2);
    nvtxMarkA("a:mark");
    sleepMs(2);
    nvtxRangePop();
    sleepMs(2);
    nvtxRangePop();
}

nvtxRangeId_t workerB()
{
    nvtxNameOsThreadA(osThreadId(), "worker-b");
    const nvtxRangeId_t shared = nvtxRangeStartA("async:shared");
    nvtxRangePushA("b:outer");
    sleepMs(2);
    nvtxRangePushA("b:middle");
    sleepMs(2);
    nvtxRangePushA("b:inner");
    sleepMs(2);
    nvtxRangePop();
    sleepMs(2);
    nvtxRangePop();
    sleepMs(2);
    nvtxRangePop();
    sleepMs(2);

    const nvtxDomainHandle_t domain = nvtxDomainCreateA("gapscope-test");
    nvtxDomainNameCategoryA(domain, 7, "phase");
    nvtxEventAttributes_t attributes {};
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.category = 7;
    attributes.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    attributes.message.registered = nvtxDomainRegisterStringA(domain, "b:domain-range");
    nvtxDomainRangePushEx(domain, &attributes);
    sleepMs(2);
    nvtxDomainRangePop(domain);
    return shared;
}

} // namespace

int main()
{
    nvtxNameOsThreadA(osThreadId(), "nvtx-main");
    nvtxEventAttributes_t attributes {};
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.colorType = NVTX_COLOR_ARGB;
    attributes.color = 0xff00aa55u;
    attributes.payloadType = NVTX_PAYLOAD_TYPE_INT64;
    attributes.payload.llValue = 42;
    attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attributes.message.ascii = "main:setup";
    nvtxRangePushEx(&attributes);
    sleepMs(2);
    nvtxRangePushA("main:load");
    sleepMs(2);
    nvtxMarkA("main:loaded");
    sleepMs(2);
    nvtxRangePop();
    sleepMs(2);
    nvtxRangePop();

    nvtxRangeId_t shared = 0;
    std::thread a(workerA);
    std::thread b([&shared] { shared = workerB(); });
    a.join();
    b.join();
    sleepMs(2);
    nvtxRangeEnd(shared);
    return 0;
}
