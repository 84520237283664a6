// SPDX-License-Identifier: MIT
// sutra-bench-compare: `sutra-cli compare A B`'s work, stage by stage, on two runs (Kineto traces
// or folders holding one), each round in a fresh process as the CLI is, and optionally beside a
// reference command run right before it (HTA's TraceDiff:
// tools/reference/measure_convert_compare.sh shows the command), with the ratio of CPU and wall
// time round by round.
//   sutra-bench-compare A B [--rounds N] [--with-args] [--reference 'CMD']
//     --with-args  read the events' args as well (what --group-by-shape needs; compare's default
//                  read leaves them out)
// Make ~100 MB runs with tools/reference/scale_kineto.py (the rmsnorm samples, scaled).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "analysis/compare.h"
#include "analysis/compare_story.h"
#include "analysis/op_table.h"
#include "bench_process.h"
#include "link/steps.h"
#include "session/run.h"
#include "util/huge_pages.h"

namespace {

using namespace sutra::bench;

// What one round measured; plain numbers, sent back from the child through a pipe.
struct Round {
  enum Stage { ReadA, ReadB, Tables, Compare, kStages };
  double cpu[kStages] = {}, wall[kStages] = {};
  double totalCpu = 0, totalWall = 0;
  long rssKiB = 0;
  std::size_t rows = 0;
  bool ok = false;
};

// compare's own calls: each run opened up to its analyses without sync dependencies (and without
// the events' args unless asked), its whole-trace table, the comparison and its story.
Round compareOnce(const std::string& a, const std::string& b, bool withArgs) {
  Round r;
  const double cpu0 = cpuSeconds(), wall0 = wallSeconds();
  double cpu = cpu0, wall = wall0;
  auto lap = [&](Round::Stage stage) {
    const double c = cpuSeconds(), w = wallSeconds();
    r.cpu[stage] = c - cpu;
    r.wall[stage] = w - wall;
    cpu = c;
    wall = w;
  };
  sutra::RunOptions options = sutra::RunOptions::upTo(sutra::RunStage::Analyse);
  options.wholeTraceTable = false;
  options.syncDependencies = false;
  options.eventArgs = withArgs;
  auto runA = sutra::openTrace(a, options);
  if (!runA) return std::fprintf(stderr, "%s\n", runA.error().message.c_str()), r;
  lap(Round::ReadA);
  auto runB = sutra::openTrace(b, options);
  if (!runB) return std::fprintf(stderr, "%s\n", runB.error().message.c_str()), r;
  lap(Round::ReadB);
  const sutra::RankRun& ra = **runA;
  const sutra::RankRun& rb = **runB;
  const auto tableA = sutra::buildOpTable(*ra.trace, *ra.launches(),
                                          {sutra::wholeTraceWindow(*ra.trace), withArgs});
  const auto tableB = sutra::buildOpTable(*rb.trace, *rb.launches(),
                                          {sutra::wholeTraceWindow(*rb.trace), withArgs});
  lap(Round::Tables);
  const auto comparison = sutra::compareOpTables(tableA, tableB, "A", "B");
  const auto story =
      sutra::tellComparison(comparison, *ra.trace, *rb.trace, ra.steps().size(), rb.steps().size());
  lap(Round::Compare);
  if (story.headline.empty()) return std::fprintf(stderr, "no story told\n"), r;
  r.rows = comparison.rows.size();
  r.totalCpu = cpuSeconds() - cpu0;
  r.totalWall = wallSeconds() - wall0;
  r.rssKiB = peakRssKiB();
  r.ok = true;
  return r;
}

// A round in a fresh process, as a CLI call is (bench_process.h).
Round compareInChild(const std::string& a, const std::string& b, bool withArgs) {
  return runInChild<Round>([&]() -> std::optional<Round> {
           const Round done = compareOnce(a, b, withArgs);
           if (!done.ok) return std::nullopt;
           return done;
         })
      .value_or(Round{});
}

struct Reference {
  double cpu = 0, wall = 0;
  bool ok = false;
};

// The reference command through /bin/sh, its output discarded; CPU = user + system of it and its
// children (wait4), wall = elapsed.
Reference runReference(const std::string& command) {
  Reference ref;
  const double wall0 = wallSeconds();
  const pid_t child = fork();
  if (child == 0) {
    const std::string quiet = command + " >/dev/null";
    execl("/bin/sh", "sh", "-c", quiet.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  if (child < 0) return ref;
  int status = 0;
  rusage usage{};
  wait4(child, &status, 0, &usage);
  ref.wall = wallSeconds() - wall0;
  ref.cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
            1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  ref.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return ref;
}

}  // namespace

int main(int argc, char** argv) {
  sutra::useHugePagesForMalloc(argv);  // as sutra-cli does
  std::string a, b, reference;
  bool withArgs = false;
  int rounds = 3;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--with-args") == 0)
      withArgs = true;
    else if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
      rounds = std::max(1, std::atoi(argv[++i]));
    else if (std::strcmp(argv[i], "--reference") == 0 && i + 1 < argc)
      reference = argv[++i];
    else if (a.empty())
      a = argv[i];
    else
      b = argv[i];
  }
  if (a.empty() || b.empty()) {
    std::fprintf(stderr,
                 "usage: sutra-bench-compare A B [--rounds N] [--with-args] [--reference 'CMD']\n");
    return 2;
  }
  std::printf("A: %s\nB: %s\nread %s the events' args\n", a.c_str(), b.c_str(),
              withArgs ? "with" : "without");
  int failed = 0;
  for (int round = 0; round < rounds; ++round) {
    Reference ref;
    if (!reference.empty()) {
      ref = runReference(reference);
      if (!ref.ok) std::printf("round %d: the reference failed\n", round), ++failed;
    }
    const Round r = compareInChild(a, b, withArgs);
    if (!r.ok) {
      std::printf("round %d: Sutra failed\n", round);
      ++failed;
      continue;
    }
    std::printf(
        "round %d: Sutra %.3f s wall, %.3f s CPU (read A %.3f, read B %.3f, tables %.3f, compare "
        "%.3f CPU s), peak RSS %ld MiB, %zu rows",
        round, r.totalWall, r.totalCpu, r.cpu[Round::ReadA], r.cpu[Round::ReadB],
        r.cpu[Round::Tables], r.cpu[Round::Compare], r.rssKiB / 1024, r.rows);
    if (ref.ok)
      std::printf("; reference %.2f s wall, %.2f s CPU: %.1fx wall, %.1fx CPU", ref.wall, ref.cpu,
                  ref.wall / r.totalWall, ref.cpu / r.totalCpu);
    std::printf("\n");
  }
  return failed ? 1 : 0;
}
