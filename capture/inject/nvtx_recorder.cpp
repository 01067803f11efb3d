// SPDX-License-Identifier: MIT
#include "capture/inject/nvtx_recorder.h"
#include "capture/json_text.h"

#include "capture/inject/collector.h"
#include "capture/inject/kept_for_life.h"

#include <pthread.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <vector>

namespace gapscope::capture::nvtx {

namespace {

struct ThreadState {
    std::int64_t tid = 0;
    /// Guards the stacks against the exit handler, which closes every thread's open ranges.
    std::mutex mutex;
    /// One push/pop stack per domain (NVTX nests per thread and per domain).
    std::vector<std::pair<const Domain*, std::vector<OpenRange>>> stacks;
    /// Texts already interned in `cacheOwner`, so the hot path skips the writer's global lock.
    const NativeStreamWriter* cacheOwner = nullptr;
    std::unordered_map<std::string, std::uint32_t> ids;

    std::vector<OpenRange>& stack(const Domain* domain)
    {
        for (auto& [d, s] : stacks) {
            if (d == domain)
                return s;
        }
        return stacks.emplace_back(domain, std::vector<OpenRange> {}).second;
    }
};

// Never destroyed: threads may record into the default domain while static destructors run.
Domain* const g_defaultDomain = new Domain();
// Leaked on purpose: threads may call in while the process exits.
std::mutex* g_mutex = new std::mutex(); // guards the lists below
std::vector<ThreadState*>* g_threads = new std::vector<ThreadState*>();
std::vector<Domain*>* g_domains = new std::vector<Domain*>();
// Registered strings by text: NVTX has no unregister, so a handle lives as long as the process; held here it
// stays reachable (LeakSanitizer reported each one as a leak), and registering one text twice gives one handle.
std::unordered_map<std::string, RegisteredString*>* g_strings
    = new std::unordered_map<std::string, RegisteredString*>();
std::unordered_map<nvtxRangeId_t, std::pair<std::int64_t, OpenRange>>* g_started
    = new std::unordered_map<nvtxRangeId_t, std::pair<std::int64_t, OpenRange>>();
std::atomic<nvtxRangeId_t> g_nextRangeId { 1 };
pthread_key_t g_threadKey;
thread_local ThreadState* t_state = nullptr;

} // namespace

const Domain* domainOf(nvtxDomainHandle_t handle)
{
    return handle ? reinterpret_cast<const Domain*>(handle) : g_defaultDomain;
}

std::string toUtf8(const wchar_t* text)
{
    std::string out;
    if (!text)
        return out;
    for (; *text; ++text) {
        auto c = static_cast<std::uint32_t>(*text);
        if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
            c = 0xfffd;
        if (c < 0x80) {
            out += static_cast<char>(c);
        } else if (c < 0x800) {
            out += static_cast<char>(0xc0 | (c >> 6));
            out += static_cast<char>(0x80 | (c & 0x3f));
        } else if (c < 0x10000) {
            out += static_cast<char>(0xe0 | (c >> 12));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
            out += static_cast<char>(0x80 | (c & 0x3f));
        } else {
            out += static_cast<char>(0xf0 | (c >> 18));
            out += static_cast<char>(0x80 | ((c >> 12) & 0x3f));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
            out += static_cast<char>(0x80 | (c & 0x3f));
        }
    }
    return out;
}

namespace {

void threadExited(void* state);

/// The calling thread's name as the kernel knows it (prctl reads it on the thread itself: works
/// when /proc is not readable, and before the thread is gone).
std::string ownThreadName()
{
    char name[17] = {};
    if (::prctl(PR_GET_NAME, name, 0, 0, 0) != 0)
        return {};
    return name;
}

ThreadState& threadState()
{
    if (t_state)
        return *t_state;
    auto* state = new ThreadState();
    state->tid = static_cast<std::int64_t>(::syscall(SYS_gettid));
    {
        std::lock_guard lock(*g_mutex);
        g_threads->push_back(state);
    }
    pthread_setspecific(g_threadKey, state);
    t_state = state;
    Collector::instance().noteThreadName(state->tid, ownThreadName(), false);
    return *state;
}

std::uint32_t intern(ThreadState& state, NativeStreamWriter& writer, const std::string& text)
{
    if (text.empty())
        return 0;
    if (state.cacheOwner != &writer) {
        state.ids.clear(); // another writer (a forked child's): its ids differ
        state.cacheOwner = &writer;
    }
    auto [it, inserted] = state.ids.try_emplace(text, 0);
    if (inserted)
        it->second = writer.internString(text);
    return it->second;
}

void emit(ThreadState& state, NativeStreamWriter& writer, std::int64_t start, std::int64_t end, const OpenRange& range,
    native::EventCode code, std::int64_t tid)
{
    writer.addEvent(native::EventRecord { start, end, 0, tid, intern(state, writer, range.name), 0,
        intern(state, writer, range.args), -1, static_cast<std::uint8_t>(code), 0 });
}

std::string withUnterminated(const std::string& args)
{
    if (args.empty())
        return "{\"unterminated\":true}";
    return args.substr(0, args.size() - 1) + ",\"unterminated\":true}";
}

/// Emits a range still open at thread or process exit. Interns through the writer, not the thread's
/// cache: the exit handler runs on another thread than the one the state belongs to.
void emitUnterminated(NativeStreamWriter& writer, const OpenRange& range, std::int64_t end, std::int64_t tid)
{
    writer.addEvent(native::EventRecord { range.start, end, 0, tid, writer.internString(range.name), 0,
        writer.internString(withUnterminated(range.args)), -1, static_cast<std::uint8_t>(native::EventCode::NvtxRange),
        0 });
}

void closeThreadRanges(ThreadState& state, NativeStreamWriter& writer, std::int64_t end)
{
    std::lock_guard lock(state.mutex);
    for (auto& [domain, stack] : state.stacks) {
        for (const OpenRange& range : stack)
            emitUnterminated(writer, range, end, state.tid);
        stack.clear();
    }
}

void threadExited(void* opaque)
{
    auto* state = static_cast<ThreadState*>(opaque);
    try {
        // Its name as it leaves: a thread that renamed itself after its first range, and ended
        // before the next /proc scan, keeps the name it had last.
        Collector::instance().noteThreadName(state->tid, ownThreadName(), true);
        if (NativeStreamWriter* writer = Collector::instance().writer())
            closeThreadRanges(*state, *writer, Collector::now());
        std::lock_guard lock(*g_mutex);
        g_threads->erase(std::remove(g_threads->begin(), g_threads->end(), state), g_threads->end());
    } catch (...) {
        return; // leak the state rather than risk it
    }
    t_state = nullptr;
    delete state;
}

void closeAllRanges(std::int64_t end)
{
    NativeStreamWriter* writer = Collector::instance().writer();
    if (!writer)
        return;
    std::lock_guard lock(*g_mutex);
    for (ThreadState* state : *g_threads)
        closeThreadRanges(*state, *writer, end);
    for (const auto& [id, started] : *g_started)
        emitUnterminated(*writer, started.second, end, started.first);
    g_started->clear();
}

} // namespace

OpenRange describe(const Domain* domain, const nvtxEventAttributes_t* attributes)
{
    OpenRange range;
    range.domain = domain;
    std::string args;
    const auto addArg = [&args](const char* key) {
        args += args.empty() ? "{" : ",";
        appendJsonString(args, key);
        args += ':';
    };
    if (!domain->name.empty()) {
        addArg("domain");
        appendJsonString(args, domain->name);
    }
    // Older NVTX versions pass shorter structs; read only the fields the size covers.
    const std::size_t size = attributes ? attributes->size : 0;
    const auto has = [size](std::size_t offset, std::size_t bytes) { return size >= offset + bytes; };
    if (attributes && has(offsetof(nvtxEventAttributes_t, message), sizeof(attributes->message))) {
        switch (attributes->messageType) {
        case NVTX_MESSAGE_TYPE_ASCII:
            range.name = attributes->message.ascii ? attributes->message.ascii : "";
            break;
        case NVTX_MESSAGE_TYPE_UNICODE:
            range.name = toUtf8(attributes->message.unicode);
            break;
        case NVTX_MESSAGE_TYPE_REGISTERED:
            if (attributes->message.registered)
                range.name = reinterpret_cast<const RegisteredString*>(attributes->message.registered)->text;
            break;
        default:
            break;
        }
    }
    if (attributes && attributes->category != 0) {
        addArg("category");
        auto* mutableDomain = const_cast<Domain*>(domain);
        std::lock_guard lock(mutableDomain->mutex);
        if (auto it = mutableDomain->categories.find(attributes->category); it != mutableDomain->categories.end())
            appendJsonString(args, it->second);
        else
            args += std::to_string(attributes->category);
    }
    if (attributes && attributes->colorType == NVTX_COLOR_ARGB) {
        char color[16];
        std::snprintf(color, sizeof(color), "#%06x", attributes->color & 0xffffffu);
        addArg("color");
        appendJsonString(args, color);
    }
    if (attributes && has(offsetof(nvtxEventAttributes_t, payload), sizeof(attributes->payload))) {
        switch (attributes->payloadType) {
        case NVTX_PAYLOAD_TYPE_UNSIGNED_INT64:
            addArg("payload");
            args += std::to_string(attributes->payload.ullValue);
            break;
        case NVTX_PAYLOAD_TYPE_INT64:
            addArg("payload");
            args += std::to_string(attributes->payload.llValue);
            break;
        case NVTX_PAYLOAD_TYPE_UNSIGNED_INT32:
            addArg("payload");
            args += std::to_string(attributes->payload.uiValue);
            break;
        case NVTX_PAYLOAD_TYPE_INT32:
            addArg("payload");
            args += std::to_string(attributes->payload.iValue);
            break;
        case NVTX_PAYLOAD_TYPE_DOUBLE:
            addArg("payload");
            args += std::to_string(attributes->payload.dValue);
            break;
        case NVTX_PAYLOAD_TYPE_FLOAT:
            addArg("payload");
            args += std::to_string(attributes->payload.fValue);
            break;
        default:
            break;
        }
    }
    if (!args.empty())
        args += '}';
    range.args = std::move(args);
    return range;
}

OpenRange describe(const Domain* domain, std::string message)
{
    OpenRange range;
    range.domain = domain;
    range.name = std::move(message);
    return range;
}

// ---- the operations every handler maps to -----------------------------------------------------

// Each operation asks for the writer before it reads the clock: after exit there is nothing to
// time.

int push(OpenRange range)
{
    if (!Collector::instance().writer())
        return 0;
    const std::int64_t now = Collector::now();
    ThreadState& state = threadState();
    std::lock_guard lock(state.mutex);
    auto& stack = state.stack(range.domain);
    range.start = now;
    stack.push_back(std::move(range));
    return static_cast<int>(stack.size()) - 1;
}

int pop(const Domain* domain)
{
    NativeStreamWriter* writer = Collector::instance().writer();
    if (!writer)
        return -1;
    const std::int64_t now = Collector::now();
    ThreadState& state = threadState();
    std::lock_guard lock(state.mutex);
    auto& stack = state.stack(domain);
    if (stack.empty())
        return -1; // a pop without a push (or one pushed before recording began)
    emit(state, *writer, stack.back().start, now, stack.back(), native::EventCode::NvtxRange, state.tid);
    stack.pop_back();
    return static_cast<int>(stack.size());
}

nvtxRangeId_t start(OpenRange range)
{
    if (!Collector::instance().writer())
        return 0;
    range.start = Collector::now();
    const nvtxRangeId_t id = g_nextRangeId.fetch_add(1);
    const std::int64_t tid = threadState().tid; // drawn on the thread that started it
    std::lock_guard lock(*g_mutex);
    g_started->emplace(id, std::make_pair(tid, std::move(range)));
    return id;
}

void end(nvtxRangeId_t id)
{
    NativeStreamWriter* writer = Collector::instance().writer();
    if (!writer)
        return;
    const std::int64_t now = Collector::now();
    std::pair<std::int64_t, OpenRange> started;
    {
        std::lock_guard lock(*g_mutex);
        auto it = g_started->find(id);
        if (it == g_started->end())
            return;
        started = std::move(it->second);
        g_started->erase(it);
    }
    ThreadState& state = threadState();
    emit(state, *writer, started.second.start, now, started.second, native::EventCode::NvtxRange, started.first);
}

void mark(const OpenRange& range)
{
    NativeStreamWriter* writer = Collector::instance().writer();
    if (!writer)
        return;
    const std::int64_t now = Collector::now();
    ThreadState& state = threadState();
    emit(state, *writer, now, now, range, native::EventCode::NvtxMark, state.tid);
}

void nameThread(std::uint32_t tid, const std::string& name)
{
    if (NativeStreamWriter* writer = Collector::instance().writer()) {
        writer->addMetadata(
            { static_cast<std::uint32_t>(native::MetadataKey::ThreadName), -1, tid, 0, writer->internString(name), 0 });
    }
}

void nameCategory(const Domain* domain, std::uint32_t category, std::string name)
{
    auto* mutableDomain = const_cast<Domain*>(domain);
    std::lock_guard lock(mutableDomain->mutex);
    mutableDomain->categories[category] = std::move(name);
}

nvtxDomainHandle_t createDomain(std::string name)
{
    std::lock_guard lock(*g_mutex);
    for (Domain* d : *g_domains) {
        if (d->name == name)
            return reinterpret_cast<nvtxDomainHandle_t>(d);
    }
    auto* domain = new Domain();
    domain->name = std::move(name);
    g_domains->push_back(domain);
    return reinterpret_cast<nvtxDomainHandle_t>(domain);
}

nvtxStringHandle_t registerString(std::string text)
{
    std::lock_guard lock(*g_mutex);
    auto [it, inserted] = g_strings->try_emplace(text, nullptr);
    if (inserted)
        it->second = new RegisteredString { std::move(text) };
    return reinterpret_cast<nvtxStringHandle_t>(it->second);
}

namespace {

void childAfterFork()
{
    // Other threads' states and the lists' lock belong to threads the child does not have: the parent's
    // lists stay, never freed, reachable (kept_for_life.h), and the child starts its own.
    keepForLife(g_mutex);
    keepForLife(g_threads);
    keepForLife(g_started);
    g_mutex = new std::mutex();
    g_threads = new std::vector<ThreadState*>();
    g_started = new std::unordered_map<nvtxRangeId_t, std::pair<std::int64_t, OpenRange>>();
    if (t_state) {
        t_state->tid = static_cast<std::int64_t>(::syscall(SYS_gettid));
        // Ranges the parent opened are the parent's: the child records only what it opens itself.
        t_state->stacks.clear();
        g_threads->push_back(t_state);
    }
}

} // namespace

void installHooks()
{
    // NVTX calls InitializeInjectionNvtx2 once per copy of NVTX in the process (each library built
    // with the header-only NVTX has its own): the hooks go in once.
    static std::once_flag once;
    std::call_once(once, [] {
        pthread_key_create(&g_threadKey, &threadExited);
        pthread_atfork(nullptr, nullptr, &childAfterFork);
        Collector::instance().setNvtxShutdownHook(&closeAllRanges);
    });
}

} // namespace gapscope::capture::nvtx
