// SPDX-License-Identifier: MIT
#include "util/page_residency.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

namespace sutra {

namespace {

std::uintptr_t pageSize() {
  static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  return page;
}

std::uintptr_t pageOf(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) / pageSize() * pageSize();
}

}  // namespace

bool pagesInMemory(const void* data, std::size_t bytes) {
  if (bytes == 0) return true;
  // A few pages at a time into a buffer on the stack: callers ask about small ranges often.
  constexpr std::size_t kChunk = 256;
  unsigned char pages[kChunk];
  const std::uintptr_t first = pageOf(data);
  const std::uintptr_t last = pageOf(static_cast<const char*>(data) + bytes - 1);
  for (std::uintptr_t at = first; at <= last; at += kChunk * pageSize()) {
    const std::size_t n = std::min<std::size_t>(kChunk, (last - at) / pageSize() + 1);
    if (::mincore(reinterpret_cast<void*>(at), n * pageSize(), pages) != 0) continue;
    for (std::size_t k = 0; k < n; ++k)
      if (!(pages[k] & 1)) return false;
  }
  return true;
}

namespace {

// The kernel's readahead allocates the pages, and to do so may first reclaim others, in the thread
// that asks: one thread of its own asks for them, so that a frame never pays for it. A request for
// a range that was unmapped meanwhile fails harmlessly (ENOMEM).
class ReadAheadThread {
 public:
  static ReadAheadThread& instance() {
    static auto* thread = new ReadAheadThread();  // never destroyed: no exit-time teardown
    return *thread;
  }
  void post(std::uintptr_t first, std::size_t bytes) {
    {
      const std::lock_guard lock(mutex_);
      if (queue_.size() >= kMaxQueued) queue_.pop_front();  // the oldest view is the stalest
      queue_.emplace_back(first, bytes);
    }
    wake_.notify_one();
  }

 private:
  static constexpr std::size_t kMaxQueued = 1 << 16;
  ReadAheadThread() {
    std::thread([this] { run(); }).detach();
  }
  void run() {
    for (;;) {
      std::pair<std::uintptr_t, std::size_t> range;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [this] { return !queue_.empty(); });
        range = queue_.front();
        queue_.pop_front();
      }
      ::madvise(reinterpret_cast<void*>(range.first), range.second, MADV_WILLNEED);
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::pair<std::uintptr_t, std::size_t>> queue_;
};

}  // namespace

void readPagesAhead(const void* data, std::size_t bytes) {
  if (bytes == 0) return;
  const std::uintptr_t first = pageOf(data);
  const std::uintptr_t end = reinterpret_cast<std::uintptr_t>(data) + bytes;
  ReadAheadThread::instance().post(first, end - first);
}

}  // namespace sutra
