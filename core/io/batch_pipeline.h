// SPDX-License-Identifier: MIT
#pragma once
// Parses the batches of a streamed JSON array on worker threads and merges the results in file
// order on the calling thread. The scanner (json_stream.h) runs on the calling thread and finds
// element boundaries; parsing a batch is independent of every other batch, and only the merge
// (interning, lane ids, B/E pairing) needs file order. The calling thread is a parser too: when
// batches queue up (the workers are behind) or it would otherwise wait, it parses the oldest
// waiting batch itself. So there is one thread per core and no more: with a worker per core
// beside the scanner, the OS shared the cores three ways and the scanner, the one stage that
// cannot be split, got two thirds of a core. Memory is bounded: at most `maxInFlight` batches are
// held at a time.
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "io/json_stream.h"
#include "util/result.h"

namespace sutra {

// Worker threads for parsing: all cores but the calling thread's, at least one.
unsigned parseWorkerCount();

template <typename Parsed>
class BatchPipeline {
 public:
  // `parse` runs on a worker or on the calling thread and gets a parser index below
  // parserCount(workers) (for per-parser state; the calling thread's is `workers`); `merge` runs
  // on the thread that calls submit()/finish(), in submission order.
  using ParseFn = std::function<Result<Parsed>(unsigned worker, const JsonBatch&)>;
  using MergeFn = std::function<void(Parsed&&)>;

  BatchPipeline(unsigned workers, ParseFn parse, MergeFn merge)
      : parse_(std::move(parse)),
        merge_(std::move(merge)),
        workers_(workers),
        maxInFlight_(2 * workers + 4) {
    for (unsigned w = 0; w < workers; ++w) threads_.emplace_back([this, w] { work(w); });
  }
  ~BatchPipeline() { stop(); }
  static unsigned parserCount(unsigned workers) { return workers + 1; }
  BatchPipeline(const BatchPipeline&) = delete;
  BatchPipeline& operator=(const BatchPipeline&) = delete;

  // Copies the batch and queues it, merging whatever is ready; while too many batches are in
  // flight it waits for the next one in order and merges it (the merge runs on this thread).
  Status submit(const JsonBatch& batch) {
    Job job;
    job.bytes = spareBuffer();  // a fresh buffer per batch cost a page fault every 4 KB
    job.bytes.assign(batch.data, batch.data + batch.size);
    job.bytes.resize(batch.size + kJsonPadding, ' ');
    job.batch = batch;
    job.batch.data = nullptr;  // the worker points it at job.bytes
    return enqueue(std::move(job));
  }

  // The same without the copy: `bytes` is the buffer that holds the batch (json_stream.h's
  // onBatchBuffer); it is kept until the batch is parsed, then offered by spareBuffer().
  Status submitBuffer(const JsonBatch& batch, std::vector<char>&& bytes) {
    Job job;
    job.bytes = std::move(bytes);  // the batch's pointers into it stay valid
    job.batch = batch;
    return enqueue(std::move(job));
  }

  // A buffer a worker is done with, or an empty vector.
  std::vector<char> spareBuffer() {
    std::lock_guard lock(mutex_);
    if (spare_.empty()) return {};
    std::vector<char> bytes = std::move(spare_.back());
    spare_.pop_back();
    return bytes;
  }

  // Waits for every batch and merges the rest. The error, if any, is that of the earliest batch
  // that failed: every submitted batch is parsed before one is chosen, so the answer does not
  // depend on which worker finished first.
  Status finish() {
    while (parseOneWaiting()) {
    }
    auto status = mergeReady(true);
    stop();  // the workers drain the queue before they stop
    if (error_) return *error_;
    return status;
  }

 private:
  struct Job {
    std::uint64_t sequence = 0;
    std::vector<char> bytes;
    JsonBatch batch;
  };

  Status enqueue(Job&& job) {
    for (;;) {
      if (auto s = mergeReady(false); !s) return s;
      std::unique_lock lock(mutex_);
      if (error_) return *error_;
      if (inFlight_ < maxInFlight_) break;
      if (!jobs_.empty()) {  // rather than wait for a worker, parse a waiting batch here
        lock.unlock();
        parseOneWaiting();
        continue;
      }
      batchDone_.wait(lock, [&] { return done_.count(nextMerge_) > 0 || error_.has_value(); });
    }
    bool behind = false;
    {
      std::lock_guard lock(mutex_);
      job.sequence = nextSequence_++;
      ++inFlight_;
      jobs_.push_back(std::move(job));
      // The workers are behind, and stay busy while this thread parses one.
      behind = jobs_.size() > workers_ + 2;
    }
    workAvailable_.notify_one();
    if (behind) parseOneWaiting();
    return Ok{};
  }

  // Takes the oldest waiting batch (the first the merge needs) and parses it on this thread;
  // false when none waits.
  bool parseOneWaiting() {
    Job job;
    {
      std::lock_guard lock(mutex_);
      if (jobs_.empty()) return false;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    run(workers_, std::move(job));
    return true;
  }

  void work(unsigned worker) {
    for (;;) {
      Job job;
      {
        std::unique_lock lock(mutex_);
        workAvailable_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      run(worker, std::move(job));
    }
  }

  // Parses one batch with parser `parser` and files the result (or the error) for the merge.
  void run(unsigned parser, Job&& job) {
    JsonBatch view = job.batch;
    if (!view.data) {  // a copy (submit): the batch is the whole buffer
      view.data = job.bytes.data();
      view.capacity = job.bytes.size();
    }
    auto parsed = parse_(parser, view);
    {
      std::lock_guard lock(mutex_);
      if (!parsed) {
        if (!error_ || job.sequence < errorSequence_)
          error_ = parsed.error(), errorSequence_ = job.sequence;
      } else {
        done_.emplace(job.sequence, std::move(parsed).value());
      }
      ++finished_;
      if (spare_.size() < maxInFlight_)
        spare_.push_back(std::move(job.bytes));  // nothing points into it now
    }
    batchDone_.notify_all();
  }

  // Merges finished batches in order; with `all`, waits until every submitted batch is merged.
  Status mergeReady(bool all) {
    for (;;) {
      std::optional<Parsed> next;
      {
        std::unique_lock lock(mutex_);
        if (all)
          batchDone_.wait(lock, [&] {
            return done_.count(nextMerge_) || error_ || finished_ == nextSequence_;
          });
        if (error_) return *error_;
        auto it = done_.find(nextMerge_);
        if (it == done_.end()) return Ok{};
        next = std::move(it->second);
        done_.erase(it);
        ++nextMerge_;
        --inFlight_;
      }
      merge_(std::move(*next));
    }
  }

  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    workAvailable_.notify_all();
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }

  ParseFn parse_;
  MergeFn merge_;
  const unsigned workers_;
  const unsigned maxInFlight_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable workAvailable_, batchDone_;
  std::deque<Job> jobs_;
  std::vector<std::vector<char>> spare_;  // batch buffers to reuse
  std::map<std::uint64_t, Parsed> done_;
  std::optional<Error> error_;
  std::uint64_t errorSequence_ = 0;
  std::uint64_t nextSequence_ = 0;  // submitted
  std::uint64_t nextMerge_ = 0;     // merged
  std::uint64_t finished_ = 0;      // parsed (or failed)
  unsigned inFlight_ = 0;
  bool stopping_ = false;
};

}  // namespace sutra
