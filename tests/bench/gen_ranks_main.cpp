// SPDX-License-Identifier: MIT
// sutra-gen-ranks: writes a folder of many ranks' Kineto traces (tests/support/
// rank_folder_generator.h), with one slow rank and skewed host clocks, and optionally the answer
// as JSON (--truth FILE) for checks that compute the expected overview themselves.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "rank_folder_generator.h"

namespace {

constexpr const char* kHelp =
    "Usage: sutra-gen-ranks DIR [--ranks N] [--steps N] [--buckets N] [--kernels N |\n"
    "                       --mb-per-rank X] [--slow-rank R] [--slow-factor F] [--jitter J]\n"
    "                       [--no-skew] [--recorded-waits] [--seed N] [--truth FILE]\n"
    "Writes DIR/rank<r>.pt.trace.json for each rank: a data-parallel job whose ranks all-reduce\n"
    "after each bucket of compute kernels; --slow-rank's compute takes --slow-factor as long, and\n"
    "each host of 8 ranks has its clock a second ahead of the one before (unless --no-skew).\n"
    "--recorded-waits writes each collective's stream wait and each step's device synchronize\n"
    "as CUDA records them (otherwise the waits show in the times only).\n"
    "--truth FILE writes the steps and collectives as generated (JSON).\n";

}  // namespace

int main(int argc, char** argv) {
  sutra::gen::RankFolderSpec spec;
  std::string dir, truth;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "sutra-gen-ranks: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::fputs(kHelp, stdout);
      return 0;
    } else if (a == "--ranks") {
      spec.ranks = std::atoi(next().c_str());
    } else if (a == "--steps") {
      spec.steps = std::atoi(next().c_str());
    } else if (a == "--buckets") {
      spec.bucketsPerStep = std::atoi(next().c_str());
    } else if (a == "--kernels") {
      spec.kernelsPerBucket = std::atoi(next().c_str());
    } else if (a == "--mb-per-rank") {
      spec.targetBytesPerRank = static_cast<std::uint64_t>(std::atof(next().c_str()) * 1e6);
    } else if (a == "--slow-rank") {
      spec.slowRank = std::atoi(next().c_str());
    } else if (a == "--slow-factor") {
      spec.slowFactor = std::atof(next().c_str());
    } else if (a == "--jitter") {
      spec.jitter = std::atof(next().c_str());
    } else if (a == "--no-skew") {
      spec.skewedClocks = false;
    } else if (a == "--recorded-waits") {
      spec.recordedWaits = true;
    } else if (a == "--seed") {
      spec.seed = std::strtoull(next().c_str(), nullptr, 10);
    } else if (a == "--truth") {
      truth = next();
    } else if (!a.empty() && a[0] != '-' && dir.empty()) {
      dir = a;
    } else {
      std::fprintf(stderr, "sutra-gen-ranks: unknown argument '%s'\n%s", a.c_str(), kHelp);
      return 2;
    }
  }
  if (dir.empty()) {
    std::fputs(kHelp, stderr);
    return 2;
  }
  auto run = sutra::gen::generateRankFolder(dir, spec);
  if (!run) {
    std::fprintf(stderr, "sutra-gen-ranks: %s\n", run.error().message.c_str());
    return 2;
  }
  if (!truth.empty()) {
    std::ofstream out(truth);
    out << "{\"kernels_per_bucket\": " << run->kernelsPerBucket << ", \"ranks\": [";
    for (std::size_t r = 0; r < run->steps.size(); ++r) {
      out << (r ? ", " : "") << "{\"rank\": " << r << ", \"file\": \"" << run->files[r]
          << "\", \"clock_skew_ns\": " << run->clockSkew[r] << ", \"steps\": [";
      for (std::size_t s = 0; s < run->steps[r].size(); ++s) {
        const auto& st = run->steps[r][s];
        out << (s ? ", " : "") << "{\"number\": " << st.number
            << ", \"duration_ns\": " << st.duration << ", \"compute_ns\": " << st.compute
            << ", \"exposed_comm_ns\": " << st.exposedComm << ", \"idle_ns\": " << st.idle << "}";
      }
      out << "]}";
    }
    out << "], \"collectives\": [";
    for (std::size_t c = 0; c < run->collectives.size(); ++c) {
      const auto& col = run->collectives[c];
      out << (c ? ", " : "") << "{\"seq\": " << col.seq << ", \"last\": " << col.last
          << ", \"arrival_ns\": [";
      for (std::size_t r = 0; r < col.arrival.size(); ++r) out << (r ? ", " : "") << col.arrival[r];
      out << "]}";
    }
    out << "]}\n";
    if (!out) {
      std::fprintf(stderr, "sutra-gen-ranks: %s: cannot be written\n", truth.c_str());
      return 2;
    }
  }
  std::printf("%d ranks in %s, %d kernels per bucket\n", spec.ranks, dir.c_str(),
              run->kernelsPerBucket);
  return 0;
}
