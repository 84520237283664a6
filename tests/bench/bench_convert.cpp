// SPDX-License-Identifier: MIT
// sutra-bench-convert: the ET + Kineto -> Chakra conversion, stage by stage (read ET, read Kineto,
// link, convert, write the .et), with CPU and wall time and the process's peak memory. MLCommons
// Chakra's Python converter is not installed on the development machine (no PyPI access), so the
// side-by-side ratio against it is left to a machine that has it: run `chakra_trace_link` and
// `chakra_converter` on the same pair and divide.
//
// With --scale N the linked trace is replicated N times back to back (ids, times and dependencies
// shifted, threads and streams shared, so each copy follows the previous) before it is converted,
// to measure the converter and the writer on a million-node graph; reading and linking are then
// timed once on the original pair.
//
// With --linked ETPLUS the stages are those of `sutra-cli convert --linked`: read the ET+ file,
// convert and write the .et in one pass (encodeRankFiles: each node serialised as it is built
// and written), and free what was built (the CLI leaves that to the process's exit).
//
// Usage: sutra-bench-convert [ET KINETO | --linked ETPLUS] [--repeats N] [--scale N]
//        (defaults: ../shared param linear pair, 5 repeats, scale 1)
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "chakra/convert_files.h"
#include "chakra/converter.h"
#include "chakra/et_file.h"
#include "io/readers.h"
#include "link/et_plus_reader.h"
#include "link/linked_trace.h"

namespace {

struct Stamp {
  double wall, cpu;
  static Stamp now() {
    timespec cpu{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
    return {
        std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(),
        static_cast<double>(cpu.tv_sec) + 1e-9 * static_cast<double>(cpu.tv_nsec)};
  }
};

struct Stage {
  const char* name;
  std::vector<double> wall, cpu;
  void add(Stamp t0) {
    const Stamp t1 = Stamp::now();
    wall.push_back(t1.wall - t0.wall);
    cpu.push_back(t1.cpu - t0.cpu);
  }
  static double best(std::vector<double> v) { return *std::min_element(v.begin(), v.end()); }
};

// `copies` back-to-back copies of a linked trace.
sutra::LinkedTrace replicate(const sutra::LinkedTrace& source, int copies) {
  using namespace sutra;
  LinkedTrace out;
  out.kineto = source.kineto;
  out.et = source.et;
  out.rank = source.rank;
  std::int64_t maxId = 0;
  TimeNs first = 0, last = 0;
  for (const auto& op : source.ops) {
    maxId = std::max(maxId, op.id);
    if (op.ts > 0 && (first == 0 || op.ts < first)) first = op.ts;
    last = std::max(last, op.ts + op.inclusiveDur);
  }
  const std::int64_t idStride = maxId + 1;
  const TimeNs period = last - first + 1000;
  out.ops.reserve(source.ops.size() * static_cast<std::size_t>(copies));
  for (int c = 0; c < copies; ++c) {
    for (const auto& src : source.ops) {
      LinkedOp op = src;
      op.id += idStride * c;
      if (op.parent >= 0) op.parent += idStride * c;
      if (op.ts > 0) op.ts += period * c;
      for (auto& d : op.interThreadDeps) d += idStride * c;
      for (auto& d : op.syncDeps) d += idStride * c;
      out.ops.push_back(std::move(op));
    }
  }
  out.reindex();
  return out;
}

constexpr const char* kUsage =
    "Usage: sutra-bench-convert [ET KINETO | --linked ETPLUS] [--repeats N] [--scale N]";

long peakRssKb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// `convert --linked`'s stages, on one ET+ file.
int benchLinked(const std::string& path, const std::string& out, int repeats) {
  using namespace sutra;
  Stage read{"read ET+", {}, {}}, convert{"convert+write", {}, {}}, release{"free", {}, {}};
  std::size_t nodes = 0, bytes = 0;
  for (int r = 0; r < repeats; ++r) {
    Stamp t = Stamp::now();
    auto linked = std::make_unique<LinkedTrace>();
    {
      auto read1 = readLinkedEt(path);
      if (!read1) {
        std::fprintf(stderr, "%s\n", read1.error().message.c_str());
        return 2;
      }
      *linked = std::move(read1.value());
    }
    read.add(t);
    t = Stamp::now();
    std::vector<std::string> written;
    auto conv =
        chakra::encodeRankFiles(*linked, out.substr(0, out.size() - 5), {0}, {}, {}, {}, written);
    convert.add(t);
    if (!conv) {
      std::fprintf(stderr, "%s\n", conv.error().message.c_str());
      return 2;
    }
    nodes = conv->nodeCount;
    bytes = std::filesystem::file_size(out);
    t = Stamp::now();
    conv = Error{};
    linked.reset();
    release.add(t);
  }
  std::filesystem::remove(out);
  std::printf("sutra-bench-convert: --linked %s, best of %d\n", path.c_str(), repeats);
  std::printf("  %zu nodes, %zu bytes written\n", nodes, bytes);
  double totalWall = 0, totalCpu = 0;
  for (const Stage* s : {&read, &convert, &release}) {
    const double w = Stage::best(s->wall), c = Stage::best(s->cpu);
    totalWall += w;
    totalCpu += c;
    std::printf("  %-12s %9.2f ms wall %9.2f ms CPU\n", s->name, 1e3 * w, 1e3 * c);
  }
  std::printf("  %-12s %9.2f ms wall %9.2f ms CPU\n", "total", 1e3 * totalWall, 1e3 * totalCpu);
  std::printf("  peak RSS %.1f MiB\n", static_cast<double>(peakRssKb()) / 1024.0);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace sutra;
  const std::string shared = SUTRA_SHARED_TRACES;
  std::vector<std::string> positional;
  int repeats = 5, scale = 1;
  std::string linkedPath;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--linked" && i + 1 < argc) {
      linkedPath = argv[++i];
    } else if ((a == "--repeats" || a == "--scale") && i + 1 < argc) {
      (a == "--repeats" ? repeats : scale) = std::max(1, std::atoi(argv[++i]));
    } else if (a == "-h" || a == "--help") {
      std::printf("%s\n", kUsage);
      return 0;
    } else {
      positional.push_back(a);
    }
  }
  if ((positional.size() != 0 && positional.size() != 2) ||
      (!linkedPath.empty() && !positional.empty())) {
    std::fprintf(stderr, "%s\n", kUsage);
    return 2;
  }
  const std::string etPath =
      positional.empty() ? shared + "/param/linear_et.json.gz" : positional[0];
  const std::string kinetoPath =
      positional.empty() ? shared + "/param/linear_kineto.json.gz" : positional[1];
  const std::string out =
      (std::filesystem::temp_directory_path() / "sutra-bench-convert.0.et").string();

  if (!linkedPath.empty()) return benchLinked(linkedPath, out, repeats);

  Stage readEt{"read ET", {}, {}}, readKineto{"read Kineto", {}, {}}, link{"link", {}, {}},
      convert{"convert", {}, {}}, write{"write .et", {}, {}};
  std::size_t nodes = 0, edges = 0, bytes = 0;
  for (int r = 0; r < repeats; ++r) {
    Stamp t = Stamp::now();
    auto et = readPytorchEt(etPath);
    readEt.add(t);
    t = Stamp::now();
    auto kineto = readKinetoTrace(kinetoPath);
    readKineto.add(t);
    if (!et || !kineto) {
      std::fprintf(stderr, "%s\n", (!et ? et.error() : kineto.error()).message.c_str());
      return 2;
    }
    t = Stamp::now();
    auto linked = linkTraces(std::make_shared<const EtTrace>(std::move(et.value())),
                             std::make_shared<const Trace>(std::move(kineto.value())));
    link.add(t);
    if (!linked) {
      std::fprintf(stderr, "%s\n", linked.error().message.c_str());
      return 2;
    }
    if (scale > 1) linked = replicate(*linked, scale);
    t = Stamp::now();
    auto conv = chakra::convertToChakra(*linked);
    convert.add(t);
    if (!conv) {
      std::fprintf(stderr, "%s\n", conv.error().message.c_str());
      return 2;
    }
    t = Stamp::now();
    auto st = chakra::writeChakraTrace(conv->trace, out);
    write.add(t);
    if (!st) {
      std::fprintf(stderr, "%s\n", st.error().message.c_str());
      return 2;
    }
    nodes = conv->trace.nodes.size();
    edges = conv->stats.totalEdges();
    bytes = std::filesystem::file_size(out);
  }
  std::filesystem::remove(out);
  std::printf("sutra-bench-convert: %s + %s, linked trace x%d, best of %d\n", etPath.c_str(),
              kinetoPath.c_str(), scale, repeats);
  std::printf("  %zu nodes, %zu edges, %zu bytes written\n", nodes, edges, bytes);
  double totalWall = 0, totalCpu = 0;
  for (const Stage* s : {&readEt, &readKineto, &link, &convert, &write}) {
    const double w = Stage::best(s->wall), c = Stage::best(s->cpu);
    totalWall += w;
    totalCpu += c;
    std::printf("  %-12s %9.2f ms wall %9.2f ms CPU\n", s->name, 1e3 * w, 1e3 * c);
  }
  std::printf("  %-12s %9.2f ms wall %9.2f ms CPU\n", "total", 1e3 * totalWall, 1e3 * totalCpu);
  std::printf("  convert: %.0f nodes/s (CPU); peak RSS %.1f MiB\n",
              static_cast<double>(nodes) / Stage::best(convert.cpu),
              static_cast<double>(peakRssKb()) / 1024.0);
  return 0;
}
