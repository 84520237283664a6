// SPDX-License-Identifier: MIT
#pragma once
// Runs task(i) for every i in [0, count) on up to one thread per core, the calling thread
// included, handing out indices in order as threads come free (callers put the largest tasks
// first). For a few coarse tasks after a load (one per lane), not a general thread pool.
// `maxThreads` 0: one per core; 1 runs everything on the calling thread (small inputs, where
// starting threads costs more than it saves).
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace sutra {

template <typename Task>
void parallelFor(std::size_t count, Task&& task, unsigned maxThreads = 0) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t threads =
      std::min<std::size_t>(count, maxThreads == 0 ? cores : std::min(maxThreads, cores));
  std::atomic<std::size_t> next{0};
  auto drain = [&] {
    for (std::size_t i = next++; i < count; i = next++) task(i);
  };
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(drain);
  drain();
  for (auto& h : helpers) h.join();
}

}  // namespace sutra
