// SPDX-License-Identifier: MIT
#include "rank_folder_generator.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace sutra::gen {
namespace {

constexpr std::int64_t kStart = 1'000'000'000;  // the first step, on rank 0's clock (ns)
constexpr std::int64_t kHostOpNs = 4'000;       // one host op and its launch
constexpr std::int64_t kStepGapNs = 50'000;     // between the last rank's end and the next step
constexpr std::int64_t kAnnotationTailNs = 10'000;
constexpr int kHostPid = 4242;
constexpr std::uint64_t kBytesPerKernel = 760;  // about: a cpu_op, its launch and its kernel

// A deterministic number in [-1, 1] for (seed, rank, step, index).
double noise(std::uint64_t seed, int rank, std::int64_t step, std::int64_t index) {
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull ^ (static_cast<std::uint64_t>(rank) << 40) ^
                    (static_cast<std::uint64_t>(step) << 20) ^ static_cast<std::uint64_t>(index);
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return static_cast<double>(x >> 11) / static_cast<double>(1ull << 52) * 2.0 - 1.0;
}

// Microseconds with three decimals, exactly the nanoseconds given.
void appendUs(std::string& out, std::int64_t ns) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ns / 1000),
                static_cast<long long>(ns % 1000));
  out += buf;
}

class RankWriter {
 public:
  RankWriter(std::FILE* file, std::int64_t skew) : file_(file), skew_(skew) {}

  void x(const char* cat, const std::string& name, const std::string& pid, const std::string& tid,
         std::int64_t start, std::int64_t dur, const std::string& args) {
    buffer_ += first_ ? "\n  " : ",\n  ";
    first_ = false;
    buffer_ += "{\"ph\": \"X\", \"cat\": \"";
    buffer_ += cat;
    buffer_ +=
        "\", \"name\": \"" + name + "\", \"pid\": " + pid + ", \"tid\": " + tid + ", \"ts\": ";
    appendUs(buffer_, start + skew_);
    buffer_ += ", \"dur\": ";
    appendUs(buffer_, dur);
    buffer_ += ", \"args\": {" + args + "}}";
    if (buffer_.size() > (1u << 20)) flush();
  }
  void raw(const std::string& text) {
    buffer_ += first_ ? "\n  " : ",\n  ";
    first_ = false;
    buffer_ += text;
  }
  void text(const std::string& text) { buffer_ += text; }
  bool flush() {
    const bool ok = std::fwrite(buffer_.data(), 1, buffer_.size(), file_) == buffer_.size();
    buffer_.clear();
    return ok;
  }

 private:
  std::FILE* file_;
  std::int64_t skew_;
  std::string buffer_;
  bool first_ = true;
};

}  // namespace

Result<GeneratedRun> generateRankFolder(const std::string& dir, const RankFolderSpec& spec) {
  namespace fs = std::filesystem;
  if (spec.ranks < 1 || spec.steps < 1 || spec.bucketsPerStep < 1)
    return Error{"rank folder: ranks, steps and buckets must be at least 1"};
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{dir + ": cannot be created: " + ec.message()};

  GeneratedRun run;
  run.kernelsPerBucket = spec.kernelsPerBucket;
  if (spec.targetBytesPerRank > 0)
    run.kernelsPerBucket = static_cast<int>(std::max<std::uint64_t>(
        1, spec.targetBytesPerRank / kBytesPerKernel /
               static_cast<std::uint64_t>(spec.steps * spec.bucketsPerStep)));
  const int n = spec.ranks;
  std::vector<std::FILE*> files(n, nullptr);
  std::vector<RankWriter> writers;
  for (int r = 0; r < n; ++r) {
    const std::string path =
        (fs::path(dir) / ("rank" + std::to_string(r) + ".pt.trace.json")).string();
    files[r] = std::fopen(path.c_str(), "wb");
    if (!files[r]) {
      for (int k = 0; k < r; ++k) std::fclose(files[k]);
      return Error{path + ": cannot be written: " + std::strerror(errno)};
    }
    run.files.push_back(path);
    run.clockSkew.push_back(spec.skewedClocks ? static_cast<std::int64_t>(r / 8) * 1'000'000'000
                                              : 0);
    writers.emplace_back(files[r], run.clockSkew[r]);
    writers[r].text(
        "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [{\"id\": 0, \"name\": "
        "\"NVIDIA H100 80GB HBM3\", \"totalGlobalMem\": 85029158912, \"numSms\": "
        "132}],\n  \"traceEvents\": [");
  }
  run.steps.assign(n, {});

  const std::string hostPid = std::to_string(kHostPid);
  std::int64_t stepStart = kStart;
  std::int64_t seq = 0, externalId = 1, correlation = 1;
  std::vector<std::int64_t> host(n), device(n), commFree(n);
  // Per rank, per step: the compute kernels' and the collectives' intervals (true time).
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> kernels(n), comms(n);
  for (int s = 0; s < spec.steps; ++s) {
    for (int r = 0; r < n; ++r) {
      host[r] = stepStart + 2'000;
      device[r] = stepStart;
      commFree[r] = stepStart;
      kernels[r].clear();
      comms[r].clear();
    }
    std::int64_t kernelIndex = 0;
    for (int b = 0; b < spec.bucketsPerStep; ++b) {
      GeneratedCollective coll;
      coll.seq = seq;
      for (int r = 0; r < n; ++r) {
        auto& w = writers[r];
        for (int k = 0; k < run.kernelsPerBucket; ++k, ++kernelIndex) {
          const std::int64_t launch = host[r] + 500, launchEnd = host[r] + 2'500;
          double d = static_cast<double>(spec.kernelNs) *
                     (1.0 + spec.jitter * noise(spec.seed, r, s, kernelIndex));
          if (r == spec.slowRank) d *= spec.slowFactor;
          const std::int64_t start = std::max(device[r] + 1'000, launchEnd + 1'000);
          const std::int64_t dur = std::max<std::int64_t>(1'000, std::llround(d));
          const std::string ext = std::to_string(externalId++);
          const std::string corr = std::to_string(correlation++);
          w.x("cpu_op", "aten::mm", hostPid, hostPid, host[r], 3'000,
              "\"External id\": " + ext + ", \"Record function id\": " + ext +
                  ", \"Input Dims\": [[2048, 2048], [2048, 2048]], \"Input type\": "
                  "[\"c10::BFloat16\", \"c10::BFloat16\"]");
          w.x("cuda_runtime", "cudaLaunchKernel", hostPid, hostPid, launch, 2'000,
              "\"External id\": " + ext + ", \"cbid\": 211, \"correlation\": " + corr);
          w.x("kernel", "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_cublas", "0", "7", start, dur,
              "\"External id\": " + ext + ", \"device\": 0, \"stream\": 7, \"correlation\": " +
                  corr + ", \"grid\": [8, 16, 1], \"block\": [384, 1, 1]");
          kernels[r].push_back({start, start + dur});
          device[r] = start + dur;
          host[r] += kHostOpNs;
        }
        // The collective waits on the comm stream for the bucket's compute and the previous
        // collective.
        const std::int64_t launchEnd = host[r] + 2'500;
        coll.arrival.push_back(std::max({device[r], launchEnd + 1'000, commFree[r]}));
      }
      const std::int64_t lastArrival = *std::max_element(coll.arrival.begin(), coll.arrival.end());
      coll.last = static_cast<int>(
          std::find(coll.arrival.begin(), coll.arrival.end(), lastArrival) - coll.arrival.begin());
      const std::int64_t end = lastArrival + spec.transferNs;
      for (int r = 0; r < n; ++r) {
        auto& w = writers[r];
        const std::string ext = std::to_string(externalId++);
        const std::string corr = std::to_string(correlation++);
        w.x("cpu_op", "record_param_comms", hostPid, hostPid, host[r], 3'000,
            "\"External id\": " + ext + ", \"Record function id\": " + ext +
                ", \"Collective name\": \"allreduce\", \"Process Group Name\": \"0\", "
                "\"Process Group Description\": \"default_pg\", \"Seq\": " +
                std::to_string(seq) + ", \"Group size\": " + std::to_string(n) +
                ", \"dtype\": \"BFloat16\", \"In msg nelems\": 8388608");
        if (spec.recordedWaits) {
          // Within record_param_comms, before the launch: the event on the compute stream, the
          // comm stream's wait for it.
          const std::string record = std::to_string(correlation++);
          const std::string wait = std::to_string(correlation++);
          w.x("cuda_runtime", "cudaEventRecord", hostPid, hostPid, host[r] + 100, 150,
              "\"External id\": " + ext + ", \"cbid\": 135, \"correlation\": " + record);
          w.x("cuda_runtime", "cudaStreamWaitEvent", hostPid, hostPid, host[r] + 300, 150,
              "\"External id\": " + ext + ", \"cbid\": 147, \"correlation\": " + wait);
          w.x("cuda_sync", "Stream Wait Event", "0", "20", host[r] + 350, 100,
              "\"External id\": " + ext +
                  ", \"cuda_sync_kind\": \"Stream Wait Event\", \"wait_on_stream\": 7, "
                  "\"wait_on_cuda_event_record_corr_id\": " +
                  record + ", \"stream\": 20, \"device\": 0, \"correlation\": " + wait);
        }
        w.x("cuda_runtime", "cudaLaunchKernel", hostPid, hostPid, host[r] + 500, 2'000,
            "\"External id\": " + ext + ", \"cbid\": 211, \"correlation\": " + corr);
        w.x("kernel", "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "0", "20", coll.arrival[r],
            end - coll.arrival[r],
            "\"External id\": " + ext +
                ", \"device\": 0, \"stream\": 20, \"correlation\": " + corr);
        comms[r].push_back({coll.arrival[r], end});
        commFree[r] = end;
        host[r] += kHostOpNs;
      }
      run.collectives.push_back(std::move(coll));
      ++seq;
    }
    std::int64_t allDone = 0;
    for (int r = 0; r < n; ++r) allDone = std::max({allDone, device[r], commFree[r], host[r]});
    if (spec.recordedWaits)
      for (int r = 0; r < n; ++r) {
        const std::int64_t done = std::max(device[r], commFree[r]);
        if (done <= host[r]) continue;
        const std::string corr = std::to_string(correlation++);
        writers[r].x("cuda_runtime", "cudaDeviceSynchronize", hostPid, hostPid, host[r],
                     done + 1'000 - host[r],
                     "\"External id\": " + std::to_string(externalId++) +
                         ", \"cbid\": 165, \"correlation\": " + corr);
        host[r] = done + 1'000;
        allDone = std::max(allDone, host[r]);
      }
    const std::int64_t nextStart = allDone + kStepGapNs;
    const std::int64_t annotationEnd = nextStart - kAnnotationTailNs;
    for (int r = 0; r < n; ++r) {
      writers[r].x("user_annotation", "ProfilerStep#" + std::to_string(s), hostPid, hostPid,
                   stepStart, annotationEnd - stepStart,
                   "\"External id\": " + std::to_string(externalId++));
      GeneratedStep st;
      st.number = s;
      st.start = stepStart + run.clockSkew[r];
      st.duration = annotationEnd - stepStart;
      std::int64_t commTime = 0, hidden = 0;
      for (const auto& k : kernels[r]) st.compute += k.second - k.first;
      // Pairwise: a collective is hidden where a compute kernel runs (kernels on one stream never
      // overlap each other, nor do collectives).
      for (const auto& c : comms[r]) {
        commTime += c.second - c.first;
        for (const auto& k : kernels[r])
          hidden +=
              std::max<std::int64_t>(0, std::min(c.second, k.second) - std::max(c.first, k.first));
      }
      st.exposedComm = commTime - hidden;
      st.idle = st.duration - st.compute - st.exposedComm;
      run.steps[r].push_back(st);
    }
    stepStart = nextStart;
  }

  bool ok = true;
  for (int r = 0; r < n; ++r) {
    auto& w = writers[r];
    w.raw("{\"name\": \"process_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": " + hostPid +
          ", \"tid\": 0, \"args\": {\"name\": \"python3\"}}");
    w.raw(
        "{\"name\": \"process_labels\", \"ph\": \"M\", \"ts\": 0, \"pid\": 0, \"tid\": 0, "
        "\"args\": {\"labels\": \"GPU 0\"}}");
    w.raw(
        "{\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": 0, \"tid\": 7, "
        "\"args\": {\"name\": \"stream 7 \"}}");
    w.raw(
        "{\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": 0, \"tid\": 20, "
        "\"args\": {\"name\": \"stream 20 \"}}");
    w.text("\n  ],\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": " + std::to_string(r) +
           ", \"world_size\": " + std::to_string(n) +
           ", \"pg_count\": 1},\n  \"traceName\": \"generated rank " + std::to_string(r) +
           "\",\n  \"displayTimeUnit\": \"ms\"\n}\n");
    ok = w.flush() && ok;
    ok = std::fclose(files[r]) == 0 && ok;
  }
  if (!ok) return Error{dir + ": a trace could not be written (disk full?)"};
  return run;
}

}  // namespace sutra::gen
