// SPDX-License-Identifier: MIT
// sutra-bench-et: the ET and ET+ readers beside Python's json.load of the same file, in one run.
// Make the inputs with tests/bench/scale_et.py (real ETs of ../shared scaled to 100 MB or 1 GB;
// an ET+ is a linked pair's output, `sutra-cli link`, scaled the same way), uncompressed in /tmp.
// Each round runs `python3 json.load` on the file and then Sutra's reader, one after the other
// (this machine's speed drifts within minutes), each in a fresh process, and the ratio is taken
// round by round, of wall and of CPU time (user + system). Peak RSS: each process's own.
//   sutra-bench-et FILE [--plus] [--rounds N] [--no-python]
//     --plus  read FILE as an ET+ (readLinkedEt: convert --linked's reader), else as an ET
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "bench_process.h"
#include "io/readers.h"
#include "link/et_plus_reader.h"
#include "util/huge_pages.h"

namespace {

using namespace sutra::bench;

struct PythonRun {
  double seconds = -1;  // negative if it failed
  double cpu = 0;       // user + system seconds of the load
  long rssKiB = 0;      // the process's peak
};

// Python's json.load of `path`, timed inside Python (its start-up left out).
PythonRun pythonJsonLoad(const std::string& path) {
  const std::string command =
      "python3 -c 'import json,sys,time,resource; r=resource.getrusage; S=resource.RUSAGE_SELF; "
      "c=lambda: r(S).ru_utime+r(S).ru_stime; t=time.perf_counter(); c0=c(); "
      "json.load(open(sys.argv[1],\"rb\")); "
      "print(time.perf_counter()-t, c()-c0, r(S).ru_maxrss)' '" +
      path + "'";
  PythonRun run;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    if (std::fscanf(pipe, "%lf %lf %ld", &run.seconds, &run.cpu, &run.rssKiB) != 3)
      run.seconds = -1;
    pclose(pipe);
  }
  return run;
}

struct SutraRun {
  double seconds = -1;  // negative if it failed (the child printed why)
  double cpu = 0;
  std::size_t nodes = 0;
  long rssKiB = 0;
  // Where the model's memory is: the nodes themselves, and the arenas their views point into.
  std::size_t nodeBytes = 0, arenaHeapBytes = 0, arenaUsedBytes = 0;
};

void measureModel(const sutra::EtTrace& et, SutraRun& run) {
  run.nodeBytes = et.nodes.size() * sizeof(sutra::EtNode);
  for (const auto& storage : et.storage) {
    run.arenaHeapBytes += storage->heapBytes();
    run.arenaUsedBytes += storage->usedBytes();
  }
}

// One read in a child process, as Python's is: a fresh process, whose memory the kernel hands over
// page by page (a second read in the same process reuses the first one's freed pages, and takes
// about half the CPU time).
SutraRun sutraRead(const std::string& path, bool plus) {
  // The model is not freed: Python's figure leaves its teardown out too.
  return runInChild<SutraRun>([&]() -> std::optional<SutraRun> {
           const double wall0 = wallSeconds(), cpu0 = cpuSeconds();
           SutraRun done;
           if (plus) {
             auto linked = sutra::readLinkedEt(path);
             if (!linked)
               return std::fprintf(stderr, "%s\n", linked.error().message.c_str()), std::nullopt;
             done.nodes = linked->ops.size();
             measureModel(*linked->et, done);
           } else {
             auto et = sutra::readPytorchEt(path);
             if (!et) return std::fprintf(stderr, "%s\n", et.error().message.c_str()), std::nullopt;
             done.nodes = et->nodes.size();
             measureModel(*et, done);
           }
           done.seconds = wallSeconds() - wall0;
           done.cpu = cpuSeconds() - cpu0;
           done.rssKiB = peakRssKiB();
           return done;
         })
      .value_or(SutraRun{});
}

}  // namespace

int main(int argc, char** argv) {
  // As sutra-cli and the window do; json.load's Python inherits it too, so both sides get them.
  sutra::useHugePagesForMalloc(argv);
  std::string path;
  bool plus = false, python = true;
  int rounds = 3;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--plus") == 0)
      plus = true;
    else if (std::strcmp(argv[i], "--no-python") == 0)
      python = false;
    else if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
      rounds = std::max(1, std::atoi(argv[++i]));
    else
      path = argv[i];
  }
  if (path.empty()) {
    std::fprintf(stderr, "usage: sutra-bench-et FILE [--plus] [--rounds N] [--no-python]\n");
    return 2;
  }
  std::error_code ec;
  const double mb = static_cast<double>(std::filesystem::file_size(path, ec)) / 1e6;
  if (ec) return std::fprintf(stderr, "%s: %s\n", path.c_str(), ec.message().c_str()), 2;

  std::printf("file: %s (%.1f MB), reader: %s\n", path.c_str(), mb,
              plus ? "ET+ (readLinkedEt)" : "ET (readPytorchEt)");
  double bestSutra = 1e30, bestPython = 1e30, bestRatio = 0;
  long sutraRss = 0, pythonRss = 0;
  SutraRun last;
  for (int r = 0; r < rounds; ++r) {
    double py = -1, pyCpu = 0;
    if (python && r > 0) {  // the first round is Sutra's alone, the file's first read
      const PythonRun run = pythonJsonLoad(path);
      py = run.seconds, pyCpu = run.cpu, pythonRss = std::max(pythonRss, run.rssKiB);
    }
    const SutraRun run = sutraRead(path, plus);
    if (run.seconds < 0) return 2;
    last = run;
    const double s = run.seconds, cpu = run.cpu;
    const std::size_t nodes = run.nodes;
    sutraRss = std::max(sutraRss, run.rssKiB);
    bestSutra = std::min(bestSutra, s);
    if (py > 0) {
      bestPython = std::min(bestPython, py);
      bestRatio = std::max(bestRatio, py / s);
      std::printf(
          "round %d: json.load %.2f s (%.1f MB/s, %.2f s CPU), Sutra %.2f s (%.1f MB/s, %.2f s "
          "CPU, %zu %s): %.1fx wall, %.1fx CPU\n",
          r, py, mb / py, pyCpu, s, mb / s, cpu, nodes, plus ? "ops" : "nodes", py / s,
          pyCpu / cpu);
    } else {
      std::printf("round %d: Sutra %.2f s (%.1f MB/s, %.2f s CPU, %zu %s)\n", r, s, mb / s, cpu,
                  nodes, plus ? "ops" : "nodes");
    }
  }
  std::printf("best: Sutra %.2f s (%.1f MB/s)", bestSutra, mb / bestSutra);
  if (bestPython < 1e30)
    std::printf(", json.load %.2f s (%.1f MB/s); ratio of best times %.1fx, best round %.1fx",
                bestPython, mb / bestPython, bestPython / bestSutra, bestRatio);
  std::printf("\npeak RSS: Sutra %.0f MiB (%.2f of the file)", sutraRss / 1024.0,
              sutraRss / 1024.0 * 1.048576 / mb);
  if (pythonRss) std::printf(", json.load %.0f MiB", pythonRss / 1024.0);
  std::printf("\nmodel: %zu nodes x %zu B = %.1f MB, arenas %.1f MB (%.1f MB used)\n", last.nodes,
              sizeof(sutra::EtNode), last.nodeBytes / 1e6, last.arenaHeapBytes / 1e6,
              last.arenaUsedBytes / 1e6);
  return 0;
}
