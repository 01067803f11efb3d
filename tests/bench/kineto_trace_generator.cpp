// SPDX-License-Identifier: MIT
#include "tests/bench/kineto_trace_generator.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <vector>

namespace gapscope::bench {

namespace {

constexpr std::int64_t kHostPid = 2187;
constexpr std::int64_t kBaseTimeNs = 1712195495406752800; // an epoch time in ns, as Kineto writes
constexpr std::size_t kFlushBytes = 1 << 20;

// Names as the PyTorch profiler records them for a transformer training step.
constexpr std::array<const char*, 12> kKernelNames = {
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, "
    "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)",
    "void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, "
    "true>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16 "
    "const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned "
    "int, long)",
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_"
    "kernel__5x_cublas",
    "void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x2_tn_align8>(cutlass_80_wmma_"
    "tensorop_bf16_s161616gemm_bf16_16x16_128x2_tn_align8::Params)",
    "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, "
    "c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)",
    "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, c10::BFloat16, float, c10::BFloat16, "
    "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(c10::BFloat16*, c10::BFloat16 const*, int)",
    "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, "
    "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::"
    "BFloat16)#1}, std::array<char*, 2ul> >(int, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, "
    "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::"
    "BFloat16)#1}, std::array<char*, 2ul>)",
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
    "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
    "unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
    "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
    "unsigned int, float, 4>)",
    "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
    "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::"
    "{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>, "
    "4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, "
    "at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, ...)",
    "void (anonymous namespace)::elementwise_kernel_with_index<int, at::native::arange_cuda_out(c10::Scalar const&, "
    "c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::"
    "operator()() const::{lambda(long)#1}>(int, at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, "
    "c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::"
    "{lambda(long)#1}, function_traits<at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, "
    "c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::"
    "{lambda(long)#1}>::result_type*)",
    "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, "
    "float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, "
    "at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::"
    "{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, "
    "at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, "
    "float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1})",
};
constexpr std::array<const char*, 10> kOpNames = {
    "aten::add",
    "aten::mm",
    "aten::addmm",
    "aten::layer_norm",
    "aten::_softmax",
    "aten::gelu",
    "aten::sum",
    "aten::copy_",
    "aten::index_select",
    "aten::mul",
};
constexpr std::array<const char*, 3> kMemcpyNames = {
    "Memcpy HtoD (Pageable -> Device)",
    "Memcpy DtoH (Device -> Pinned)",
    "Memcpy DtoD (Device -> Device)",
};
constexpr std::array<const char*, 4> kInputDims = {
    "[[8, 512, 768], [8, 512, 768], []]",
    "[[4096, 768], [768, 3072]]",
    "[[3072], [4096, 768], [768, 3072], [], []]",
    "[[8, 512, 768], [768], [768], [], []]",
};

/// xorshift64*: deterministic on every platform (std:: distributions are not).
class Random {
public:
    explicit Random(std::uint32_t seed)
        : m_state(0x9e3779b97f4a7c15ull ^ (static_cast<std::uint64_t>(seed) << 1 | 1))
    { }
    std::uint64_t next()
    {
        m_state ^= m_state >> 12;
        m_state ^= m_state << 25;
        m_state ^= m_state >> 27;
        return m_state * 0x2545f4914f6cdd1dull;
    }
    std::uint64_t below(std::uint64_t n) { return next() % n; }

private:
    std::uint64_t m_state;
};

class Writer {
public:
    Writer(const std::function<void(std::string_view)>& sink, KinetoTraceStats& stats)
        : m_sink(sink)
        , m_stats(stats)
    {
        m_buffer.reserve(kFlushBytes + 4096);
    }

    Writer& operator<<(std::string_view text)
    {
        m_buffer.append(text);
        return *this;
    }
    Writer& operator<<(std::int64_t value)
    {
        char text[24];
        const int n = std::snprintf(text, sizeof text, "%lld", static_cast<long long>(value));
        m_buffer.append(text, static_cast<std::size_t>(n));
        return *this;
    }
    /// A time in ns as Kineto writes it: µs with up to three decimals, trailing zeros dropped.
    Writer& micros(std::int64_t ns)
    {
        *this << ns / 1000;
        int frac = static_cast<int>(ns % 1000);
        if (frac != 0) {
            char text[8];
            int digits = 3;
            while (frac % 10 == 0) {
                frac /= 10;
                --digits;
            }
            std::snprintf(text, sizeof text, ".%0*d", digits, frac);
            m_buffer.append(text);
        }
        return *this;
    }
    /// Starts an event; every event but the first is preceded by a comma.
    Writer& event()
    {
        m_buffer.append(m_stats.events == 0 ? "\n  {\n" : ",\n  {\n");
        ++m_stats.events;
        return *this;
    }
    void maybeFlush()
    {
        if (m_buffer.size() >= kFlushBytes)
            flush();
    }
    void flush()
    {
        m_stats.bytes += m_buffer.size();
        m_sink(m_buffer);
        m_buffer.clear();
    }

private:
    const std::function<void(std::string_view)>& m_sink;
    KinetoTraceStats& m_stats;
    std::string m_buffer;
};

void writeComplete(Writer& w, std::string_view cat, std::string_view name, std::int64_t pid, std::int64_t tid,
    std::int64_t startNs, std::int64_t durNs)
{
    w.event() << "    \"ph\": \"X\", \"cat\": \"" << cat << "\", \"name\": \"" << name << "\", \"pid\": " << pid
              << ", \"tid\": " << tid << ",\n    \"ts\": ";
    w.micros(startNs) << ", \"dur\": ";
    w.micros(durNs) << ",\n    \"args\": {\n      ";
}

void writeFlow(Writer& w, char phase, std::int64_t id, std::int64_t pid, std::int64_t tid, std::int64_t tsNs)
{
    w.event() << "    \"ph\": \"" << std::string_view(&phase, 1) << "\", \"id\": " << id << ", \"pid\": " << pid
              << ", \"tid\": " << tid << ", \"ts\": ";
    w.micros(tsNs) << ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\"" << (phase == 'f' ? ", \"bp\": \"e\"" : "")
                   << "\n  }";
}

void writeMetadata(Writer& w, std::string_view name, std::int64_t pid, std::int64_t tid, std::string_view argKey,
    std::string_view argValue)
{
    w.event() << "    \"name\": \"" << name << "\", \"ph\": \"M\", \"ts\": ";
    w.micros(kBaseTimeNs) << ", \"pid\": " << pid << ", \"tid\": " << tid << ",\n    \"args\": {\n      \"" << argKey
                          << "\": " << argValue << "\n    }\n  }";
}

} // namespace

KinetoTraceStats writeKinetoJson(const KinetoTraceSpec& spec, const std::function<void(std::string_view)>& sink)
{
    KinetoTraceStats stats;
    Writer w(sink, stats);
    Random rng(spec.seed);
    const int streams = std::max(1, spec.streams);
    const int threads = std::max(1, spec.threads);

    w << "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n    {\n      \"id\": 0, \"name\": \"NVIDIA H100 80GB "
         "HBM3\", \"totalGlobalMem\": 84929216512,\n      \"computeMajor\": 9, \"computeMinor\": 0,\n      "
         "\"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n      \"regsPerBlock\": 65536, "
         "\"warpSize\": 32,\n      \"sharedMemPerBlock\": 49152, \"numSms\": 132\n    }\n  ],\n"
         "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 8},\n  \"traceEvents\": [";

    writeMetadata(w, "process_name", kHostPid, 0, "name", "\"python3\"");
    writeMetadata(w, "process_labels", kHostPid, 0, "labels", "\"CPU\"");
    writeMetadata(w, "process_name", 0, 0, "name", "\"python3\"");
    writeMetadata(w, "process_labels", 0, 0, "labels", "\"GPU 0\"");
    std::vector<std::int64_t> tids;
    for (int t = 0; t < threads; ++t) {
        const std::int64_t tid = kHostPid + t * 17;
        tids.push_back(tid);
        writeMetadata(w, "thread_name", kHostPid, tid, "name", "\"thread " + std::to_string(tid) + " (python3)\"");
    }
    std::vector<std::int64_t> streamIds;
    for (int s = 0; s < streams; ++s) {
        const std::int64_t stream = 7 + 4 * s;
        streamIds.push_back(stream);
        writeMetadata(w, "thread_name", 0, stream, "name", "\"stream " + std::to_string(stream) + " \"");
    }

    std::vector<std::int64_t> threadClock(static_cast<std::size_t>(threads), kBaseTimeNs + 1000000);
    std::vector<std::int64_t> streamBusyUntil(static_cast<std::size_t>(streams), kBaseTimeNs);
    std::int64_t correlation = 10000;
    std::int64_t externalId = 1;
    std::int64_t step = 1;
    std::int64_t stepStart = threadClock[0];
    constexpr std::size_t kOpsPerStep = 500;

    for (std::size_t op = 0; op < spec.gpuEvents; ++op) {
        const auto t = static_cast<std::size_t>(rng.below(static_cast<std::uint64_t>(threads)));
        const std::int64_t tid = tids[t];
        std::int64_t& clock = threadClock[t];
        clock += 2000 + static_cast<std::int64_t>(rng.below(30000)); // host gap between ops, 2–32 µs

        const std::int64_t opStart = clock;
        const std::int64_t launchStart = opStart + 3000 + static_cast<std::int64_t>(rng.below(5000));
        const std::int64_t launchDur = 2500 + static_cast<std::int64_t>(rng.below(6000));
        const std::int64_t opEnd = launchStart + launchDur + 1000 + static_cast<std::int64_t>(rng.below(3000));
        clock = opEnd;
        ++correlation;
        ++externalId;

        const std::uint64_t pick = rng.below(100);
        const auto s = static_cast<std::size_t>(rng.below(static_cast<std::uint64_t>(streams)));
        const std::int64_t stream = streamIds[s];
        const std::int64_t gpuStart = std::max(launchStart + launchDur / 2 + 2000, streamBusyUntil[s] + 1000);
        const std::int64_t gpuDur = 1500 + static_cast<std::int64_t>(rng.below(120000));
        streamBusyUntil[s] = gpuStart + gpuDur;

        // The CPU op enclosing the launch.
        writeComplete(w, "cpu_op", kOpNames[op % kOpNames.size()], kHostPid, tid, opStart, opEnd - opStart);
        ++stats.cpuOps;
        w << "\"External id\": " << externalId
          << ",\"Record function id\": 0, \"Ev Idx\": " << static_cast<std::int64_t>(op)
          << ", \"Input Dims\": " << kInputDims[op % kInputDims.size()]
          << ", \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\"]\n    }\n  }";

        const char* launchName = pick < 90 ? "cudaLaunchKernel" : pick < 97 ? "cudaMemcpyAsync" : "cudaMemsetAsync";
        writeComplete(w, "cuda_runtime", launchName, kHostPid, tid, launchStart, launchDur);
        w << "\"External id\": " << externalId << ", \"cbid\": 211, \"correlation\": " << correlation << "\n    }\n  }";
        ++stats.runtimeCalls;
        writeFlow(w, 's', correlation, kHostPid, tid, launchStart);

        if (pick < 90) {
            const std::uint64_t k = rng.below(kKernelNames.size());
            writeComplete(w, "kernel", kKernelNames[k], 0, stream, gpuStart, gpuDur);
            const std::int64_t grid = 1 + static_cast<std::int64_t>(rng.below(4096));
            w << "\"External id\": " << externalId << ",\n      \"queued\": 0, \"device\": 0, \"context\": 1,\n"
              << "      \"stream\": " << stream << ", \"correlation\": " << correlation << ",\n"
              << "      \"registers per thread\": " << static_cast<std::int64_t>(16 + rng.below(240)) << ",\n"
              << "      \"shared memory\": " << static_cast<std::int64_t>(rng.below(8) * 4096) << ",\n"
              << "      \"blocks per SM\": " << grid / 132 << "." << static_cast<std::int64_t>(rng.below(1000))
              << ",\n      \"warps per SM\": " << grid * 4 / 132 << ".5,\n"
              << "      \"grid\": [" << grid << ", 1, 1],\n      \"block\": [256, 1, 1],\n"
              << "      \"est. achieved occupancy %\": " << static_cast<std::int64_t>(rng.below(100)) << "\n    }\n  }";
            ++stats.kernels;
        } else if (pick < 97) {
            const std::int64_t bytes = 4096 * (1 + static_cast<std::int64_t>(rng.below(4096)));
            writeComplete(w, "gpu_memcpy", kMemcpyNames[rng.below(kMemcpyNames.size())], 0, stream, gpuStart, gpuDur);
            w << "\"External id\": " << externalId << ",\n      \"device\": 0, \"context\": 1,\n"
              << "      \"stream\": " << stream << ", \"correlation\": " << correlation << ",\n"
              << "      \"bytes\": " << bytes << ", \"memory bandwidth (GB/s)\": " << bytes / gpuDur
              << ".25\n    }\n  }";
            ++stats.memcpys;
        } else {
            const std::int64_t bytes = 512 * (1 + static_cast<std::int64_t>(rng.below(8192)));
            writeComplete(w, "gpu_memset", "Memset (Device)", 0, stream, gpuStart, gpuDur);
            w << "\"External id\": " << externalId << ",\n      \"device\": 0, \"context\": 1,\n"
              << "      \"stream\": " << stream << ", \"correlation\": " << correlation << ",\n"
              << "      \"bytes\": " << bytes << ", \"memory bandwidth (GB/s)\": " << bytes / gpuDur
              << ".5\n    }\n  }";
            ++stats.memsets;
        }
        ++stats.gpuEvents;
        writeFlow(w, 'f', correlation, 0, stream, gpuStart);
        stats.flowEvents += 2;

        if ((op + 1) % kOpsPerStep == 0 || op + 1 == spec.gpuEvents) {
            const std::int64_t stepEnd = *std::max_element(threadClock.begin(), threadClock.end());
            writeComplete(w, "user_annotation", "ProfilerStep#" + std::to_string(step), kHostPid, tids[0], stepStart,
                stepEnd - stepStart);
            w << "\"External id\": " << ++externalId << "\n    }\n  }";
            ++stats.userAnnotations;
            ++step;
            stepStart = stepEnd + 500;
        }
        w.maybeFlush();
    }
    w << "\n  ],\n  \"traceName\": \"synthetic_kineto_trace.json\",\n  \"displayTimeUnit\": \"ms\",\n"
         "  \"baseTimeNanoseconds\": 1712195400000000000\n}\n";
    w.flush();
    return stats;
}

std::string generateKinetoJson(
    std::size_t gpuEvents, int streams, int threads, std::uint32_t seed, KinetoTraceStats* stats)
{
    std::string json;
    json.reserve(gpuEvents * 1300 + 4096);
    const KinetoTraceStats s = writeKinetoJson(
        KinetoTraceSpec { gpuEvents, streams, threads, seed }, [&](std::string_view piece) { json.append(piece); });
    if (stats)
        *stats = s;
    return json;
}

bool writeKinetoJsonFile(const std::string& path, const KinetoTraceSpec& spec, bool gzip, KinetoTraceStats* stats)
{
    bool ok = true;
    KinetoTraceStats s;
    if (gzip) {
        gzFile file = gzopen(path.c_str(), "wb1");
        if (!file)
            return false;
        s = writeKinetoJson(spec, [&](std::string_view piece) {
            if (ok && !piece.empty() && gzwrite(file, piece.data(), static_cast<unsigned>(piece.size())) <= 0)
                ok = false;
        });
        ok = gzclose(file) == Z_OK && ok;
    } else {
        std::FILE* file = std::fopen(path.c_str(), "wb");
        if (!file)
            return false;
        s = writeKinetoJson(spec, [&](std::string_view piece) {
            if (ok && std::fwrite(piece.data(), 1, piece.size(), file) != piece.size())
                ok = false;
        });
        ok = std::fclose(file) == 0 && ok;
    }
    if (stats)
        *stats = s;
    return ok;
}

} // namespace gapscope::bench
