// SPDX-License-Identifier: MIT
#pragma once

// The one way core (and the command line) spreads work over threads: parallelFor() over items that each thread
// takes as it comes free, and halfWeightSplit() for the common two-part case, cutting a list of lanes where half
// of their events lie.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gapscope {

/// `threads`, or every core when it is 0 (at least one).
inline unsigned threadsOrCores(unsigned threads)
{
    return threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
}

/// Calls body(i) once for every i in [0, count) on up to `threads` threads, the calling thread one of them, and
/// returns when every call has. Each thread takes the next index not taken yet, so a thread that runs slower than
/// the others (a busy core) holds up the end by one item, not by a share. body is called from several threads at
/// once, for different i. The first exception a call throws is rethrown here, after every thread has ended.
template <typename Body> void parallelFor(std::size_t count, unsigned threads, const Body& body)
{
    std::atomic<std::size_t> next { 0 };
    std::exception_ptr failure;
    std::mutex failureMutex;
    const auto work = [&] {
        try {
            for (std::size_t i; (i = next.fetch_add(1)) < count;)
                body(i);
        } catch (...) {
            const std::lock_guard lock(failureMutex);
            if (!failure)
                failure = std::current_exception();
            next.store(count); // the others stop at their next item
        }
    };
    const std::size_t helpers = std::min<std::size_t>(std::max(1u, threads), count) - (count > 0 ? 1 : 0);
    std::vector<std::thread> pool;
    pool.reserve(helpers);
    for (std::size_t t = 0; t < helpers; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& thread : pool)
        thread.join();
    if (failure)
        std::rethrow_exception(failure);
}

/// The first index at which the weights of the items before it reach half of `total`: where to cut [0, count)
/// into two parts of about equal work (count when the first part takes everything).
template <typename Weight> std::size_t halfWeightSplit(std::size_t count, std::size_t total, const Weight& weight)
{
    std::size_t split = 0;
    for (std::size_t before = 0; split < count && before < total / 2; ++split)
        before += weight(split);
    return split;
}

} // namespace gapscope
