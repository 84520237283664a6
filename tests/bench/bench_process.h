// SPDX-License-Identifier: MIT
#pragma once
// What the benchmarks measure a run with: this process's CPU and wall clocks and peak memory, and
// a round run in a fresh process (a forked child), as a CLI call runs.
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <optional>
#include <type_traits>

namespace sutra::bench {

// User + system time of this process (the machine is shared: wall time overstates).
inline double cpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

inline double wallSeconds() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

inline long peakRssKiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// Runs `work` (returning std::optional<T>) in a forked child and gives back its value, sent through
// a pipe, or nothing where it failed. The child starts with the parent's heap as it was, and its
// memory comes page by page from the kernel, as a fresh process's does (a second round in the same
// process would reuse the first one's freed pages). It exits without freeing what `work` built:
// teardown is no part of a figure.
template <typename T, typename Work>
std::optional<T> runInChild(Work&& work) {
  static_assert(std::is_trivially_copyable_v<T>, "sent through a pipe as bytes");
  int fds[2];
  if (pipe(fds) != 0) return std::nullopt;
  const pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    const std::optional<T> done = work();
    if (!done || write(fds[1], &*done, sizeof(T)) != sizeof(T)) _exit(2);
    _exit(0);
  }
  close(fds[1]);
  T value{};
  const bool ok = child > 0 && read(fds[0], &value, sizeof value) == sizeof value;
  close(fds[0]);
  if (child > 0) waitpid(child, nullptr, 0);
  if (!ok) return std::nullopt;
  return value;
}

}  // namespace sutra::bench
